// The PyTorch wrapper (OutputFileType::pytorch_wrapper) in a C++ program built with ATen from
// the torch wheel, as an extension would be: torch_a_th_ runs the AOT pipeline of
// aot_generators.cpp ("torch") on tensors without copying, against naive loops over the same
// tensors; views pass with their strides; a wrong dtype, a device-less stride and a failing
// pipeline throw c10::Errors that say why. Links only the generated archive, ATen and c10.
#include "torch_a.pytorch.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace {

/// Runs the wrapper on `in` (c, y, x) and checks both outputs against loops.
void check(at::Tensor in, float gain, int32_t offset) {
    const int64_t C = in.size(0), H = in.size(1), W = in.size(2);
    at::Tensor sharp = at::full({C, H, W}, -1.0f), level = at::full({H, W}, -1, at::kInt);
    ASSERT_EQ(torch_a_th_(in, gain, offset, sharp, level), 0);
    auto i = in.accessor<float, 3>();
    auto s = sharp.accessor<float, 3>();
    auto l = level.accessor<int32_t, 2>();
    for (int64_t c = 0; c < C; c++)
        for (int64_t y = 0; y < H; y++)
            for (int64_t x = 0; x < W; x++) {
                float want = i[c][y][x] * gain - i[c][y][std::min(x + 1, W - 1)];
                ASSERT_NEAR(s[c][y][x], want, 1e-6f) << c << " " << y << " " << x;
            }
    for (int64_t y = 0; y < H; y++)
        for (int64_t x = 0; x < W; x++) {
            ASSERT_EQ(l[y][x], (int32_t)std::floor(i[0][y][x] * 100.0f) + offset) << y << " " << x;
        }
}

/// The message of the c10::Error f throws ("" when it throws none).
template <typename F>
std::string error_of(F f) {
    try {
        f();
    } catch (const c10::Error &e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST(PyTorchWrapper, ContiguousTensors) {
    at::manual_seed(1);
    check(at::rand({3, 12, 21}), 1.5f, 7);
}

TEST(PyTorchWrapper, PermutedViewKeepsItsStrides) {
    // (y, c, x) memory seen as (c, y, x): not contiguous, x still dense.
    at::manual_seed(2);
    at::Tensor view = at::rand({12, 3, 21}).permute({1, 0, 2});
    ASSERT_FALSE(view.is_contiguous());
    check(view, -0.5f, -3);
}

TEST(PyTorchWrapper, WrongDtypeNamesTheTensor) {
    at::Tensor in = at::rand({3, 4, 5}, at::kDouble), sharp = at::empty({3, 4, 5});
    at::Tensor level = at::empty({4, 5}, at::kInt);
    std::string what = error_of([&] { torch_a_th_(in, 1.0f, 0, sharp, level); });
    EXPECT_NE(what.find("in has dtype Double"), std::string::npos) << what;
    EXPECT_NE(what.find("Float"), std::string::npos) << what;
}

TEST(PyTorchWrapper, PipelineErrorsThrow) {
    // A stride of 2 along x: the pipeline requires dense rows (Halide's default constraint), so
    // it fails, and the wrapper throws instead of returning garbage.
    at::Tensor in = at::rand({3, 4, 10}).slice(2, 0, 10, 2), sharp = at::empty({3, 4, 5});
    at::Tensor level = at::empty({4, 5}, at::kInt);
    std::string what = error_of([&] { torch_a_th_(in, 1.0f, 0, sharp, level); });
    EXPECT_NE(what.find("torch_a failed with error code"), std::string::npos) << what;
}
