"""Loom pipelines as differentiable PyTorch operators: the forward pass runs the pipeline, the
backward pass the pipeline's adjoints (propagate_adjoints, docs/autodiff.md).

    import torch
    import loom, loom.torch

    def blur(image, gain):              # builder: ImageParams and Params in, output Func out
        x, y = loom.Var("x"), loom.Var("y")
        c = loom.BoundaryConditions.repeat_edge(image)
        out = loom.Func("blur")
        out[x, y] = gain * (c[x - 1, y] + c[x, y] + c[x + 1, y]) / 3
        return out

    op = loom.torch.Op(blur, inputs={"image": 2, "gain": 0})
    image = torch.rand(480, 640, requires_grad=True)
    gain = torch.tensor(2.0, requires_grad=True)
    op(image, gain).sum().backward()    # image.grad and gain.grad

Axes follow Halide's rule: a tensor's last axis is the pipeline's dimension 0 (x), so a
(height, width) tensor is read as image[x, y] and a (channels, height, width) one as
image[x, y, c]. Tensors are passed to the compiled code without copies (through DLPack), except
one whose last axis is not contiguous, which is copied first. CPU tensors of float32 and float64
only; GPU tensors are not supported yet.

The builder is called once per combination of input dtypes, and the forward pipeline and each
set of gradients asked for are compiled once and reused for every shape.
"""
import numbers

import torch

import loom

__all__ = ["Op", "buffer"]

_FLOAT_TYPES = {torch.float32: 32, torch.float64: 64}
_DTYPES = {32: torch.float32, 64: torch.float64}


def buffer(tensor):
    """A loom.Buffer sharing a CPU tensor's memory (last axis first; a copy only when the last
    axis is not contiguous, which compiled pipelines require)."""
    t = tensor.detach()
    if t.dim() > 0 and t.stride(-1) != 1:
        t = t.contiguous()
    return loom.Buffer(t)


class Op:
    """A Loom pipeline as a differentiable function of tensors.

    build: called with one argument per input, in the order of `inputs` (an ImageParam for a
        tensor, a Param for a scalar), of the dtype of the tensors given; returns the output Func
        (float32 or float64). Schedule the forward pipeline in it.
    inputs: the inputs' names and dimension counts, as a dict or a list of (name, dims) pairs;
        dims 0 is a scalar, given as a Python number or a 0-dimensional tensor (differentiable
        when it requires grad; a Python float takes the dtype of the first tensor input).
    output_shape: the output tensor's shape (PyTorch order): None for the shape of the first
        input that is not a scalar, an int i for that of input i, or a function of the inputs
        returning it.
    schedule_gradients: optional function called with {input name: gradient Func} before the
        backward pipeline is compiled, to schedule it (by default Loom's default schedule).

    Calling the Op with the inputs returns the output tensor; `out=` writes it into a given
    contiguous tensor instead (no allocation).
    """

    def __init__(self, build, inputs, output_shape=None, schedule_gradients=None):
        self.build = build
        self.inputs = list(inputs.items()) if isinstance(inputs, dict) else list(inputs)
        self.output_shape = output_shape
        self.schedule_gradients = schedule_gradients
        self._pipelines = {}

    def __call__(self, *args, out=None):
        if len(args) != len(self.inputs):
            raise TypeError(
                f"Op takes {len(self.inputs)} inputs ({', '.join(n for n, _ in self.inputs)}), "
                f"got {len(args)}"
            )
        bits = [self._check(name, dims, a) for (name, dims), a in zip(self.inputs, args)]
        default_bits = next((b for b in bits if b is not None), 64)
        key = tuple(default_bits if b is None else b for b in bits)
        pipeline = self._pipelines.get(key)
        if pipeline is None:
            pipeline = self._pipelines[key] = _Pipelines(self, key)
        shape = self._shape(args)
        if len(shape) != pipeline.output.dimensions():
            raise ValueError(
                f"output shape {shape} for the {pipeline.output.dimensions()}-dimensional "
                f"Func '{pipeline.output.name()}'"
            )
        if out is not None:
            _check_out(out, shape, pipeline.dtype)
        return _Function.apply(pipeline, shape, out, *args)

    def _check(self, name, dims, a):
        """The float bits of input `a` (None for a Python float), or an error naming it."""
        if dims == 0 and not isinstance(a, torch.Tensor):
            if isinstance(a, bool) or not isinstance(a, numbers.Real):
                raise TypeError(f"input '{name}' is a scalar: give a number or a 0-dim tensor")
            return None
        if not isinstance(a, torch.Tensor):
            raise TypeError(f"input '{name}' must be a torch.Tensor, not {type(a).__name__}")
        if a.device.type != "cpu":
            raise ValueError(
                f"input '{name}' is on {a.device}: loom.torch runs pipelines on the CPU only "
                "(GPU tensors are not supported yet)"
            )
        if a.dtype not in _FLOAT_TYPES:
            raise TypeError(f"input '{name}' must be float32 or float64, not {a.dtype}")
        if a.dim() != dims:
            raise ValueError(
                f"input '{name}' must have {dims} dimensions, got shape {tuple(a.shape)}"
            )
        return _FLOAT_TYPES[a.dtype]

    def _shape(self, args):
        if callable(self.output_shape):
            return tuple(self.output_shape(*args))
        if self.output_shape is None:
            i = next((i for i, (_, d) in enumerate(self.inputs) if d > 0), None)
            if i is None:
                raise ValueError("Op without tensor inputs: give output_shape")
        else:
            i = self.output_shape
        return tuple(args[i].shape)


def _check_out(out, shape, dtype):
    if not isinstance(out, torch.Tensor) or out.device.type != "cpu":
        raise TypeError("out must be a CPU torch.Tensor")
    if tuple(out.shape) != shape or out.dtype != dtype or not out.is_contiguous():
        raise ValueError(
            f"out must be a contiguous {dtype} tensor of shape {shape}, got a "
            f"{out.dtype} tensor of shape {tuple(out.shape)}"
        )


class _Pipelines:
    """The forward pipeline of an Op for one set of input dtypes, and its backward pipelines
    (one per set of inputs whose gradients are asked for), compiled once."""

    def __init__(self, op, key):
        # No reference to the Op or its builder: the autograd graph keeps this object, and a
        # builder's globals often keep the graph (a cycle the garbage collector cannot see).
        self.key, self.names = key, [name for name, _ in op.inputs]
        self.schedule_gradients = op.schedule_gradients
        self.args = []
        for (name, dims), bits in zip(op.inputs, key):
            if dims == 0:
                self.args.append(loom.Param(loom.Float(bits), name))
            else:
                self.args.append(loom.ImageParam(loom.Float(bits), dims, name))
        self.output = op.build(*self.args)
        if not isinstance(self.output, loom.Func):
            raise TypeError(
                f"the Op's builder must return a Func, not {type(self.output).__name__}"
            )
        t = self.output.type()
        if not t.is_float() or t.bits() not in _DTYPES:
            raise TypeError(
                f"the output Func '{self.output.name()}' must be float32 or float64, not {t}"
            )
        self.dtype = _DTYPES[t.bits()]
        self.forward = self.output.compile_to_callable(self.args)
        self._backward = {}

    def backward(self, wanted):
        """The callable computing the gradients of inputs `wanted` (indices), and which of them
        the output depends on."""
        if wanted not in self._backward:
            out = self.output
            adjoint = loom.ImageParam(out.type(), out.dimensions(), out.name() + "_adjoint")
            dims = range(out.dimensions())
            bounds = [(adjoint.dim(i).min(), adjoint.dim(i).extent()) for i in dims]
            d = loom.propagate_adjoints(out, loom.Func(adjoint), bounds)
            grads = {i: d[self.args[i]] for i in wanted}
            grads = {i: g for i, g in grads.items() if g.defined()}
            if self.schedule_gradients is not None:
                self.schedule_gradients({self.names[i]: g for i, g in grads.items()})
            compiled = None
            if grads:
                pipeline = loom.Pipeline(list(grads.values()))
                compiled = pipeline.compile_to_callable(self.args + [adjoint])
            self._backward[wanted] = (compiled, list(grads))
        return self._backward[wanted]


def _value(a):
    """What a Callable takes for input `a`: a Buffer sharing a tensor, a number for a scalar."""
    if not isinstance(a, torch.Tensor):
        return a
    return a.item() if a.dim() == 0 else buffer(a)


class _Function(torch.autograd.Function):
    @staticmethod
    def forward(ctx, pipeline, shape, out, *args):
        if out is None:
            out = torch.empty(shape, dtype=pipeline.dtype)
        else:
            ctx.mark_dirty(out)
        pipeline.forward(*(_value(a) for a in args), out)
        # Tensors through save_for_backward, so that changing one in place before backward is
        # an error; Python numbers as they are.
        ctx.pipeline = pipeline
        ctx.save_for_backward(*(a for a in args if isinstance(a, torch.Tensor)))
        ctx.scalars = [None if isinstance(a, torch.Tensor) else a for a in args]
        return out

    @staticmethod
    def backward(ctx, grad_output):
        pipeline = ctx.pipeline
        tensors = iter(ctx.saved_tensors)
        args = [next(tensors) if s is None else s for s in ctx.scalars]
        wanted = tuple(i for i, need in enumerate(ctx.needs_input_grad[3:]) if need)
        grads = [None] * len(args)
        compiled, defined = pipeline.backward(wanted)
        if compiled is not None:
            for i in defined:
                grads[i] = torch.empty(args[i].shape, dtype=_DTYPES[pipeline.key[i]])
            adjoint = buffer(grad_output.to(pipeline.dtype))
            compiled(*(_value(a) for a in args), adjoint, *(grads[i] for i in defined))
        return (None, None, None, *grads)
