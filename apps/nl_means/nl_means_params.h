// The constants of the non-local means app (patch and search radii, the default filtering
// parameter), shared by the pipeline (nl_means.h) and the naive reference (reference.h). Needs no
// Halide header.
#ifndef LOOM_APPS_NL_MEANS_PARAMS_H
#define LOOM_APPS_NL_MEANS_PARAMS_H

namespace nl_means_detail {

/// Patches are (2 * kPatchRadius + 1)^2 = 7 x 7 pixels.
constexpr int kPatchRadius = 3;
/// The search window is (2 * kSearchRadius + 1)^2 = 7 x 7 offsets, the pixel itself included.
constexpr int kSearchRadius = 3;
/// Number of values a patch distance sums: (2r + 1)^2 pixels times 3 colour channels (147 for
/// the 7 x 7 patches).
constexpr int patch_values(int patch_radius) {
    return (2 * patch_radius + 1) * (2 * patch_radius + 1) * 3;
}
/// The default filtering parameter: the colour difference (in [0, 1] units, root mean square
/// over a patch) at which a patch's weight falls to 1/e.
constexpr float kDefaultSigma = 0.12f;

} // namespace nl_means_detail

#endif
