// The realization and compilation members of Func (declared in <loom/func.h>): each forwards
// to the Func's cached Pipeline, so compiled code is reused across calls.
#include <loom/func.h>

#include <loom/image_param.h>
#include <loom/pipeline.h>

#include "lang/function.h"
#include "lower/output_buffers.h"
#include "support/error.h"

namespace loom {

Pipeline Func::pipeline() {
    if (!pipeline_.defined()) pipeline_ = Pipeline(*this).get_contents();
    return Pipeline(pipeline_);
}

Realization Func::realize(std::vector<int32_t> sizes, const Target &target) {
    user_assert(defined()) << "Can't realize Func " << name() << ": it has no definition.\n";
    return pipeline().realize(std::move(sizes), target);
}

void Func::realize(RealizationArg outputs, const Target &target) {
    user_assert(defined()) << "Can't realize Func " << name() << ": it has no definition.\n";
    pipeline().realize(std::move(outputs), target);
}

void Func::infer_input_bounds(const std::vector<int32_t> &sizes, const Target &target) {
    user_assert(defined()) << "Can't infer input bounds of Func " << name()
                           << ": it has no definition.\n";
    pipeline().infer_input_bounds(sizes, target);
}

void Func::infer_input_bounds(RealizationArg outputs, const Target &target) {
    user_assert(defined()) << "Can't infer input bounds of Func " << name()
                           << ": it has no definition.\n";
    pipeline().infer_input_bounds(std::move(outputs), target);
}

void Func::compile_jit(const Target &target) {
    user_assert(defined()) << "Can't compile Func " << name() << ": it has no definition.\n";
    pipeline().compile_jit(target);
}

void Func::print_loop_nest() {
    user_assert(defined()) << "Can't print the loop nest of Func " << name()
                           << ": it has no definition.\n";
    pipeline().print_loop_nest();
}

std::vector<Argument> Func::infer_arguments() const {
    user_assert(defined()) << "Can't infer the arguments of Func " << name()
                           << ": it has no definition.\n";
    return Pipeline(*this).infer_arguments();
}

void Func::compile_to_lowered_stmt(const std::string &filename, const std::vector<Argument> &args,
                                   StmtOutputFormat fmt, const Target &target) {
    user_assert(defined()) << "Can't compile Func " << name() << ": it has no definition.\n";
    pipeline().compile_to_lowered_stmt(filename, args, fmt, target);
}

OutputImageParam Func::output_buffer() const {
    user_assert(defined()) << "Func " << name()
                           << " has no definition yet, so it has no output buffer.\n";
    user_assert(outputs() == 1) << "Func " << name() << " has " << outputs()
                                << " values; use output_buffers() for a Tuple-valued Func.\n";
    return OutputImageParam(internal::output_buffer_parameter(function(), 0), false);
}

std::vector<OutputImageParam> Func::output_buffers() const {
    user_assert(defined()) << "Func " << name()
                           << " has no definition yet, so it has no output buffers.\n";
    std::vector<OutputImageParam> result;
    for (int i = 0; i < outputs(); i++) {
        result.emplace_back(internal::output_buffer_parameter(function(), i), false);
    }
    return result;
}

} // namespace loom
