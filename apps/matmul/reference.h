// The naive matrix product in plain C++ loops over raw row-major arrays, written from the
// definition C[i][j] = sum_k A[i][k] B[k][j] rather than from the pipeline's text.
#ifndef LOOM_APPS_MATMUL_REFERENCE_H
#define LOOM_APPS_MATMUL_REFERENCE_H

#include <cstddef>

/// C = A B for row-major A (m x p), B (p x n) and C (m x n). The triple loop runs i, k, j, so the
/// innermost loop walks rows of B and C contiguously (the textbook i, j, k order walks a column
/// of B, a cache miss per multiply-add), yet every C[i][j] still sums its products in increasing
/// k, one float addition at a time, as the pipeline's reduction does.
inline void matmul_reference(const float *a, const float *b, float *c, int m, int p, int n) {
    for (int i = 0; i < m; i++) {
        float *ci = c + (size_t)i * n;
        for (int j = 0; j < n; j++) ci[j] = 0.0f;
        for (int k = 0; k < p; k++) {
            const float aik = a[(size_t)i * p + k];
            const float *bk = b + (size_t)k * n;
            for (int j = 0; j < n; j++) ci[j] += aik * bk[j];
        }
    }
}

#endif
