#include "app/cli/mechanism_options.h"

#include "core/learner/mechanism_catalog.h"

namespace elab::app {

void MechanismOptions::addTo(CLI::App& command) {
    std::string described = "Mechanism:";
    for (const core::MechanismInfo& info : core::mechanismCatalog())
        described += std::string("\n  ") + core::toString(info.kind) + ": " + info.summary;
    command.add_option("--mechanism", mechanism, described)
        ->check(CLI::IsMember(core::optionNameList(core::mechanismKindNames())));
    lossOption = command.add_option("--loss", loss, "Loss (gaussian-lm: huber, its only loss)")
                     ->check(CLI::IsMember(core::optionNameList(core::lossKindNames())));
    command.add_option("--huber-width", huberWidth, "Huber SVM width h")->check(CLI::Range(1e-6, 0.999));
    command.add_option("--lambda", lambda, "Λ of L(θ) + (Λ/2n)‖θ‖² (Li et al. eq. 1)")->check(CLI::NonNegativeNumber);
    command.add_option("--delta", delta, "δ of the (ε, δ) mechanisms");
}

core::MechanismSpec MechanismOptions::spec() const {
    core::MechanismSpec spec;
    spec.kind = core::mechanismKindFromString(mechanism);
    const auto required = core::mechanismInfo(spec.kind).requiredLoss;
    const bool lossGiven = lossOption != nullptr && lossOption->count() > 0;
    spec.model.loss = core::Loss(required && !lossGiven ? *required : core::lossKindFromString(loss), huberWidth);
    spec.model.lambda = lambda;
    spec.privacy.delta = delta;
    return spec;
}

} // namespace elab::app
