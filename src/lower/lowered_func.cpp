#include "lower/lowered_func.h"

#include "ir/ir_printer.h"

namespace loom {
namespace internal {

std::ostream &operator<<(std::ostream &os, const LoweredFunc &f) {
    os << "// " << f.name << "(";
    for (size_t i = 0; i < f.args.size(); i++) os << (i ? ", " : "") << f.args[i].name;
    os << ")\n" << f.body;
    for (const LoweredFunc &g : f.functions) os << "\n" << g;
    return os;
}

} // namespace internal
} // namespace loom
