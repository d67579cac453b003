#ifndef LOOM_MEMORY_TYPE_H
#define LOOM_MEMORY_TYPE_H

/// \file MemoryType: where a Func's storage lives (Halide's MemoryType; Func::store_in). Loom
/// compiles for the CPU: Auto, Heap, Stack and Register are what they say. As in Halide, a Func
/// stored in a GPU or DSP memory (GPUShared, GPUTexture, LockedCache, VTCM) by a schedule
/// compiled for a CPU lives in ordinary memory; AMXTile is a CompileError (no AMX code).

#include <cstdint>

namespace loom {

/// The kind of memory an allocation lives in.
enum class MemoryType : uint8_t {
    /// Let Loom decide: small buffers of constant (bounded) size on the stack, others on the heap.
    Auto,
    /// halide_malloc / halide_free.
    Heap,
    /// The stack (the size must have a constant upper bound).
    Stack,
    /// Registers: constant size, and every access at an index known after unrolling.
    Register,
    GPUShared,
    GPUTexture,
    LockedCache,
    VTCM,
    AMXTile
};

} // namespace loom

#endif
