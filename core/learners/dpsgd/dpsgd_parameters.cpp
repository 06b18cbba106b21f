#include "core/learners/dpsgd/dpsgd_parameters.h"

#include "core/privacy/accountant.h"

namespace elab::core {

namespace {

long long integer(const ParameterValue& v) { return std::get<long long>(v); }
double real(const ParameterValue& v) { return std::get<double>(v); }
const std::string& name(const ParameterValue& v) { return std::get<std::string>(v); }

template <typename E>
std::vector<ParameterChoice> choices(const OptionNames<E>& names, std::vector<std::string> titles) {
    std::vector<ParameterChoice> list;
    for (std::size_t i = 0; i < names.size(); ++i)
        list.push_back({names[i].second, titles[i]});
    return list;
}

std::vector<ParameterChoice> accountantChoices() {
    std::vector<ParameterChoice> list;
    for (const auto& [kind, n] : accountantKindNames())
        list.push_back({n, accountantTitle(kind)});
    return list;
}

bool hasHiddenLayer(const MechanismSpec& s) { return s.sgd.hidden > 0; }

std::string validateSgd(const MechanismSpec& s) { return s.sgd.validate(); }

} // namespace

const ParameterSchema& dpsgdParameters() {
    static const ParameterSchema schema{
        .id = "sgd",
        .title = "DP-SGD",
        .fields =
            {
                {.key = "hidden",
                 .flag = "--hidden",
                 .help = "Hidden ReLU units H (0: softmax-linear model)",
                 .label = "Hidden units",
                 .toolTip = "Hidden ReLU units H; 0: a softmax-linear model",
                 .type = ParameterType::Integer,
                 .min = 0,
                 .max = 100000,
                 .formMin = 0,
                 .formMax = 4096,
                 .specialValueText = "none (linear)",
                 .get = [](const MechanismSpec& s) -> ParameterValue { return static_cast<long long>(s.sgd.hidden); },
                 .set = [](MechanismSpec& s, const ParameterValue& v) { s.sgd.hidden = static_cast<int>(integer(v)); }},
                {.key = "epochs",
                 .flag = "--epochs",
                 .help = "Epochs of ⌈N/S⌉ steps",
                 .label = "Epochs",
                 .toolTip = "Passes over the data, ⌈N/S⌉ steps each; more steps spend more ε",
                 .type = ParameterType::Integer,
                 .min = 1,
                 .max = 100000,
                 .formMin = 1,
                 .formMax = 1000,
                 .get = [](const MechanismSpec& s) -> ParameterValue { return static_cast<long long>(s.sgd.epochs); },
                 .set = [](MechanismSpec& s, const ParameterValue& v) { s.sgd.epochs = static_cast<int>(integer(v)); }},
                {.key = "batch_size",
                 .flag = "--batch-size",
                 .help = "Expected batch size S (Poisson sampling at q = S/N)",
                 .label = "Batch size S",
                 .toolTip = "Expected batch size S: each row joins each step's batch with probability q = S/N",
                 .type = ParameterType::Real,
                 .min = 1.0,
                 .max = 1e9,
                 .formMin = 1,
                 .formMax = 1000000,
                 .decimals = 0,
                 .get = [](const MechanismSpec& s) -> ParameterValue { return s.sgd.batchSize; },
                 .set = [](MechanismSpec& s, const ParameterValue& v) { s.sgd.batchSize = real(v); }},
                {.key = "clip",
                 .flag = "--clip",
                 .help = "Clip norm C of each example's gradient (per layer: each layer's C_l)",
                 .label = "Clip C",
                 .toolTip = "Clip norm C of each example's gradient: the sensitivity",
                 .type = ParameterType::Real,
                 .bound = ParameterBound::Positive,
                 .formMin = 0.01,
                 .formMax = 100.0,
                 .step = 0.1,
                 .get = [](const MechanismSpec& s) -> ParameterValue { return s.sgd.clip; },
                 .set = [](MechanismSpec& s, const ParameterValue& v) { s.sgd.clip = real(v); }},
                {.key = "clip_mode",
                 .flag = "--clip-mode",
                 .help = "total, or per-layer (the paper's; sensitivity C·√layers)",
                 .label = "Clipping",
                 .toolTip = "Total: one norm over all parameters. Per layer (the paper's): C for each layer, "
                            "sensitivity C·√layers",
                 .type = ParameterType::Choice,
                 .choices = choices(clipModeNames(), {"Total", "Per layer"}),
                 .get = [](const MechanismSpec& s) -> ParameterValue {
                     return std::string(optionName(clipModeNames(), s.sgd.clipMode));
                 },
                 .set =
                     [](MechanismSpec& s, const ParameterValue& v) {
                         s.sgd.clipMode = parseOptionName(clipModeNames(), name(v), "clip mode");
                     },
                 .shown = hasHiddenLayer}, // one layer: total and per layer coincide
                {.key = "learning_rate",
                 .flag = "--learning-rate",
                 .help = "Initial learning rate η₀",
                 .label = "Learning rate",
                 .toolTip = "Initial learning rate η₀",
                 .type = ParameterType::Real,
                 .bound = ParameterBound::Positive,
                 .formMin = 0.0001,
                 .formMax = 100.0,
                 .decimals = 4,
                 .step = 0.05,
                 .get = [](const MechanismSpec& s) -> ParameterValue { return s.sgd.learningRate; },
                 .set = [](MechanismSpec& s, const ParameterValue& v) { s.sgd.learningRate = real(v); }},
                {.key = "lr_decay",
                 .flag = "--lr-decay",
                 .help = "γ of η_t = η₀/t^γ, t the epoch (the paper: 1)",
                 .label = "Decay γ",
                 .toolTip = "γ of η = η₀/t^γ, t the epoch; the paper uses 1",
                 .type = ParameterType::Real,
                 .min = 0.0,
                 .max = 2.0,
                 .formMin = 0.0,
                 .formMax = 2.0,
                 .step = 0.1,
                 .get = [](const MechanismSpec& s) -> ParameterValue { return s.sgd.gamma; },
                 .set = [](MechanismSpec& s, const ParameterValue& v) { s.sgd.gamma = real(v); }},
                {.key = "dropout",
                 .flag = "--dropout",
                 .help = "Dropout on the hidden units: none, bernoulli, gaussian (the paper's DPD)",
                 .label = "Dropout",
                 .toolTip = "Dropout on the hidden units (a regulariser; no effect on ε). Gaussian is the paper's DPD.",
                 .type = ParameterType::Choice,
                 .choices = choices(dropoutKindNames(), {"None", "Bernoulli", "Gaussian"}),
                 .get = [](const MechanismSpec& s) -> ParameterValue {
                     return std::string(optionName(dropoutKindNames(), s.sgd.dropout));
                 },
                 .set =
                     [](MechanismSpec& s, const ParameterValue& v) {
                         s.sgd.dropout = parseOptionName(dropoutKindNames(), name(v), "dropout");
                     },
                 .shown = hasHiddenLayer,
                 .defaultWhenHidden = true}, // no hidden units to drop: none
                {.key = "dropout_rate",
                 .flag = "--dropout-rate",
                 .help = "Bernoulli: drop probability p; Gaussian: variance p/(1−p)",
                 .label = "Dropout rate",
                 .toolTip = "Bernoulli: drop probability p; Gaussian: multiplier variance p/(1−p)",
                 .type = ParameterType::Real,
                 .min = 1e-6,
                 .max = 0.999,
                 .formMin = 0.01,
                 .formMax = 0.95,
                 .step = 0.05,
                 .get = [](const MechanismSpec& s) -> ParameterValue { return s.sgd.dropoutRate; },
                 .set = [](MechanismSpec& s, const ParameterValue& v) { s.sgd.dropoutRate = real(v); },
                 .shown =
                     [](const MechanismSpec& s) { return s.sgd.hidden > 0 && s.sgd.dropout != DropoutKind::None; }},
                {.key = "weight_decay",
                 .flag = "--weight-decay",
                 .help = "L2 weight decay",
                 .label = "Weight decay",
                 .toolTip = "L2 weight decay λ (data-independent)",
                 .type = ParameterType::Real,
                 .bound = ParameterBound::NonNegative,
                 .formMin = 0.0,
                 .formMax = 10.0,
                 .decimals = 5,
                 .step = 0.0001,
                 .get = [](const MechanismSpec& s) -> ParameterValue { return s.sgd.weightDecay; },
                 .set = [](MechanismSpec& s, const ParameterValue& v) { s.sgd.weightDecay = real(v); }},
                {.key = "accountant",
                 .flag = "--accountant",
                 .help = "Accountant calibrating σ for ε: pld (default), rdp, ac, zcdp-published",
                 .label = "Accountant",
                 .toolTip = "How σ is calibrated for ε. PLD (the default) is rigorous and the tightest: the least "
                            "noise for ε; RDP is rigorous and close behind; advanced composition is the paper's "
                            "DPD-AC; the paper's zCDP procedure is shown as published and is not a proof.",
                 .type = ParameterType::Choice,
                 .choices = accountantChoices(),
                 .get = [](const MechanismSpec& s) -> ParameterValue {
                     return std::string(toString(s.sgd.accountant));
                 },
                 .set =
                     [](MechanismSpec& s, const ParameterValue& v) {
                         s.sgd.accountant = parseOptionName(accountantKindNames(), name(v), "accountant");
                     }},
                {.key = "public_rows",
                 .flag = "--public-rows",
                 .help = "N of q = S/N and of the step count, declared public: the guarantee is add/remove one row. "
                         "Without it N is the training rows and the guarantee is replace-one at that fixed count",
                 .label = "Rows N",
                 .toolTip = "The public N (suggested: the training rows of the loaded data)",
                 .type = ParameterType::OptionalCount,
                 .min = 1,
                 .max = 1e12,
                 .formMin = 1,
                 .formMax = 2000000000,
                 .checkText = "N is public:",
                 .checkToolTip =
                     "Check only if the number of training rows N is public knowledge (e.g. fixed by the study's "
                     "design). N sets q = S/N and the number of steps. Checked: the guarantee is add/remove one row, "
                     "with this N for any neighbouring dataset. Unchecked: N is the training rows, which are private, "
                     "and the guarantee is replace-one at that fixed count (more noise for the same ε).",
                 .get = [](const MechanismSpec& s) -> ParameterValue { return s.sgd.publicRows; },
                 .set = [](MechanismSpec& s, const ParameterValue& v) { s.sgd.publicRows = integer(v); }},
                {.key = "precision",
                 .flag = "--precision",
                 .help = "Arithmetic of the hidden layer's two large products on dense rows: auto (single from "
                         "262,144 weights, as MNIST's 785 x 1000), single, double. Norms, clip factors, noise and "
                         "updates are double in every case; single clips with a margin covering its rounding",
                 .label = "Precision",
                 .toolTip = "The hidden layer's large products in single precision (about twice as fast) or double. "
                            "Per-example norms, clip factors, noise and the update are double either way; single "
                            "precision clips to C/(1 + 2⁻²⁰) so that rounding cannot push a gradient past C.",
                 .type = ParameterType::Choice,
                 .choices = choices(sgdPrecisionNames(), {"Auto", "Single", "Double"}),
                 .get = [](const MechanismSpec& s) -> ParameterValue {
                     return std::string(optionName(sgdPrecisionNames(), s.sgd.precision));
                 },
                 .set =
                     [](MechanismSpec& s, const ParameterValue& v) {
                         s.sgd.precision = parseOptionName(sgdPrecisionNames(), name(v), "precision");
                     },
                 .shown = hasHiddenLayer},
            },
        .derived =
            {
                {.key = "sensitivity",
                 .after = "clip_mode",
                 .value = [](const MechanismSpec& s) -> ParameterValue { return s.sgd.sensitivity(); }},
                {.key = "adjacency",
                 .after = "public_rows",
                 .value = [](const MechanismSpec& s) -> ParameterValue {
                     return std::string(s.sgd.publicRows > 0
                                            ? "add/remove one row (N declared public)"
                                            : "replace one row (N = the training rows, not declared public)");
                 }},
            },
        .validate = validateSgd,
    };
    return schema;
}

} // namespace elab::core
