#include "core/privacy/ptr_dropout.h"

#include "core/util/format_number.h"
#include "core/util/noise.h"
#include "core/util/random.h"

#include <cmath>
#include <stdexcept>

namespace elab::core {

namespace {

// Σ_i x_ij of X binarised at `at`, per feature: all the release needs (it draws one Bernoulli(½)
// per one, feature by feature; which rows hold them does not matter).
std::vector<Index> onesByFeature(const FeatureMatrix& X, double at) {
    std::vector<Index> ones(static_cast<std::size_t>(X.cols()), 0);
    if (X.isSparse()) {
        const SparseMatrix& s = X.sparse();
        for (Index i = 0; i < s.outerSize(); ++i)
            for (SparseMatrix::InnerIterator it(s, i); it; ++it)
                if (it.value() > at)
                    ++ones[static_cast<std::size_t>(it.col())];
        return ones;
    }
    for (Index j = 0; j < X.cols(); ++j)
        for (Index i = 0; i < X.rows(); ++i)
            if (X.dense()(i, j) > at)
                ++ones[static_cast<std::size_t>(j)];
    return ones;
}

} // namespace

PtrData ptrData(const FeatureMatrix& X, double at) {
    if (X.rows() == 0 || X.cols() == 0)
        throw std::invalid_argument("propose-test-release needs rows and features");
    PtrData d{onesByFeature(X, at), {}};
    PtrStatistic& s = d.statistic;
    s.rows = X.rows();
    s.c.resize(X.cols());
    for (Index j = 0; j < X.cols(); ++j) {
        const auto count = static_cast<double>(d.ones[static_cast<std::size_t>(j)]);
        s.c[j] = (count - (count > 0.0 ? 1.0 : 0.0)) / static_cast<double>(s.rows); // max_i x_ij ∈ {0, 1}
    }
    s.lambda = s.c.minCoeff(&s.argmin);
    return d;
}

double ptrThreshold(double eps, double delta, Index n) {
    return 2.0 * std::log(1.0 / delta) / (static_cast<double>(n) * eps);
}

double ptrPassProbability(double lambda, double eps, double delta, Index n) {
    const double t = ptrThreshold(eps, delta, n), rate = static_cast<double>(n) * eps;
    return lambda < t ? 0.5 * std::exp(-(t - lambda) * rate) : 1.0 - 0.5 * std::exp(-(lambda - t) * rate);
}

namespace {

// The test's draw is the stream's first: ptrTest and ptrRelease agree on it.
PtrRelease noisyTest(const PtrStatistic& s, double eps, double delta, Rng& rng) {
    if (!(eps > 0.0) || !(delta > 0.0 && delta < 1.0))
        throw std::invalid_argument("propose-test-release needs ε > 0 and 0 < δ < 1");
    PtrRelease r;
    r.threshold = ptrThreshold(eps, delta, s.rows);
    r.noisyLambda = s.lambda + laplaceNoise(1.0 / (static_cast<double>(s.rows) * eps), rng);
    r.passed = r.noisyLambda > r.threshold;
    return r;
}

} // namespace

PtrRelease ptrTest(const PtrStatistic& statistic, double eps, double delta, std::uint64_t seed) {
    Rng rng(seed);
    return noisyTest(statistic, eps, delta, rng);
}

PtrRelease ptrRelease(const PtrData& data, double eps, double delta, std::uint64_t seed) {
    Rng rng(seed);
    PtrRelease r = noisyTest(data.statistic, eps, delta, rng);
    if (!r.passed)
        return r;
    long long best = -1;
    for (std::size_t j = 0; j < data.ones.size(); ++j) {
        long long kept = 0;
        for (Index k = 0; k < data.ones[j]; ++k)
            kept += static_cast<long long>(rng() >> 63); // b_ij ~ Bernoulli(½)
        if (best < 0 || kept < best) {
            best = kept;
            r.feature = static_cast<Index>(j);
        }
    }
    return r;
}

PrivacyGuarantee ptrGuarantee(double eps, double delta) {
    PrivacyGuarantee g;
    g.isPrivate = true;
    g.epsilon = 2.0 * eps;
    // The paper gives δ only asymptotically: no number is stated as proved (null in JSON).
    g.delta = NAN;
    g.notion = "(2ε, δ)-DP for ε < 1, δ not established numerically";
    g.source = "Jain, Kulkarni, Thakurta & Williams, Algorithm 2 (propose-test-release over the simplex)";
    g.assumptions = {"rows are binary (features binarised by a data-independent threshold)",
                     "neighbouring datasets differ in one row (replace-one)", "ε < 1 (the paper's condition)"};
    g.notes = {"the test spends ε and the release ε: the whole procedure is (2ε, δ)-DP as Jain et al. state it",
               "δ: the paper bounds it only asymptotically (its test threshold uses δ = " + formatNumber(delta) +
                   "); no numeric δ is established here"};
    g.parameters = {{"delta_test", "δ of the test's threshold", delta}};
    if (!(eps < 1.0)) {
        g.isPrivate = false;
        g.epsilon = INFINITY;
        g.notion = "none (assumptions not met)";
        g.assumptionsNotMet = {"ε = " + formatNumber(eps) + " is not below 1, the condition of Jain et al.'s analysis"};
    }
    return g;
}

} // namespace elab::core
