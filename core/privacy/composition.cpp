#include "core/privacy/composition.h"

#include "core/privacy/accountant.h"
#include "core/util/format_number.h"

#include <cmath>

namespace elab::core {

std::string LedgerEntry::effect() const {
    if (leaks)
        return "leaks: read the private rows outside a mechanism, so no ε holds for the release";
    std::string out;
    if (epsilon > 0.0)
        out = "spends ε = " + formatNumber(epsilon) + " (added to the model's ε by basic composition)";
    if (replaceOneOnly)
        out += std::string(out.empty() ? "" : "; ") +
               "stable under replace-one only: an add/remove guarantee holds as its replace-one equivalent";
    if (dropsRows)
        out += std::string(out.empty() ? "" : "; ") +
               "drops rows by their own content: a replace-one guarantee assumes the neighbour drops them too";
    return out.empty() ? "none: reads nothing private beyond the row it changes" : out;
}

std::vector<LedgerEntry> pipelineLedger(const std::vector<ProcessingStep>& log) {
    std::vector<LedgerEntry> ledger;
    ledger.reserve(log.size());
    for (const ProcessingStep& step : log)
        ledger.push_back(
            {step.name, step.detail, step.epsilon, step.leaksPrivacy, step.replaceOneOnly, step.name == "drop rows"});
    return ledger;
}

PipelineFacts pipelineFacts(const std::vector<ProcessingStep>& log, double preparationEpsilon) {
    PipelineFacts facts;
    facts.preparationEpsilon = preparationEpsilon;
    for (const LedgerEntry& entry : pipelineLedger(log)) {
        if (entry.leaks) {
            std::string named = entry.step + ": " + entry.detail;
            // One entry per step, even when the log holds the step for several columns.
            bool seen = false;
            for (const std::string& s : facts.leakingSteps)
                seen = seen || s == named;
            if (!seen)
                facts.leakingSteps.push_back(std::move(named));
        }
        facts.replaceOneOnly = facts.replaceOneOnly || entry.replaceOneOnly;
        facts.droppedRows = facts.droppedRows || entry.dropsRows;
    }
    return facts;
}

PipelineFacts pipelineFacts(const Dataset& d) { return pipelineFacts(d.log, d.preparationEpsilon); }

PrivacyGuarantee withPipeline(PrivacyGuarantee g, const PipelineFacts& facts) {
    if (!g.isPrivate)
        return g;
    if (facts.preparationEpsilon > 0.0) {
        const double model = g.epsilon;
        g.epsilon = model + facts.preparationEpsilon;
        g.notes.push_back("ε = " + formatNumber(model) + " for the model + " + formatNumber(facts.preparationEpsilon) +
                          " spent on privately estimated bounds (basic composition)");
        g.parameters.push_back({"eps_prep", "ε_prep", facts.preparationEpsilon});
    }
    if (facts.replaceOneOnly && g.adjacency == Adjacency::AddRemove) {
        const EpsDelta r = replaceOneEquivalent(g.epsilon, g.delta);
        g.notes.push_back("a fixed-size subsample turns one added or removed row of the file into one replaced row of "
                          "the training set: the add/remove (" +
                          formatNumber(g.epsilon) + ", " + formatNumber(g.delta) + ") holds as replace-one (" +
                          formatNumber(r.epsilon) + ", " + formatNumber(r.delta) + ") by group privacy");
        g.epsilon = r.epsilon;
        g.delta = r.delta;
        g.adjacency = Adjacency::ReplaceOne;
    }
    if (facts.droppedRows && g.adjacency == Adjacency::ReplaceOne)
        g.assumptions.push_back(
            "the rows dropped for their own content (see the processing log) are dropped in the "
            "neighbouring file too: a replaced row dropped in one file and kept in the other changes "
            "n, which the replace-one analysis at fixed n does not cover");
    if (!facts.brokenMechanism.empty()) {
        g.notes.push_back("the mechanism is broken on purpose: it adds less noise than the claimed ε = " +
                          formatNumber(g.epsilon) + " needs, so the claim is false; audit it, do not use it");
        g.isPrivate = false;
        g.brokenOnPurpose = true;
        g.epsilon = INFINITY;
        g.delta = NAN;
        g.notion = "none (broken on purpose)";
        g.assumptionsNotMet.push_back(facts.brokenMechanism);
        g.assumptionsNotMet.insert(g.assumptionsNotMet.end(), facts.leakingSteps.begin(), facts.leakingSteps.end());
    } else if (!facts.leakingSteps.empty()) {
        g.parameters.push_back({"mechanism_eps", "ε (mechanism on the training rows)", g.epsilon});
        g.notes.push_back("the mechanism alone is " + g.notion + " with ε = " + formatNumber(g.epsilon) +
                          " on the training rows as they reached it, but the pipeline read the private data outside "
                          "the mechanism, so nothing is guaranteed about the file");
        g.isPrivate = false;
        g.epsilon = INFINITY;
        g.delta = NAN;
        g.notion = "none (assumptions not met)";
        g.assumptionsNotMet = facts.leakingSteps;
    }
    return g;
}

PrivacyGuarantee composedDraws(PrivacyGuarantee g, int draws) {
    if (!g.isPrivate || draws <= 1)
        return g;
    const double R = static_cast<double>(draws);
    g.parameters.push_back({"draws", "R", R});
    g.parameters.push_back({"eps_per_draw", "ε per draw", g.epsilon});
    g.parameters.push_back({"delta_per_draw", "δ per draw", g.delta});
    g.notes.push_back(std::to_string(draws) + " draws released together: each is (" + formatNumber(g.epsilon) + ", " +
                      formatNumber(g.delta) + ")-DP, together (" + formatNumber(R * g.epsilon) + ", " +
                      formatNumber(R * g.delta) + ")-DP by basic sequential composition (Dwork & Roth 2014, Thm 3.16)");
    g.epsilon *= R;
    g.delta *= R;
    return g;
}

PrivacyGuarantee withDrawsShown(PrivacyGuarantee g, int draws) {
    if (!g.isPrivate || draws <= 1)
        return g;
    const double R = static_cast<double>(draws);
    g.conditions.push_back("each draw (" + formatNumber(g.epsilon) + ", " + formatNumber(g.delta) + "); the " +
                           std::to_string(draws) + " draws shown together (" + formatNumber(R * g.epsilon) + ", " +
                           formatNumber(R * g.delta) +
                           ") by basic composition; the training points and the non-private boundary shown with them "
                           "are not private at all");
    return g;
}

PrivacyGuarantee withDataChosenEps(PrivacyGuarantee g) {
    if (!g.isPrivate && g.assumptionsNotMet.empty())
        return g;
    g.conditions.push_back("ε was chosen by looking at non-private utilities of this data: the guarantee is that of a "
                           "model trained at a fixed ε, and does not cover the choice of ε, which itself depends on "
                           "every row");
    return g;
}

const char* toString(SeedMode mode) { return mode == SeedMode::SecretRelease ? "private-release" : "reproducible"; }

PrivacyGuarantee withSeedMode(PrivacyGuarantee g, SeedMode mode) {
    if (!g.isPrivate)
        return g;
    if (mode == SeedMode::Reproducible)
        g.conditions.push_back("reproducible run (public seed): the guarantee holds for a release whose noise is drawn "
                               "with secret randomness; this run's outputs, whose seed is written with them, are not "
                               "that release (anyone with the seed can regenerate the noise)");
    else
        g.conditions.push_back("private release: the noise's seed came from the operating system's entropy and was "
                               "not written anywhere");
    return g;
}

} // namespace elab::core
