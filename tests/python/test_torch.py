"""loom.torch: Loom pipelines as torch.autograd Functions, checked with gradcheck (float64) and
against the same computations written with torch ops."""
import pytest

torch = pytest.importorskip("torch")
import torch.nn.functional as F  # noqa: E402

import loom  # noqa: E402
import loom.torch  # noqa: E402

torch.manual_seed(21)


def blur3x3(image):
    """A 3x3 binomial blur with a replicated edge."""
    x, y = loom.Var("x"), loom.Var("y")
    c = loom.BoundaryConditions.repeat_edge(image)
    blur_x, blur = loom.Func("blur_x"), loom.Func("blur")
    blur_x[x, y] = (c[x - 1, y] + 2 * c[x, y] + c[x + 1, y]) / 4
    blur[x, y] = (blur_x[x, y - 1] + 2 * blur_x[x, y] + blur_x[x, y + 1]) / 4
    return blur


def torch_blur3x3(image):
    k = torch.tensor([1.0, 2.0, 1.0], dtype=image.dtype) / 4
    padded = F.pad(image[None, None], (1, 1, 1, 1), mode="replicate")
    return F.conv2d(padded, (k[:, None] * k[None, :])[None, None])[0, 0]


def soft_gain(image, gain):
    x, y = loom.Var("x"), loom.Var("y")
    f = loom.Func("soft_gain")
    f[x, y] = loom.tanh(gain * image[x, y]) + gain * gain
    return f


def bilinear(image, coords):
    """image sampled at (coords[0], coords[1]) (x, y) of each output pixel, edges repeated."""
    x, y = loom.Var("x"), loom.Var("y")
    c = loom.BoundaryConditions.repeat_edge(image)
    sx, sy = coords[x, y, 0], coords[x, y, 1]
    ix, iy = loom.cast(loom.Int(32), loom.floor(sx)), loom.cast(loom.Int(32), loom.floor(sy))
    fx, fy = sx - loom.floor(sx), sy - loom.floor(sy)
    out = loom.Func("bilinear")
    out[x, y] = loom.lerp(
        loom.lerp(c[ix, iy], c[ix + 1, iy], fx), loom.lerp(c[ix, iy + 1], c[ix + 1, iy + 1], fx), fy
    )
    return out


def torch_bilinear(image, coords):
    h, w = image.shape
    sx, sy = coords[0], coords[1]
    x0, y0 = sx.floor(), sy.floor()
    fx, fy = sx - x0, sy - y0

    def at(xi, yi):
        xi = xi.clamp(0, w - 1).long()
        yi = yi.clamp(0, h - 1).long()
        return image[yi, xi]

    top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx
    bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx
    return top * (1 - fy) + bottom * fy


def sample_coords(h, w, dtype):
    """Positions over and beyond the image, away from integers (where bilinear sampling has
    kinks that finite differences would straddle)."""
    base = torch.stack(
        [torch.randint(-2, w + 2, (h, w)), torch.randint(-2, h + 2, (h, w))]
    ).to(dtype)
    return base + 0.1 + 0.8 * torch.rand(2, h, w, dtype=dtype)


BLUR = loom.torch.Op(blur3x3, inputs={"image": 2})
SOFT_GAIN = loom.torch.Op(soft_gain, inputs=[("image", 2), ("gain", 0)])
BILINEAR = loom.torch.Op(
    bilinear, inputs={"image": 2, "coords": 3}, output_shape=lambda image, coords: coords.shape[1:]
)


def test_gradcheck_blur():
    image = torch.rand(7, 9, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(BLUR, (image,))


def test_gradcheck_pointwise_with_param():
    image = torch.randn(5, 6, dtype=torch.float64, requires_grad=True)
    gain = torch.tensor(0.7, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(SOFT_GAIN, (image, gain))


def test_gradcheck_bilinear_resample():
    image = torch.rand(6, 7, dtype=torch.float64, requires_grad=True)
    coords = sample_coords(5, 8, torch.float64).requires_grad_()
    assert torch.autograd.gradcheck(BILINEAR, (image, coords))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_forward_matches_torch(dtype):
    tol = {"rtol": 1e-5, "atol": 1e-6} if dtype == torch.float32 else {"rtol": 1e-12, "atol": 1e-12}
    image = torch.rand(20, 30, dtype=dtype)
    torch.testing.assert_close(BLUR(image), torch_blur3x3(image), **tol)
    torch.testing.assert_close(SOFT_GAIN(image, 1.5), torch.tanh(1.5 * image) + 2.25, **tol)
    coords = sample_coords(12, 16, dtype)
    torch.testing.assert_close(BILINEAR(image, coords), torch_bilinear(image, coords), **tol)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_backward_through_a_torch_graph(dtype):
    tol = {"rtol": 1e-4, "atol": 1e-5} if dtype == torch.float32 else {"rtol": 1e-10, "atol": 1e-10}
    x = torch.rand(16, 24, dtype=dtype)
    y = torch.rand(16, 24, dtype=dtype)
    coords = sample_coords(16, 24, dtype)
    gain = torch.tensor(0.8, dtype=dtype)

    def loss(blur, gained, resample, x, gain, coords):
        z = resample(gained(blur(x * 2), gain), coords)
        return (z - y).pow(2).sum()

    grads = []
    def torch_soft_gain(image, gain):
        return torch.tanh(gain * image) + gain * gain

    for ops in [(BLUR, SOFT_GAIN, BILINEAR), (torch_blur3x3, torch_soft_gain, torch_bilinear)]:
        leaves = [t.clone().requires_grad_() for t in (x, gain, coords)]
        loss(*ops, *leaves).backward()
        grads.append([t.grad for t in leaves])
    for ours, ref in zip(*grads):
        assert ours.dtype == dtype
        torch.testing.assert_close(ours, ref, **tol)


def test_tensors_are_not_copied():
    image = torch.rand(8, 10)
    # The Buffer a tensor is passed as shares its memory...
    b = loom.torch.buffer(image)
    b[3, 2] = -5.0
    assert image[2, 3].item() == -5.0
    # ...and the output can be written into a given tensor.
    out = torch.empty(8, 10)
    result = BLUR(image, out=out)
    assert result.data_ptr() == out.data_ptr()
    torch.testing.assert_close(out, torch_blur3x3(image))
    # A transposed view (last axis not contiguous) is copied, and still read right.
    t = torch.rand(10, 8).t()
    torch.testing.assert_close(BLUR(t), torch_blur3x3(t))


def test_compiled_once_per_dtype():
    op = loom.torch.Op(blur3x3, inputs={"image": 2})
    for shape in [(4, 5), (6, 3)]:
        image = torch.rand(shape, dtype=torch.float64, requires_grad=True)
        op(image).sum().backward()
    op(torch.rand(3, 3))
    assert len(op._pipelines) == 2  # float64 and float32


def test_clear_errors():
    with pytest.raises(TypeError, match="'image' must be float32 or float64"):
        BLUR(torch.zeros(3, 3, dtype=torch.int32))
    with pytest.raises(ValueError, match="'image' must have 2 dimensions"):
        BLUR(torch.zeros(3, 3, 3))
    with pytest.raises(ValueError, match="'image' is on meta.*GPU tensors are not supported yet"):
        BLUR(torch.zeros(3, 3, device="meta"))
    with pytest.raises(TypeError, match="'image' must be a torch.Tensor"):
        BLUR([[1.0]])
    with pytest.raises(TypeError, match="'gain' is a scalar"):
        SOFT_GAIN(torch.zeros(3, 3), "2")
    with pytest.raises(TypeError, match="takes 2 inputs"):
        SOFT_GAIN(torch.zeros(3, 3))
    with pytest.raises(ValueError, match="out must be"):
        BLUR(torch.zeros(3, 3), out=torch.zeros(3, 4))
    wrong_shape = loom.torch.Op(blur3x3, inputs={"image": 2}, output_shape=lambda image: (3,))
    with pytest.raises(ValueError, match="output shape"):
        wrong_shape(torch.zeros(3, 3))


def test_schedule_gradients():
    seen = {}

    def schedule(grads):
        seen.update(grads)
        grads["image"].compute_root().parallel(grads["image"].args()[1])

    op = loom.torch.Op(blur3x3, inputs={"image": 2}, schedule_gradients=schedule)
    image = torch.rand(9, 11, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(op, (image,))
    assert list(seen) == ["image"]
