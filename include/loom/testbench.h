#ifndef LOOM_TESTBENCH_H
#define LOOM_TESTBENCH_H

/// \file Testbenches for ahead-of-time pipelines: a standalone C99 program that runs a pipeline
/// compiled with compile_to_c (or compile_to_static_library / compile_to_object: the ABI is
/// the same) on fixed inputs and checks its outputs against values the JIT computed, so a
/// toolchain or a simulator can validate the generated code with no Loom on its side (a DSP
/// vendor's compiler, an emulator such as qemu-aarch64). Guide: docs/c_backend.md.

#include <loom/pipeline.h>
#include <loom/target.h>

#include <string>
#include <vector>

namespace loom {

/// Writes `filename`, a C99 program (`main`) that calls `fn_name` -- the pipeline p compiled
/// ahead of time with `args` and that name, for `target` (which matters for user_context) --
/// and checks what it computes. It carries, as data:
/// - the inputs: of each ImageParam's bound buffer, the region the outputs need (a bounds
///   query; the buffer must cover it); an ImageParam not bound is bound here, as
///   infer_input_bounds does, to a buffer of that region filled with deterministic
///   pseudo-random values; each Param's current value;
/// - the outputs the JIT computes for those inputs, over `output_sizes` (mins at 0).
/// The program compares integer outputs exactly and floating-point outputs within
/// `float_tolerance` relative to max(1, |expected|) (the C compiler and LLVM may round float
/// arithmetic differently), prints "testbench <fn_name>: N values match" and returns 0, or
/// prints the first mismatches and returns 1; a nonzero result of the pipeline is a failure
/// too. It includes `header` (default "<fn_name>.h", as compile_to_header writes it) and links
/// with the pipeline and -lm (-lpthread for parallel schedules).
void compile_to_testbench(Pipeline p, const std::string &filename,
                          const std::vector<Argument> &args, const std::string &fn_name,
                          const std::vector<int> &output_sizes,
                          const Target &target = get_target_from_environment(),
                          double float_tolerance = 1e-4, const std::string &header = "");

} // namespace loom

#endif
