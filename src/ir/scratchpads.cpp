#include "ir/scratchpads.h"

#include "support/error.h"

#include <cctype>
#include <deque>
#include <mutex>

namespace loom {
namespace internal {

namespace {

std::mutex registry_mutex;
/// A deque: references to its elements stay valid as memories are declared.
std::deque<ScratchpadMemory> &registry() {
    static std::deque<ScratchpadMemory> memories;
    return memories;
}

bool is_c_identifier(const std::string &s) {
    if (s.empty() || !(isalpha((unsigned char)s[0]) || s[0] == '_')) return false;
    for (char c : s) {
        if (!(isalnum((unsigned char)c) || c == '_')) return false;
    }
    return true;
}

} // namespace

const ScratchpadMemory &declare_scratchpad(const std::string &name, int64_t size, int alignment) {
    user_assert(is_c_identifier(name))
        << "Scratchpad name \"" << name << "\" is not a C identifier: the C back end names the "
        << "memory's storage and its placement macro after it. Use letters, digits and _.\n";
    user_assert(size > 0) << "Scratchpad " << name << " has size " << size
                          << " bytes: a memory needs a positive size.\n";
    user_assert(alignment > 0 && (alignment & (alignment - 1)) == 0)
        << "Scratchpad " << name << " has alignment " << alignment
        << ": the alignment must be a power of two (in bytes).\n";
    std::lock_guard<std::mutex> lock(registry_mutex);
    for (const ScratchpadMemory &m : registry()) {
        if (m.name != name) continue;
        user_assert(m.size == size && m.alignment == alignment)
            << "Scratchpad " << name << " was declared with " << m.size << " bytes, alignment "
            << m.alignment << ", and is declared again with " << size << " bytes, alignment "
            << alignment << ". A memory's name stands for one memory: declare it once.\n";
        return m;
    }
    const int count = (int)registry().size();
    user_assert(kFirstScratchpad + count <= 255)
        << "Too many scratchpads (" << count << "): at most " << 255 - kFirstScratchpad
        << " memories can be declared in one process.\n";
    ScratchpadMemory m;
    m.name = name;
    m.size = size;
    m.alignment = alignment;
    m.type = (MemoryType)(kFirstScratchpad + count);
    registry().push_back(m);
    return registry().back();
}

const ScratchpadMemory *find_scratchpad(MemoryType t) {
    int index = (int)t - kFirstScratchpad;
    if (index < 0) return nullptr;
    std::lock_guard<std::mutex> lock(registry_mutex);
    return index < (int)registry().size() ? &registry()[index] : nullptr;
}

} // namespace internal
} // namespace loom
