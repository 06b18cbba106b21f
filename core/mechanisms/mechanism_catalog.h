#pragma once
// The one place that knows which learner implements which mechanism callers — the
// utility sweep, choose-ε, the regions engine, the CLI, the GUI's mechanism menu — look a
// mechanism up here and never switch on its kind. Adding a mechanism is one entry
// (docs/developer.md, "Adding a mechanism").

#include "core/learner/mechanism.h"
#include "core/learner/parameter_schema.h"
#include "core/learner/prepared_problem.h"
#include "core/learner/private_learner.h"
#include "core/learner/sweep_data.h"
#include "core/learner/utility_metric.h"

#include <memory>
#include <optional>
#include <vector>

namespace elab::core {

struct MechanismInfo {
    MechanismKind kind;
    const char* title;   ///< menu text, e.g. "Objective perturbation (ε, δ)"
    const char* summary; ///< one sentence with its source, for tool tips and --help
    /// The loss the model is defined with, when the mechanism fixes it (else any margin loss).
    std::optional<LossKind> requiredLoss;
    /// Taylor estimates of utility vs ε exist (docs/MATH.md §4): the same as the learner's
    /// capabilities().taylor, known before any data is loaded (for spec checks and the UI).
    bool taylor = false;
    /// Why not, in one sentence, when !taylor (shown in the UI and by the CLI).
    const char* noTaylorReason = "";
    /// What the mechanism guarantees at ε on n training rows with classes = K (0: binary labels),
    /// before any data is seen (the guarantee box while the settings are edited).
    PrivacyGuarantee (*guarantee)(const MechanismSpec& spec, Eigen::Index n, int classes, double eps) = nullptr;
    /// The learner of data at spec and metric. Throws std::invalid_argument for data the
    /// mechanism cannot train on (with the reason).
    std::shared_ptr<const PrivateLearner> (*make)(const SweepData& data, const MechanismSpec& spec,
                                                  UtilityMetric metric) = nullptr;
    /// K classes are one model (no budget split), else K one-vs-rest models each at ε/K.
    bool nativeMulticlass = false;
    /// The mechanism in formulas (noise scale, sensitivity, the paper and equation), as
    /// docs/MATH.md states and the code implements it: the guarantee box's formula line.
    const char* formula = "";
    /// It releases a private model (false only for the non-private reference, which claims no ε).
    bool isPrivate = true;
    /// Trained in epochs with its own settings block (MechanismSpec::sgd: network, schedule,
    /// clipping) instead of a margin loss and Λ; `epsilonlab-cli train` and the accounting view's
    /// live curves apply to it.
    bool trainsInEpochs = false;
    /// Its sensitivity needs Λ > 0 (output perturbation: 2ζ/(nΛ) is infinite at Λ = 0).
    bool needsPositiveLambda = false;
    /// Its guarantee is (ε, δ): MechanismSpec::privacy.delta is used (else pure ε, δ = 0).
    bool usesDelta = false;
    /// "" if a spec of this kind is valid, else why (the model's checks included): the check of
    /// the mechanism's own folder. MechanismSpec::validate() calls it.
    std::string (*validate)(const MechanismSpec& spec) = nullptr;
    /// Its own parameters beyond ε, δ, the loss and Λ, described in its folder (nullptr: none):
    /// the command line's options, the GUI's form, the session block and the reports' block are
    /// built from this description.
    const ParameterSchema* parameters = nullptr;
};

/// Every mechanism, in menu order.
const std::vector<MechanismInfo>& mechanismCatalog();
/// The entry of kind (every MechanismKind has one).
const MechanismInfo& mechanismInfo(MechanismKind kind);
/// Every private mechanism (isPrivate), in menu order: what "audit all" audits.
std::vector<MechanismKind> privateMechanisms();

/// spec switched to kind: the kind's required loss (if any) replaces the loss, keeping its
/// parameters (Huber width, temperature). Every place that changes the mechanism uses this.
void selectMechanism(MechanismSpec& spec, MechanismKind kind);

/// The prepared problem of data at spec and metric, with the learner mechanismInfo(spec.kind)
/// makes. Throws std::invalid_argument (invalid spec, or data the learner cannot train on).
/// data's matrices must outlive the problem, or be owned by keepAlive.
std::shared_ptr<const PreparedProblem> prepareProblem(const SweepData& data, const MechanismSpec& spec,
                                                      UtilityMetric metric, std::shared_ptr<const void> keepAlive = {});

} // namespace elab::core
