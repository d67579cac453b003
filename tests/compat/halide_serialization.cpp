// serialize_pipeline / deserialize_pipeline / deserialize_parameters (built against Loom and, as
// compat_halide_serialization_halide, against Halide 21): a scheduled pipeline with an
// ImageParam, a Param, an RDom and a Tuple written to bytes and to a file, read back with the
// caller's parameters bound through user_params, computes what the original does. The byte
// formats differ; only the behaviour is compared.
#include "Halide.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

using namespace Halide;

namespace {

struct Built {
    ImageParam input{UInt(8), 2, "input"};
    Param<int> offset{"offset", 5};
    Pipeline pipeline;
    Built() {
        Var x("x"), y("y"), xi("xi");
        RDom r(0, 3, "r");
        Func blur("blur"), out("out");
        blur(x, y) = cast<int>(input(x, y)) + input(x + 1, y) + input(x + 2, y);
        out(x, y) = Tuple(blur(x, y) + offset, blur(x, y) * 2);
        out(x, y) = Tuple(out(x, y)[0] + r, out(x, y)[1] - r);
        out.split(x, x, xi, 8).vectorize(xi).parallel(y);
        out.update().vectorize(x, 8);
        blur.compute_root();
        pipeline = Pipeline(out);
    }
};

Buffer<uint8_t> test_image() {
    Buffer<uint8_t> b(40, 12);
    for (int y = 0; y < 12; y++)
        for (int x = 0; x < 40; x++) b(x, y) = (uint8_t)(x * 7 + y * 13);
    return b;
}

void check(Pipeline p, const Buffer<uint8_t> &in, int offset) {
    Realization r = p.realize({32, 12});
    Buffer<int> a = r[0], b = r[1];
    for (int y = 0; y < 12; y++) {
        for (int x = 0; x < 32; x++) {
            int blur = in(x, y) + in(x + 1, y) + in(x + 2, y);
            ASSERT_EQ(a(x, y), blur + offset + 3) << x << ", " << y;
            ASSERT_EQ(b(x, y), blur * 2 - 3) << x << ", " << y;
        }
    }
}

} // namespace

TEST(HalideSerialization, BytesWithUserParams) {
    Built built;
    std::vector<uint8_t> data;
    std::map<std::string, Parameter> params;
    serialize_pipeline(built.pipeline, data, params);
    EXPECT_FALSE(data.empty());
    ASSERT_EQ(params.size(), 2u);
    EXPECT_TRUE(params.count("input") && params.count("offset"));

    Pipeline p = deserialize_pipeline(
        data, {{"input", built.input.parameter()}, {"offset", built.offset.parameter()}});
    Buffer<uint8_t> in = test_image();
    built.input.set(in);
    built.offset.set(9);
    check(p, in, 9);
    check(built.pipeline, in, 9);
}

TEST(HalideSerialization, FileAndParameters) {
    Built built;
    std::string name = std::string(::testing::TempDir()) + "compat_serialization.hlpipe";
    serialize_pipeline(built.pipeline, name);
    std::map<std::string, Parameter> params = deserialize_parameters(name);
    ASSERT_EQ(params.size(), 2u);
    EXPECT_TRUE(params["input"].is_buffer());
    EXPECT_EQ(params["input"].type(), UInt(8));
    EXPECT_EQ(params["input"].dimensions(), 2);
    EXPECT_FALSE(params["offset"].is_buffer());
    EXPECT_EQ(params["offset"].type(), Int(32));

    Buffer<uint8_t> in = test_image();
    params["input"].set_buffer(in);
    params["offset"] = built.offset.parameter();
    Pipeline p = deserialize_pipeline(name, params);
    std::remove(name.c_str());
    check(p, in, 5);
}
