// Every application with an AppInstance (apps/<name>/<name>_app.h), in the order. The
// benchmark harness and the demo iterate this list. Include "Halide.h" first.
#ifndef LOOM_APPS_COMMON_ALL_APPS_H
#define LOOM_APPS_COMMON_ALL_APPS_H

#include "common/app.h"

inline std::vector<AppEntry> all_apps() { return {}; }

#endif
