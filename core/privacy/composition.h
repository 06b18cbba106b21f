#pragma once
// The guarantee of what is released, derived from the mechanism's guarantee AND the pipeline that
// produced its training rows (docs/MATH.md §7): one function, used by every report, export and
// view. A guarantee is a claim about the map from the user's file to the released model.
//
// - Steps that spent ε on the training rows (privately estimated bounds) add it by basic
//   sequential composition: an (ε, δ)-DP model of ε_b-DP-prepared data is (ε + ε_b, δ)-DP
//   (Dwork & Roth 2014, Thm 3.16).
// - A step stable under replace-one only (a fixed-size subsample) turns an add/remove
//   guarantee into its replace-one equivalent (2ε, (1 + e^ε)δ) by group privacy.
// - Any step that read the private data outside a mechanism (a leaking step: a data-derived
//   schema, standardising, scaling by the max norm, no norm bound, mean imputation, a PCA plane)
//   turns the claim off: private = false, ε = ∞, and the steps named in assumptionsNotMet.

#include "core/data/dataset.h"
#include "core/privacy/guarantee.h"

#include <string>
#include <vector>

namespace elab::core {

/// What the pipeline from the file to the training rows did, as far as a guarantee is concerned.
struct PipelineFacts {
    double preparationEpsilon = 0.0;       ///< ε spent on the training rows by private estimates
    std::vector<std::string> leakingSteps; ///< "name: detail" of each step that leaks
    bool replaceOneOnly = false;           ///< a step is stable under replace-one only
    /// Rows were dropped by their own content (a missing cell, a label outside the public classes):
    /// per-row and stable, but a replaced row dropped in one file and kept in the other makes the
    /// training sets add/remove neighbours, which a replace-one guarantee at fixed n does not cover.
    bool droppedRows = false;
    /// Not empty: the mechanism is broken on purpose (less noise than its ε needs, for an audit to
    /// catch), in words. No guarantee then, whatever the other steps did.
    std::string brokenMechanism;

    bool operator==(const PipelineFacts&) const = default;
};

/// One step of the pipeline as the guarantee sees it: the privacy ledger's row.
struct LedgerEntry {
    std::string step;            ///< the processing step's name ("clip rows")
    std::string detail;          ///< what it did, with numbers
    double epsilon = 0.0;        ///< ε it spent on the training rows (added by basic composition)
    bool leaks = false;          ///< read the private data outside a mechanism: the guarantee is off
    bool replaceOneOnly = false; ///< an add/remove guarantee after it holds as its replace-one equivalent
    bool dropsRows = false;      ///< dropped rows by their own content (an assumption under replace-one)
    /// What it does to the guarantee, in words ("none: …", "spends ε = 0.5", "leaks: …").
    std::string effect() const;

    bool operator==(const LedgerEntry&) const = default;
};

/// The privacy ledger of a processing log: one entry per step, in order. pipelineFacts reads the
/// guarantee's facts from it, so the ledger a report shows is what the guarantee was built from.
std::vector<LedgerEntry> pipelineLedger(const std::vector<ProcessingStep>& log);

/// The facts of a dataset's processing log (through its ledger) and preparation ε.
PipelineFacts pipelineFacts(const std::vector<ProcessingStep>& log, double preparationEpsilon = 0.0);
/// pipelineFacts(d.log, d.preparationEpsilon).
PipelineFacts pipelineFacts(const Dataset& d);

/// g as a guarantee of the whole pipeline (see above). A non-private g is returned unchanged.
PrivacyGuarantee withPipeline(PrivacyGuarantee g, const PipelineFacts& facts);

/// R independent draws of g released together (a decision-regions picture of R draws):
/// (Rε, Rδ)-DP by basic sequential composition (Dwork & Roth 2014, Thm 3.16), with the
/// parameters "draws", "eps_per_draw" and "delta_per_draw". g unchanged if not private or R ≤ 1.
PrivacyGuarantee composedDraws(PrivacyGuarantee g, int draws);

/// g (one draw) with the condition of an output that shows R draws: "each draw (ε, δ); the R
/// draws together (Rε, Rδ)", and that the non-private overlays shown with them are not covered.
PrivacyGuarantee withDrawsShown(PrivacyGuarantee g, int draws);

/// g with the condition of an ε chosen by looking at utilities of this data (choose-ε, a
/// target): the guarantee covers a model trained at a fixed ε, not the choice of ε itself.
PrivacyGuarantee withDataChosenEps(PrivacyGuarantee g);

/// How the noise's seed was chosen (docs/MATH.md §7: seeds).
enum class SeedMode {
    Reproducible, ///< a public seed, written to the outputs: the run can be repeated exactly
    SecretRelease ///< a seed from the operating system's entropy, never written
};

/// "reproducible", "private-release".
const char* toString(SeedMode mode);

/// g with the condition its seed mode puts on the release: a reproducible run's guarantee holds
/// for a release drawn with secret randomness, and this run's outputs, with their public seed, are
/// not that release. A non-private g is returned unchanged.
PrivacyGuarantee withSeedMode(PrivacyGuarantee g, SeedMode mode);

} // namespace elab::core
