// Naive coordinate maps of the boundary conditions over an interval [mn, mn + ext), shared by
// the tests that check BoundaryConditions against them.
#ifndef LOOM_TESTS_BOUNDARY_REFERENCE_H
#define LOOM_TESTS_BOUNDARY_REFERENCE_H

namespace loom_test {

inline int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }
inline int euclidean_mod(int a, int b) {
    int r = a % b;
    return r < 0 ? r + b : r;
}
inline int repeat_edge_ref(int v, int mn, int ext) { return clampi(v, mn, mn + ext - 1); }
inline int repeat_image_ref(int v, int mn, int ext) { return mn + euclidean_mod(v - mn, ext); }
inline int mirror_image_ref(int v, int mn, int ext) {
    int m = euclidean_mod(v - mn, 2 * ext);
    return mn + (m < ext ? m : 2 * ext - 1 - m);
}
inline int mirror_interior_ref(int v, int mn, int ext) {
    if (ext == 1) return mn;
    int m = euclidean_mod(v - mn, 2 * (ext - 1));
    return mn + (m < ext ? m : 2 * (ext - 1) - m);
}

} // namespace loom_test

#endif
