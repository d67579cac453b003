#ifndef LOOM_LOOM_H
#define LOOM_LOOM_H

/// \file The whole public API of Loom in one include.

#include <loom/argument.h>
#include <loom/autoscheduler.h>
#include <loom/boundary_conditions.h>
#include <loom/buffer.h>
#include <loom/callable.h>
#include <loom/concise_casts.h>
#include <loom/derivative.h>
#include <loom/device_api.h>
#include <loom/error.h>
#include <loom/expr.h>
#include <loom/extern.h>
#include <loom/float16.h>
#include <loom/func.h>
#include <loom/image_param.h>
#include <loom/inline_reductions.h>
#include <loom/integer_ops.h>
#include <loom/ir_operator.h>
#include <loom/jit_handlers.h>
#include <loom/lambda.h>
#include <loom/memory_type.h>
#include <loom/param.h>
#include <loom/parameter.h>
#include <loom/pipeline.h>
#include <loom/rdom.h>
#include <loom/realization.h>
#include <loom/serialization.h>
#include <loom/target.h>
#include <loom/tuple.h>
#include <loom/type.h>
#include <loom/var.h>

#endif
