#ifndef LOOM_SCRATCHPAD_H
#define LOOM_SCRATCHPAD_H

/// \file Scratchpad: a software-managed memory of a DSP (Vocke, "Extending Halide to improve
/// software development for imaging DSPs", §3.2). A Loom extension, not part of Halide's API:
/// include <loom/scratchpad.h>.
///
/// Declare each memory once, with its name, size and alignment, then place Funcs in it with
/// store_in; copies between memories are ordinary stages (`in()` wrappers) scheduled like any:
/// \code
/// Scratchpad vmem("vmem", 16 * 1024, 64);
/// Func rows = input.in();                  // the copy into the scratchpad
/// rows.compute_at(out, y).store_in(vmem);  // a few rows of input at a time
/// blur_x.compute_at(out, y).store_in(vmem);
/// \endcode
/// Buffers in a scratchpad are allocated statically, as a DSP without dynamic allocation in its
/// local memories needs. Lowering bounds each buffer's size from above (its extents with the
/// enclosing loops' ranges; the outputs' and inputs' sizes from their constraints or estimates
/// (set_estimate / set_estimates); Params from their range or estimate), gives it a fixed offset
/// in the memory (buffers that are never live at once share bytes), and the back end defines one
/// static block per pipeline and memory: a global in the LLVM back end, in the C back end
/// `static uint8_t loom_scratchpad_<pipeline>_<memory>[]`, preceded by the macro
/// `LOOM_SCRATCHPAD_PLACEMENT_<memory>` (empty by default), which a DSP toolchain defines as the
/// attribute or pragma that places the block in that memory.
///
/// CompileErrors name the Func and the sizes: buffers live at once that do not fit in the
/// memory; a buffer whose size has no upper bound (say what to bound); a scratchpad buffer
/// allocated inside a parallel loop or used by GPU code (static storage is one per pipeline).
/// When a bound came from an estimate, the pipeline checks the real size when it runs and returns
/// halide_error_code_buffer_allocation_too_large if it exceeds the room reserved. A pipeline
/// using a scratchpad is not reentrant: two calls running at once would share the memory.

#include "loom/memory_type.h"

#include <cstdint>
#include <string>

namespace loom {

/// A named memory of fixed size; converts to the MemoryType value that Func::store_in takes.
class Scratchpad {
public:
    /// Declares the memory `name` (a C identifier) of `size_bytes` bytes whose buffers start at
    /// multiples of `alignment` bytes (a power of two). Declaring a name again with the same
    /// size and alignment gives the same memory; with another size or alignment it is a
    /// CompileError.
    Scratchpad(const std::string &name, int64_t size_bytes, int alignment = 64);

    const std::string &name() const;
    int64_t size() const;
    int alignment() const;

    /// The MemoryType value standing for this memory (Func::store_in(Scratchpad) uses it).
    MemoryType memory_type() const { return type_; }
    operator MemoryType() const { return type_; }

    /// Whether `t` stands for a declared scratchpad.
    static bool is_scratchpad(MemoryType t);

private:
    MemoryType type_;
};

} // namespace loom

#endif
