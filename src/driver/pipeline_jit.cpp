// The JIT extern and run-time hook members of Pipeline and Func (declared in <loom/pipeline.h>
// and <loom/func.h>); the calls themselves go through JITCallContext (jit_call_context.h).
#include <loom/func.h>
#include <loom/pipeline.h>

#include "driver/jit_call_context.h"
#include "driver/pipeline_contents.h"
#include "support/error.h"

namespace loom {

using namespace internal;

namespace {

PipelineContents &contents_of(const Pipeline &p) { return pipeline_contents(p.get_contents()); }

} // namespace

void Pipeline::set_jit_externs(const std::map<std::string, JITExtern> &externs) {
    jit_extern_addresses(externs); // checks each has a function
    contents_of(*this).jit_externs = externs;
    invalidate_cache();
}

const std::map<std::string, JITExtern> &Pipeline::get_jit_externs() {
    return contents_of(*this).jit_externs;
}

JITHandlers &Pipeline::jit_handlers() { return contents_of(*this).jit_handlers; }

JITHandlers &Func::jit_handlers() { return pipeline().jit_handlers(); }

Realization Func::realize(JITUserContext *context, std::vector<int32_t> sizes,
                          const Target &target) {
    user_assert(defined()) << "Can't realize Func " << name() << ": it has no definition.\n";
    return pipeline().realize(context, std::move(sizes), target);
}

void Func::realize(JITUserContext *context, RealizationArg outputs, const Target &target) {
    user_assert(defined()) << "Can't realize Func " << name() << ": it has no definition.\n";
    pipeline().realize(context, std::move(outputs), target);
}

void Func::infer_input_bounds(JITUserContext *context, const std::vector<int32_t> &sizes,
                              const Target &target) {
    user_assert(defined()) << "Can't infer input bounds of Func " << name()
                           << ": it has no definition.\n";
    pipeline().infer_input_bounds(context, sizes, target);
}

void Func::infer_input_bounds(JITUserContext *context, RealizationArg outputs,
                              const Target &target) {
    user_assert(defined()) << "Can't infer input bounds of Func " << name()
                           << ": it has no definition.\n";
    pipeline().infer_input_bounds(context, std::move(outputs), target);
}

} // namespace loom
