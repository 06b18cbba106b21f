#pragma once
// The split of a dense layer's products over its output units: each unit's column (or gradient
// row) is computed by exactly one task with the same operations, so the result is bit-identical
// for any number of threads.

#include <Eigen/Core>

#include <tbb/parallel_for.h>

#include <algorithm>

namespace elab::core::detail {

/// Output units per task: double-precision products.
constexpr Eigen::Index kUnitSlice = 32;
/// Single-precision products: sgemm's AVX-512 kernels lose half their speed on 32 columns (73
/// GFLOP/s on one core for the 600 × 32 × 785 forward slices against 132 for 256 and 146 for all
/// 1,000), and 256 still splits MNIST's 1,000 units into four tasks.
constexpr Eigen::Index kSingleUnitSlice = 256;

/// f(begin, count) for consecutive slices of `width` units, in parallel (one slice: in place).
template <typename F>
void forUnitSlices(Eigen::Index units, F&& f, Eigen::Index width = kUnitSlice) {
    const Eigen::Index slices = (units + width - 1) / width;
    if (slices <= 1) {
        f(Eigen::Index(0), units);
        return;
    }
    tbb::parallel_for(Eigen::Index(0), slices, [&](Eigen::Index s) {
        const Eigen::Index begin = s * width;
        f(begin, std::min(width, units - begin));
    });
}

} // namespace elab::core::detail
