// Every application with an AppInstance (apps/<name>/<name>_app.h), in the order. The
// benchmark harness and the demo iterate this list. Include "Halide.h" first.
//
// To register an app: add its #include below and its {"name", make_name_app} line to the list
// (one line each; leave the other apps' lines as they are).
#ifndef LOOM_APPS_COMMON_ALL_APPS_H
#define LOOM_APPS_COMMON_ALL_APPS_H

#include "common/app.h"

#include "bilateral_grid/bilateral_grid_app.h"
#include "blur/blur_app.h"
#include "camera_pipe/camera_pipe_app.h"
#include "conv_layer/conv_layer_app.h"
#include "harris/harris_app.h"
#include "hist_eq/hist_eq_app.h"
#include "interpolate/interpolate_app.h"
#include "lens_blur/lens_blur_app.h"
#include "local_laplacian/local_laplacian_app.h"
#include "matmul/matmul_app.h"
#include "max_filter/max_filter_app.h"
#include "nl_means/nl_means_app.h"
#include "pyramid_blend/pyramid_blend_app.h"
#include "snake/snake_app.h"
#include "unsharp/unsharp_app.h"
#include "vgg16/vgg16_app.h"

#include <vector>

inline std::vector<AppEntry> all_apps() {
    return {
        {"blur", make_blur_app},
        {"hist_eq", make_hist_eq_app},
        {"camera_pipe", make_camera_pipe_app},
        {"local_laplacian", make_local_laplacian_app},
        {"bilateral_grid", make_bilateral_grid_app},
        {"unsharp", make_unsharp_app},
        {"harris", make_harris_app},
        {"nl_means", make_nl_means_app},
        {"nl_means_small", make_nl_means_small_app},
        {"max_filter", make_max_filter_app},
        {"interpolate", make_interpolate_app},
        {"lens_blur", make_lens_blur_app},
        {"conv_layer", make_conv_layer_app},
        {"matmul", make_matmul_app},
        {"vgg16", make_vgg16_app},
        {"pyramid_blend", make_pyramid_blend_app},
        {"snake", make_snake_app},
    };
}

#endif
