#include "core/privacy/plain_language.h"

#include "core/util/format_number.h"

#include <cmath>

namespace elab::core {

double posteriorBound(double prior, double eps) {
    const double r = std::exp(eps);
    return r * prior / (r * prior + 1.0 - prior);
}

std::vector<std::string> plainLanguage(const PrivacyGuarantee& g, long long n, double prior) {
    if (g.voided()) {
        std::vector<std::string> out{"No privacy guarantee: an assumption the guarantee needs is not met, so what is "
                                     "released can depend on any one person's row in ways no ε bounds."};
        for (const std::string& step : g.assumptionsNotMet)
            out.push_back("Not met: " + step + ".");
        return out;
    }
    if (!g.isPrivate || !std::isfinite(g.epsilon))
        return {};
    std::vector<std::string> out;
    const double ratio = std::exp(g.epsilon);
    out.push_back("ε = " + formatNumber(g.epsilon) +
                  " bounds what one person's data can change: any conclusion about " + "them becomes at most e^ε = " +
                  formatNumber(ratio) + " times more (or less) likely than if their row " + "had not been used.");
    out.push_back("Example: someone who believed something about one person with " + formatNumber(100.0 * prior) +
                  " % certainty can, after seeing the model, believe it with at most " +
                  formatNumber(std::round(1000.0 * posteriorBound(prior, g.epsilon)) / 10.0) + " %" +
                  (g.delta > 0.0 ? " (except with probability about δ)." : "."));
    if (g.delta > 0.0) {
        std::string d = "δ = " + formatNumber(g.delta) + " is the chance that this bound fails outright";
        if (n > 0) {
            const double nd = static_cast<double>(n) * g.delta;
            d += "; with n = " + std::to_string(n) + " rows, n·δ = " + formatNumber(nd) +
                 (nd < 0.1   ? ", far below 1 as it should be"
                  : nd < 1.0 ? ", below 1 but not by much"
                             : ": too large — "
                               "a mechanism could then publish some rows outright");
        }
        out.push_back(d + ".");
    }
    out.push_back(g.adjacency == Adjacency::AddRemove
                      ? "Neighbouring datasets: one person's row added or removed (replacing a row counts twice)."
                      : "Neighbouring datasets: one person's row replaced by any other row.");
    for (const std::string& c : g.conditions)
        out.push_back("Condition: " + c + ".");
    return out;
}

} // namespace elab::core
