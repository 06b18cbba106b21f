#pragma once
// Private dropout over the simplex by propose-test-release — Jain, Kulkarni, Thakurta &
// Williams, Algorithm 2 (docs/MATH.md §3.5). Data x_i ∈ {0,1}^p (features binarised: x > at):
//   c(j) = (Σ_i x_ij − max_i x_ij)/n,  Λ = min_j c(j)   (how far every feature's count is from
//   depending on one row), Λ̂ = Λ + Lap(1/(nε));
//   if Λ̂ > 2·log(1/δ)/(nε): release argmin_j Σ_i x_ij·b_ij with fresh b_ij ~ Bernoulli(½)
//   (the feature dropout keeps least), else ⊥. The whole procedure is (2ε, δ)-DP.

#include "core/data/feature_matrix.h"
#include "core/privacy/guarantee.h"

#include <cstdint>
#include <vector>

namespace elab::core {

struct PtrStatistic {
    Eigen::VectorXd c;   ///< c(j) per feature
    double lambda = 0.0; ///< Λ = min_j c(j)
    Index argmin = -1;   ///< the feature attaining it
    Index rows = 0;
};

/// X binarised at `at` (x_ij > at → 1) as its count of ones per feature, and its statistic:
/// computed once, then any number of releases. (The rows holding the ones were kept until
/// 2026-11-25: ≈ 1× the feature matrix on a million rows, for counts.)
struct PtrData {
    std::vector<Index> ones; ///< Σ_i x_ij per feature j
    PtrStatistic statistic;
};

/// Throws std::invalid_argument for no rows or features.
PtrData ptrData(const FeatureMatrix& X, double at = 0.0);

/// Λ and c of X binarised at `at`.
inline PtrStatistic ptrStatistic(const FeatureMatrix& X, double at = 0.0) { return ptrData(X, at).statistic; }

/// The test's threshold 2·log(1/δ)/(nε).
double ptrThreshold(double eps, double delta, Index n);

/// P(Λ + Lap(1/(nε)) > threshold): ½·e^{−(T−Λ)nε} below the threshold, 1 − ½·e^{−(Λ−T)nε} above.
double ptrPassProbability(double lambda, double eps, double delta, Index n);

struct PtrRelease {
    double noisyLambda = 0.0;
    double threshold = 0.0;
    bool passed = false;
    Index feature = -1; ///< the released feature (−1: ⊥)
};

/// The test alone of one run with the stream of seed (its first draw): noisyLambda, threshold
/// and passed exactly as ptrRelease with the same seed, feature −1. Costs one draw, so a pass
/// fraction over many runs is cheap.
PtrRelease ptrTest(const PtrStatistic& statistic, double eps, double delta, std::uint64_t seed);

/// One run of Algorithm 2 with the stream of seed.
PtrRelease ptrRelease(const PtrData& data, double eps, double delta, std::uint64_t seed);

/// (2ε, δ)-DP, replace-one, as Jain et al. state it.
PrivacyGuarantee ptrGuarantee(double eps, double delta);

} // namespace elab::core
