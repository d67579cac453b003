#ifndef LOOM_ERROR_H
#define LOOM_ERROR_H

/// \file The exceptions Loom throws.

#include <stdexcept>
#include <string>

namespace loom {

/// Base of every error Loom reports.
class Error : public std::runtime_error {
public:
    explicit Error(const std::string &msg) : std::runtime_error(msg) {}
};

/// A mistake in the user's algorithm or schedule, found while building or compiling a pipeline.
/// The message names the Func, Var or parameter involved and says what to do.
class CompileError : public Error {
public:
    explicit CompileError(const std::string &msg) : Error(msg) {}
};

/// A compiled pipeline, run through the JIT, reported an error (for example an input too small).
/// The message is the runtime's.
class RuntimeError : public Error {
public:
    explicit RuntimeError(const std::string &msg) : Error(msg) {}
};

/// A broken invariant inside Loom: a bug in Loom, never the user's fault.
class InternalError : public Error {
public:
    explicit InternalError(const std::string &msg) : Error(msg) {}
};

} // namespace loom

#endif
