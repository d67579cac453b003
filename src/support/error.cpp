#include "support/error.h"

#include <iostream>

namespace loom {
namespace internal {

ErrorReport::ErrorReport(const char *file, int line, const char *condition, Kind k) : kind(k) {
    if (kind == Internal) {
        msg << "Internal error at " << file << ":" << line << ": ";
        if (condition) msg << "condition failed: " << condition << "\n";
    } else if (kind == Warning) {
        msg << "Warning: ";
    } else {
        msg << "Error: ";
    }
}

ErrorReport::~ErrorReport() noexcept(false) {
    std::string s = msg.str();
    if (kind == Warning) {
        std::cerr << s << std::flush;
        return;
    }
    if (kind == Internal) throw InternalError(s);
    throw CompileError(s);
}

} // namespace internal
} // namespace loom
