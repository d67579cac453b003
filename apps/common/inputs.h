// Inputs for the applications: the shared photographs, enlarged to a benchmark size by mirrored
// tiling (no seams, so stencils see natural image statistics everywhere), or at their own size
// for the demo (InputSize::Natural), or deterministic synthetic images when no photograph is
// available. Include "Halide.h" first; the binary links libpng and libjpeg (halide_image_io.h).
#ifndef LOOM_APPS_COMMON_INPUTS_H
#define LOOM_APPS_COMMON_INPUTS_H

#include "halide_image_io.h"

#include "common/app.h"

#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>

namespace app_inputs {

/// images_dir/file loaded as T (8-bit PNGs as uint8_t, the 16-bit ones as uint16_t), or an
/// empty buffer when images_dir is empty or the file cannot be read.
template <typename T>
Halide::Buffer<T> load_photo(const std::string &images_dir, const std::string &file) {
    if (images_dir.empty()) return Halide::Buffer<T>();
    std::string path = images_dir + "/" + file;
    if (FILE *f = std::fopen(path.c_str(), "rb")) {
        std::fclose(f);
        Halide::Buffer<T> im = Halide::Tools::load_image(path);
        return im;
    }
    return Halide::Buffer<T>();
}

/// Reflects i into [0, n): 0 1 .. n-1 n-1 .. 1 0 0 1 .. (period 2n).
inline int mirror_index(int i, int n) {
    int period = 2 * n;
    int m = ((i % period) + period) % period;
    return m < n ? m : period - 1 - m;
}

/// src (2-D, or 3-D with channels last) enlarged or cropped to width x height by mirrored
/// tiling; the channels are kept.
template <typename T>
Halide::Buffer<T> tile_mirrored(const Halide::Buffer<T> &src, int width, int height) {
    Halide::Buffer<T> out = src.dimensions() == 3 ? Halide::Buffer<T>(width, height, src.channels())
                                                  : Halide::Buffer<T>(width, height);
    int channels = src.dimensions() == 3 ? src.channels() : 1;
    for (int c = 0; c < channels; c++)
        for (int y = 0; y < height; y++) {
            int sy = mirror_index(y, src.height());
            for (int x = 0; x < width; x++) {
                int sx = mirror_index(x, src.width());
                if (src.dimensions() == 3)
                    out(x, y, c) = src(sx, sy, c);
                else
                    out(x, y) = src(sx, sy);
            }
        }
    return out;
}

/// An integer buffer scaled to float in [0, 1] (divided by the type's maximum).
template <typename T>
Halide::Buffer<float> to_unit_float(const Halide::Buffer<T> &src) {
    static_assert(std::is_integral<T>::value, "to_unit_float converts integer images");
    Halide::Buffer<float> out =
        src.dimensions() == 3 ? Halide::Buffer<float>(src.width(), src.height(), src.channels())
                              : Halide::Buffer<float>(src.width(), src.height());
    const float scale = 1.0f / (float)((1u << (8 * sizeof(T))) - 1);
    out.for_each_element([&](const int *pos) { out(pos) = src(pos) * scale; });
    return out;
}

/// A deterministic float image in [0, 1]: ramps plus hash noise, `channels` planes (0 for 2-D).
inline Halide::Buffer<float> synthetic_float(int width, int height, int channels, uint32_t seed) {
    Halide::Buffer<float> out = channels ? Halide::Buffer<float>(width, height, channels)
                                         : Halide::Buffer<float>(width, height);
    uint32_t state = seed;
    for (int c = 0; c < (channels ? channels : 1); c++)
        for (int y = 0; y < height; y++)
            for (int x = 0; x < width; x++) {
                state = state * 1664525u + 1013904223u;
                float noise = (float)(state >> 8) / (float)(1u << 24);
                float v = 0.5f * x / width + 0.3f * y / height + 0.2f * noise;
                if (channels)
                    out(x, y, c) = v;
                else
                    out(x, y) = v;
            }
    return out;
}

/// The RGB photograph as float in [0, 1], tiled to width x height x 3; synthetic without one.
inline Halide::Buffer<float> photo_rgb_float(const std::string &images_dir, int width, int height) {
    Halide::Buffer<uint8_t> photo = load_photo<uint8_t>(images_dir, "rgb_small.png");
    if (!photo.defined()) return synthetic_float(width, height, 3, 2024);
    return to_unit_float(tile_mirrored(photo, width, height));
}

/// The 2-D photograph `file` as float in [0, 1], tiled to width x height, with its description
/// in *description ("<w>x<h> float, <file>", " tiled" when resized); without it (or when it is
/// not 2-D) a synthetic image from `seed`, described as such.
inline Halide::Buffer<float> photo_gray_float(const std::string &images_dir, const char *file,
                                              int width, int height, uint32_t seed,
                                              std::string *description) {
    Halide::Buffer<uint8_t> photo = load_photo<uint8_t>(images_dir, file);
    std::string size = std::to_string(width) + "x" + std::to_string(height) + " float, ";
    if (!photo.defined() || photo.dimensions() != 2) {
        *description = size + "synthetic";
        return synthetic_float(width, height, 0, seed);
    }
    bool resized = photo.width() != width || photo.height() != height;
    *description = size + file + (resized ? " tiled" : "");
    return to_unit_float(tile_mirrored(photo, width, height));
}

/// The demo's RGB photograph (InputSize::Natural): 768 x 1280 x 3, 8-bit.
constexpr const char *kNaturalRgb = "tutorial_rgb.png";
constexpr int kNaturalRgbWidth = 768, kNaturalRgbHeight = 1280;

/// The 8-bit photograph `file` at its own size, untiled (InputSize::Natural), with *source set to
/// "<file>"; without it, or when it does not have `channels` channels (0: 2-D), a synthetic
/// `width` x `height` image from `seed` with *source "synthetic".
inline Halide::Buffer<uint8_t> natural_photo8(const std::string &images_dir, const char *file,
                                              int channels, int width, int height, uint32_t seed,
                                              std::string *source) {
    Halide::Buffer<uint8_t> photo = load_photo<uint8_t>(images_dir, file);
    const bool fits =
        photo.defined() && (channels ? photo.dimensions() == 3 && photo.channels() == channels
                                     : photo.dimensions() == 2);
    if (fits) {
        *source = file;
        return photo;
    }
    *source = "synthetic";
    Halide::Buffer<float> f = synthetic_float(width, height, channels, seed);
    Halide::Buffer<uint8_t> out = channels ? Halide::Buffer<uint8_t>(width, height, channels)
                                           : Halide::Buffer<uint8_t>(width, height);
    out.for_each_element([&](const int *pos) { out(pos) = (uint8_t)(f(pos) * 255.0f); });
    return out;
}

/// The demo's RGB photograph (kNaturalRgb) at its own size as float in [0, 1], with *source as
/// natural_photo8 sets it.
inline Halide::Buffer<float> natural_rgb_float(const std::string &images_dir, uint32_t seed,
                                               std::string *source) {
    return to_unit_float(natural_photo8(images_dir, kNaturalRgb, 3, kNaturalRgbWidth,
                                        kNaturalRgbHeight, seed, source));
}

/// The float RGB input of the apps that filter one photograph (harris, unsharp, max_filter): the
/// natural photograph (*source_note = ", <file>") or rgb_small.png tiled to the benchmark's
/// 1536 x 2560 or the small 192 x 320 (*source_note empty).
inline Halide::Buffer<float> rgb_float_input(const AppOptions &opt, std::string *source_note) {
    source_note->clear();
    if (opt.size() == InputSize::Natural) {
        Halide::Buffer<float> in = natural_rgb_float(opt.images_dir, 2024, source_note);
        *source_note = ", " + *source_note;
        return in;
    }
    const bool big = opt.size() == InputSize::Benchmark;
    return photo_rgb_float(opt.images_dir, big ? 1536 : 192, big ? 2560 : 320);
}

/// src (2-D, or 3-D with channels last; even width and height) halved in each direction by
/// averaging 2 x 2 blocks, rounded to nearest.
template <typename T>
Halide::Buffer<T> half_size(const Halide::Buffer<T> &src) {
    const int w = src.width() / 2, h = src.height() / 2;
    const int channels = src.dimensions() == 3 ? src.channels() : 1;
    Halide::Buffer<T> out =
        src.dimensions() == 3 ? Halide::Buffer<T>(w, h, channels) : Halide::Buffer<T>(w, h);
    for (int c = 0; c < channels; c++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                auto at = [&](int xx, int yy) {
                    return (double)(src.dimensions() == 3 ? src(xx, yy, c) : src(xx, yy));
                };
                double mean = 0.25 * (at(2 * x, 2 * y) + at(2 * x + 1, 2 * y) +
                                      at(2 * x, 2 * y + 1) + at(2 * x + 1, 2 * y + 1));
                T v = std::is_integral<T>::value ? (T)(mean + 0.5) : (T)mean;
                if (src.dimensions() == 3)
                    out(x, y, c) = v;
                else
                    out(x, y) = v;
            }
    return out;
}

} // namespace app_inputs

#endif
