#pragma once
// A guarantee in plain words, computed from its numbers (issue 14): what ε bounds, a worked
// example at this ε (a prior belief about one person and the most it can become), what δ means
// at this n, what the adjacency means. Shown beside every guarantee (the GUI's guarantee box,
// the CLI's "explanation").

#include "core/privacy/guarantee.h"

#include <string>
#include <vector>

namespace elab::core {

/// The most a prior belief p about one person can become after seeing the output of an ε-DP
/// mechanism: e^ε·p / (e^ε·p + 1 − p) (Bayes with a likelihood ratio ≤ e^ε).
double posteriorBound(double prior, double eps);

/// Sentences for g on n training rows (n ≤ 0: unknown); for a guarantee voided by the pipeline,
/// why there is none; empty for a non-private mechanism.
std::vector<std::string> plainLanguage(const PrivacyGuarantee& g, long long n, double prior = 0.1);

} // namespace elab::core
