// The 2012 paper's Figure 1b in spirit: the 3x3 blur of apps/blur/blur.h hand-optimized with
// SSE2 intrinsics and threads, written for this benchmark (the paper's code is not copied).
#ifndef LOOM_BENCH_BLUR_HAND_OPTIMIZED_H
#define LOOM_BENCH_BLUR_HAND_OPTIMIZED_H

#include <emmintrin.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace blur_hand {

// x / 3 for every uint16 x: the high half of x * 43691 (= ceil(2^17 / 3)), shifted right once.
inline __m128i div3(__m128i v) {
    return _mm_srli_epi16(_mm_mulhi_epu16(v, _mm_set1_epi16((short)43691)), 1);
}

inline uint16_t div3(uint16_t v) { return (uint16_t)(v / 3); }

// One 256x32 tile with top-left (x0, y0), clipped to the image.
inline void tile(const uint16_t *in, uint16_t *out, int w, int h, int x0, int y0) {
    const int TW = 256, TH = 32;
    alignas(16) uint16_t tmp[(TH + 2) * TW];
    int tw = std::min(TW, w - x0), th = std::min(TH, h - y0);
    // blur_x over rows y0 - 1 .. y0 + th (rows clamped to the image).
    for (int r = 0; r < th + 2; r++) {
        int yy = std::min(std::max(y0 - 1 + r, 0), h - 1);
        const uint16_t *row = in + (int64_t)yy * w;
        uint16_t *t = tmp + r * TW;
        int x = 0;
        // Scalar where a neighbour falls off the image, vectors elsewhere.
        for (; x < tw && (x0 + x == 0); x++) {
            int gx = x0 + x;
            t[x] =
                div3((uint16_t)(row[std::max(gx - 1, 0)] + row[gx] + row[std::min(gx + 1, w - 1)]));
        }
        for (; x + 8 <= tw && x0 + x + 8 < w; x += 8) {
            const uint16_t *p = row + x0 + x;
            __m128i a = _mm_loadu_si128((const __m128i *)(p - 1));
            __m128i b = _mm_loadu_si128((const __m128i *)p);
            __m128i c = _mm_loadu_si128((const __m128i *)(p + 1));
            _mm_storeu_si128((__m128i *)(t + x), div3(_mm_add_epi16(_mm_add_epi16(a, b), c)));
        }
        for (; x < tw; x++) {
            int gx = x0 + x;
            t[x] =
                div3((uint16_t)(row[std::max(gx - 1, 0)] + row[gx] + row[std::min(gx + 1, w - 1)]));
        }
    }
    // blur_y from the temporary.
    for (int r = 0; r < th; r++) {
        const uint16_t *up = tmp + r * TW, *mid = up + TW, *down = mid + TW;
        uint16_t *o = out + (int64_t)(y0 + r) * w + x0;
        int x = 0;
        for (; x + 8 <= tw; x += 8) {
            __m128i a = _mm_loadu_si128((const __m128i *)(up + x));
            __m128i b = _mm_loadu_si128((const __m128i *)(mid + x));
            __m128i c = _mm_loadu_si128((const __m128i *)(down + x));
            _mm_storeu_si128((__m128i *)(o + x), div3(_mm_add_epi16(_mm_add_epi16(a, b), c)));
        }
        for (; x < tw; x++) o[x] = div3((uint16_t)(up[x] + mid[x] + down[x]));
    }
}

} // namespace blur_hand

/// The blur of blur_clean_cpp (same arguments and output, w >= 2), in 256x32 tiles spread over
/// `threads` threads by rows of tiles.
inline void blur_hand_optimized(const uint16_t *in, uint16_t *out, int w, int h, int threads) {
    const int tile_rows = (h + 31) / 32;
    std::atomic<int> next{0};
    auto work = [&] {
        for (int ty; (ty = next.fetch_add(1)) < tile_rows;)
            for (int x0 = 0; x0 < w; x0 += 256) blur_hand::tile(in, out, w, h, x0, ty * 32);
    };
    std::vector<std::thread> pool;
    for (int i = 1; i < threads; i++) pool.emplace_back(work);
    work();
    for (auto &t : pool) t.join();
}

#endif
