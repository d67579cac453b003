// The public face of the scratchpad registry (src/ir/scratchpads.h).
#include <loom/scratchpad.h>

#include "ir/scratchpads.h"
#include "support/error.h"

namespace loom {

using namespace internal;

Scratchpad::Scratchpad(const std::string &name, int64_t size_bytes, int alignment)
    : type_(declare_scratchpad(name, size_bytes, alignment).type) {}

namespace {
const ScratchpadMemory &memory_of(MemoryType t) {
    const ScratchpadMemory *m = find_scratchpad(t);
    internal_assert(m) << "Scratchpad of an undeclared memory type " << (int)t << "\n";
    return *m;
}
} // namespace

const std::string &Scratchpad::name() const { return memory_of(type_).name; }
int64_t Scratchpad::size() const { return memory_of(type_).size; }
int Scratchpad::alignment() const { return memory_of(type_).alignment; }
bool Scratchpad::is_scratchpad(MemoryType t) { return find_scratchpad(t) != nullptr; }

} // namespace loom
