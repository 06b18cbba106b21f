#pragma once
// Bounds estimated privately (docs/MATH.md §1.5). For each numeric column, the upper bound is
// the smallest of a fixed, public set of round candidates c (0 and ±m·10^k, m in the R10 series
// 1, 1.25, 1.6, 2, 2.5, 3.15, 4, 5, 6.3, 8, and 10^k from 10⁻³ up to the domain D) whose count
// #{x_i ≤ c} reaches (1 − q)·n, found by the sparse vector technique (AboveThreshold, Dwork &
// Roth 2014, Alg. 1: threshold noise Lap(2/ε), query noise Lap(4/ε), counts of sensitivity 1),
// which is ε-DP however many candidates it scans; the lower bound likewise from the top with
// #{x_i ≥ c}. Unlike a quantile by the exponential mechanism, it returns the tightest round
// value that holds the data, even when values tie or a candidate range lies far from the data.
// Every search spends ε_b / (2·columns); the released bounds are ε_b-DP by basic composition,
// and a model trained on the data they scale is (ε + ε_b)-DP (core/privacy/composition.h).

#include "core/data/dataset.h"
#include "core/data/feature_bounds.h"
#include "core/util/noise.h"
#include "core/util/random.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace elab::core {

struct PrivateBoundsOptions {
    double epsilon = 0.5;  ///< ε_b for all columns together
    double tail = 0.01;    ///< q: at most about this fraction of the rows lies beyond each bound
    double domain = 1.0e6; ///< D: the candidates span [−D, D] (public, data-independent)
    std::uint64_t seed = 1;

    std::string validate() const;
};

/// The public candidates of a domain D, ascending (−D, …, −0.001, 0, 0.001, …, D).
std::vector<double> boundCandidates(double domain);

/// AboveThreshold over candidates in order: the index of the first candidate whose count
/// plus Lap(4/ε) reaches threshold plus Lap(2/ε), or candidates.size() if none does. ε-DP when
/// every count has sensitivity 1.
std::size_t aboveThreshold(std::span<const double> counts, double threshold, double eps, Rng& rng);

/// An ε-DP upper bound of values (any order): the first candidate c, ascending, with
/// #{x ≤ c} ≥ (1 − tail)·n by AboveThreshold; D if none.
double privateUpperBound(std::vector<double> values, double tail, double eps, double domain, std::uint64_t seed);
/// The mirror image: the first candidate, descending, with #{x ≥ c} ≥ (1 − tail)·n; −D if none.
double privateLowerBound(std::vector<double> values, double tail, double eps, double domain, std::uint64_t seed);

/// Bounds for columns (every numeric column when empty) of data estimated with options; the
/// result's estimateEpsilon is options.epsilon and its source says how it was made.
/// Throws std::invalid_argument (invalid options, unknown or categorical column, no rows).
PublicBounds estimatePrivateBounds(const Dataset& data, const std::vector<std::string>& columns,
                                   const PrivateBoundsOptions& options);

/// The bounds step of the preparation (preprocess.cpp, and the GUI's load when bounds are set
/// in the Data tab): the numeric columns without a public bound get private estimates when
/// estimate is set, then applyPublicBounds; train.preparationEpsilon grows by the ε spent.
/// No-op without bounds and without estimate.
void applyBounds(Dataset& train, Dataset* test, const PublicBounds& bounds,
                 const std::optional<PrivateBoundsOptions>& estimate);

} // namespace elab::core
