#pragma once
// Exact (Clopper–Pearson) binomial confidence bounds, by the inverse regularised incomplete
// beta function of Boost.Math: for k successes in n trials, the one-sided upper bound at
// confidence 1 − a is the (1 − a)-quantile of Beta(k + 1, n − k) (1 when k = n); the lower
// bound is the a-quantile of Beta(k, n − k + 1) (0 when k = 0).

namespace elab::core {

/// One-sided upper bound on p at confidence 1 − a (0 < a < 1); n ≥ 1, 0 ≤ k ≤ n.
double clopperPearsonUpper(long long k, long long n, double a);
/// One-sided lower bound on p at confidence 1 − a.
double clopperPearsonLower(long long k, long long n, double a);

} // namespace elab::core
