// The tracing directives: Func::trace_loads / trace_stores / trace_realizations /
// add_trace_tag and ImageParam::trace_loads. They only record the request in the Function (or
// the input's Parameter); src/lower/inject_tracing.cpp adds the halide_trace calls.

#include <loom/func.h>
#include <loom/image_param.h>

#include "ir/parameter.h"
#include "lang/function.h"

namespace loom {

using internal::Function;

Func &Func::trace_loads() {
    Function f = function();
    f.contents->trace_loads = true;
    f.touch();
    return *this;
}

Func &Func::trace_stores() {
    Function f = function();
    f.contents->trace_stores = true;
    f.touch();
    return *this;
}

Func &Func::trace_realizations() {
    Function f = function();
    f.contents->trace_realizations = true;
    f.touch();
    return *this;
}

Func &Func::add_trace_tag(const std::string &trace_tag) {
    Function f = function();
    f.contents->trace_tags.push_back(trace_tag);
    f.touch();
    return *this;
}

Func ImageParam::trace_loads() {
    // Loads of the input itself are traced (the Func is what Halide returns, for chaining).
    parameter().set_trace_loads(true);
    Func f = *this;
    f.trace_loads();
    return f;
}

} // namespace loom
