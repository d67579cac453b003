#ifndef LOOM_IR_PARAMETER_H
#define LOOM_IR_PARAMETER_H

/// \file Parameter is declared in the public <loom/parameter.h> (Halide's Parameter is public);
/// the IR and the rest of src/ include it through this header.

#include <loom/parameter.h>

#endif
