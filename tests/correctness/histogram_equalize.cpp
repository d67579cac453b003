// Histogram equalization as in the 2012 paper's Figure 3: a histogram by reduction, its
// cumulative distribution by a scan, and a remap of every pixel through it.
#include <loom/loom.h>

#include <gtest/gtest.h>

#include <random>
#include <vector>

using namespace loom;

TEST(HistogramEqualize, MatchesNaive) {
    const int W = 123, H = 77;
    Buffer<uint8_t> in(W, H);
    std::mt19937 rng(3);
    // A skewed distribution so equalization actually moves values.
    in.for_each_value([&](uint8_t &v) { v = (uint8_t)((rng() % 100) * (rng() % 100) / 40); });

    Func histogram("histogram"), cdf("cdf"), out("out");
    Var x("x"), y("y"), i("i");
    RDom r(0, W, 0, H);
    histogram(i) = 0;
    histogram(in(r.x, r.y)) += 1;
    RDom b(1, 255);
    cdf(i) = 0;
    cdf(0) = histogram(0);
    cdf(b) = cdf(b - 1) + histogram(b);
    histogram.compute_root();
    cdf.compute_root();
    // Remap: the cdf scaled to [0, 255].
    out(x, y) = cast<uint8_t>(clamp(cdf(in(x, y)) * 255 / (W * H), 0, 255));
    Buffer<uint8_t> result = out.realize({W, H});

    std::vector<int> hist(256, 0), c(256, 0);
    for (int yy = 0; yy < H; yy++)
        for (int xx = 0; xx < W; xx++) hist[in(xx, yy)]++;
    c[0] = hist[0];
    for (int k = 1; k < 256; k++) c[k] = c[k - 1] + hist[k];
    for (int yy = 0; yy < H; yy++) {
        for (int xx = 0; xx < W; xx++) {
            int expected = std::min(255, std::max(0, c[in(xx, yy)] * 255 / (W * H)));
            ASSERT_EQ(result(xx, yy), expected) << xx << ", " << yy;
        }
    }
}

TEST(HistogramEqualize, HistogramByReductionAlone) {
    const int N = 1000;
    Buffer<uint8_t> in(N);
    for (int k = 0; k < N; k++) in(k) = (uint8_t)((k * 37) % 11);
    Func hist("hist");
    Var i("i");
    RDom r(0, N);
    hist(i) = 0;
    hist(clamp(cast<int>(in(r)), 0, 15)) += 1;
    Buffer<int> h = hist.realize({16});
    std::vector<int> expected(16, 0);
    for (int k = 0; k < N; k++) expected[(k * 37) % 11]++;
    for (int k = 0; k < 16; k++) EXPECT_EQ(h(k), expected[k]) << "bin " << k;
}
