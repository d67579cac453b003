#ifndef LOOM_SUPPORT_ERROR_H
#define LOOM_SUPPORT_ERROR_H

/// \file Error reporting for Loom's own code. A report collects a message with << and throws
/// when the statement ends:
///   user_assert(f.defined()) << "Func " << f.name() << " is used before it is defined.\n";
///   internal_assert(op->lanes > 0) << "Ramp with no lanes\n";
/// user_* throws loom::CompileError (the user's mistake); internal_* throws loom::InternalError
/// (a Loom bug, with file and line); user_warning prints "Warning: ..." to stderr and goes on
/// (what Halide warns about, such as a loop left serial that was asked to unroll).

#include <loom/error.h>

#include <sstream>
#include <string>

namespace loom {
namespace internal {

class ErrorReport {
public:
    enum Kind { User, Internal, Warning };
    ErrorReport(const char *file, int line, const char *condition, Kind kind);
    ErrorReport(const ErrorReport &) = delete;
    ErrorReport &operator=(const ErrorReport &) = delete;

    template <typename T>
    ErrorReport &operator<<(const T &x) {
        msg << x;
        return *this;
    }
    /// Throws the collected error (prints a warning).
    ~ErrorReport() noexcept(false);

private:
    std::ostringstream msg;
    Kind kind;
};

/// Lets `cond ? (void)0 : Voidifier() & report << ...` type-check as a void expression.
struct Voidifier {
    void operator&(const ErrorReport &) {}
};

} // namespace internal
} // namespace loom

#define LOOM_REPORT(kind, cond)                                                                    \
    ::loom::internal::ErrorReport(__FILE__, __LINE__, cond, ::loom::internal::ErrorReport::kind)

#define user_error LOOM_REPORT(User, nullptr)
#define internal_error LOOM_REPORT(Internal, nullptr)
#define user_warning LOOM_REPORT(Warning, nullptr)
#define user_assert(c) (c) ? (void)0 : ::loom::internal::Voidifier() & LOOM_REPORT(User, #c)
#define internal_assert(c) (c) ? (void)0 : ::loom::internal::Voidifier() & LOOM_REPORT(Internal, #c)

#endif
