#ifndef LOOM_COMPAT_HALIDE_H
#define LOOM_COMPAT_HALIDE_H

/// \file Halide source compatibility: a program written against Halide's C++ API builds
/// against Loom by including this header instead of Halide's.

#include "HalideBuffer.h"
#include "HalideRuntime.h"
#include "halide_namespace.h"

#include <loom/loom.h>

/// Loom reports compile and JIT errors by throwing (loom::CompileError, loom::RuntimeError, all
/// loom::Error), as Halide does when built with exceptions; programs test for this macro before
/// catching them.
#ifndef HALIDE_WITH_EXCEPTIONS
#define HALIDE_WITH_EXCEPTIONS
#endif

#ifndef HALIDE_EXPORT
#define HALIDE_EXPORT HALIDE_EXPORT_SYMBOL
#endif
#ifndef HALIDE_NO_USER_CODE_INLINE
#define HALIDE_NO_USER_CODE_INLINE HALIDE_NEVER_INLINE
#endif

// The standard headers Halide.h brings in; Halide programs use them without including them.
#include <algorithm>
#include <array>
#include <atomic>
#include <bitset>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <iostream>
#include <istream>
#include <iterator>
#include <limits>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <random>
#include <set>
#include <sstream>
#include <stack>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#endif
