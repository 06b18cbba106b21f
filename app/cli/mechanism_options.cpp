#include "app/cli/mechanism_options.h"

#include "core/mechanisms/mechanism_catalog.h"

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
    const std::string sgdGroup = "DP-SGD (--mechanism dpsgd)";
    command.add_option("--hidden", sgd.hidden, "Hidden ReLU units H (0: softmax-linear model)")
        ->check(CLI::Range(0, 100000))
        ->group(sgdGroup);
    command.add_option("--epochs", sgd.epochs, "Epochs of ⌈N/S⌉ steps")->check(CLI::Range(1, 100000))->group(sgdGroup);
    command.add_option("--batch-size", sgd.batchSize, "Expected batch size S (Poisson sampling at q = S/N)")
        ->check(CLI::Range(1.0, 1e9))
        ->group(sgdGroup);
    command.add_option("--clip", sgd.clip, "Clip norm C of each example's gradient (per layer: each layer's C_l)")
        ->check(CLI::PositiveNumber)
        ->group(sgdGroup);
    command.add_option("--clip-mode", clipMode, "total, or per-layer (the paper's; sensitivity C·√layers)")
        ->check(CLI::IsMember(core::optionNameList(core::clipModeNames())))
        ->group(sgdGroup);
    command.add_option("--learning-rate", sgd.learningRate, "Initial learning rate η₀")
        ->check(CLI::PositiveNumber)
        ->group(sgdGroup);
    command.add_option("--lr-decay", sgd.gamma, "γ of η_t = η₀/t^γ, t the epoch (the paper: 1)")
        ->check(CLI::Range(0.0, 2.0))
        ->group(sgdGroup);
    command
        .add_option("--dropout", dropout, "Dropout on the hidden units: none, bernoulli, gaussian (the paper's DPD)")
        ->check(CLI::IsMember(core::optionNameList(core::dropoutKindNames())))
        ->group(sgdGroup);
    command.add_option("--dropout-rate", sgd.dropoutRate, "Bernoulli: drop probability p; Gaussian: variance p/(1−p)")
        ->check(CLI::Range(1e-6, 0.999))
        ->group(sgdGroup);
    command.add_option("--weight-decay", sgd.weightDecay, "L2 weight decay")
        ->check(CLI::NonNegativeNumber)
        ->group(sgdGroup);
    command
        .add_option("--accountant", accountant,
                    "Accountant calibrating σ for ε: pld (default), rdp, ac, zcdp-published")
        ->check(CLI::IsMember(core::optionNameList(core::accountantKindNames())))
        ->group(sgdGroup);
    command
        .add_option("--public-rows", sgd.publicRows,
                    "N of q = S/N and of the step count, declared public: the guarantee is add/remove one row. "
                    "Without it N is the training rows and the guarantee is replace-one at that fixed count")
        ->check(CLI::Range(1LL, 1000000000000LL))
        ->group(sgdGroup);
}

core::MechanismSpec MechanismOptions::spec() const {
    core::MechanismSpec spec;
    spec.kind = core::mechanismKindFromString(mechanism);
    const auto required = core::mechanismInfo(spec.kind).requiredLoss;
    const bool lossGiven = lossOption != nullptr && lossOption->count() > 0;
    spec.model.loss = core::Loss(required && !lossGiven ? *required : core::lossKindFromString(loss), huberWidth);
    spec.model.lambda = lambda;
    spec.privacy.delta = delta;
    spec.sgd = sgd;
    spec.sgd.clipMode = core::parseOptionName(core::clipModeNames(), clipMode, "clip mode");
    spec.sgd.dropout = core::parseOptionName(core::dropoutKindNames(), dropout, "dropout");
    spec.sgd.accountant = core::accountantKindFromString(accountant);
    return spec;
}

nlohmann::ordered_json MechanismOptions::sgdJson() const {
    const core::MechanismSpec s = spec();
    if (!core::mechanismInfo(s.kind).trainsInEpochs)
        return nullptr;
    return {{"hidden", s.sgd.hidden},
            {"epochs", s.sgd.epochs},
            {"batch_size", s.sgd.batchSize},
            {"clip", s.sgd.clip},
            {"clip_mode", core::optionName(core::clipModeNames(), s.sgd.clipMode)},
            {"sensitivity", s.sgd.sensitivity()},
            {"learning_rate", s.sgd.learningRate},
            {"lr_decay", s.sgd.gamma},
            {"dropout", core::optionName(core::dropoutKindNames(), s.sgd.dropout)},
            {"dropout_rate", s.sgd.dropoutRate},
            {"weight_decay", s.sgd.weightDecay},
            {"accountant", core::toString(s.sgd.accountant)},
            {"public_rows", s.sgd.publicRows > 0 ? nlohmann::ordered_json(s.sgd.publicRows) : nlohmann::ordered_json()},
            {"adjacency", s.sgd.publicRows > 0 ? "add/remove one row (N declared public)"
                                               : "replace one row (N = the training rows, not declared public)"}};
}

} // namespace elab::app
