#include "support/error.h"

namespace loom {
namespace internal {

ErrorReport::ErrorReport(const char *file, int line, const char *condition, Kind k) : kind(k) {
    if (kind == Internal) {
        msg << "Internal error at " << file << ":" << line << ": ";
        if (condition) msg << "condition failed: " << condition << "\n";
    } else {
        msg << "Error: ";
    }
}

ErrorReport::~ErrorReport() noexcept(false) {
    std::string s = msg.str();
    if (kind == Internal) throw InternalError(s);
    throw CompileError(s);
}

} // namespace internal
} // namespace loom
