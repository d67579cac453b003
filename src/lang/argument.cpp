#include <loom/argument.h>

#include "ir/parameter.h"
#include "support/error.h"

namespace loom {

Argument::Argument(const internal::Parameter &p) {
    user_assert(p.defined()) << "Can't make an Argument from an undefined parameter.\n";
    name = p.name();
    kind = p.is_buffer() ? InputBuffer : InputScalar;
    dimensions = (uint8_t)p.dimensions();
    type = p.type();
}

} // namespace loom
