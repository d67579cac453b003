#ifndef LOOM_IR_SCRATCHPADS_H
#define LOOM_IR_SCRATCHPADS_H

/// \file The user-declared scratchpad memories (include/loom/scratchpad.h) as the IR sees them.
/// Each declared memory is a MemoryType value past the named ones (kFirstScratchpad and up), so
/// Func::store_in, Realize and Allocate carry it like any memory type; this registry maps the
/// value to the memory's name, size and alignment. lower/allocate_scratchpads replaces every
/// Allocate in a scratchpad by a let of scratchpad_address_intrinsic, so no back end sees one.

#include "ir/ir.h"

#include <cstdint>
#include <string>

namespace loom {
namespace internal {

/// A software-managed memory: buffers placed in it start at multiples of `alignment` bytes,
/// and those live at once take at most `size` bytes.
struct ScratchpadMemory {
    std::string name; ///< a C identifier
    int64_t size = 0;
    int alignment = 1;
    MemoryType type = MemoryType::Auto;
};

/// The MemoryType value of the first declared memory.
constexpr int kFirstScratchpad = 64;

/// Declares (or finds, when the same name was declared with the same size and alignment) the
/// memory; a CompileError for an invalid name, size or alignment, or a conflicting declaration.
const ScratchpadMemory &declare_scratchpad(const std::string &name, int64_t size, int alignment);

/// The memory `t` stands for, or null when `t` is not a declared scratchpad.
const ScratchpadMemory *find_scratchpad(MemoryType t);

/// scratchpad_address(StringImm symbol, StringImm memory, size, alignment, offset): the address
/// `offset` bytes into a static block of `size` bytes aligned to `alignment`, named `symbol`, for
/// the scratchpad named `memory` (one block per pipeline and memory; every call with one symbol
/// has the same size and alignment). Handle. The back end defines the block once per module.
constexpr const char *scratchpad_address_intrinsic = "loom_scratchpad_address";

} // namespace internal
} // namespace loom

#endif
