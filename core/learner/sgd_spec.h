#pragma once
// The settings of DP-SGD (docs/MATH.md §3.6; issue 12): the model (softmax-linear, or one ReLU
// hidden layer of H units), the schedule (epochs, expected batch size S → q = S/N, learning rate
// η_t = η₀/t^γ with t the epoch, 1-based), clipping (total, or per layer as the paper does),
// dropout on the hidden units (the paper's DPD: Gaussian; or Bernoulli), and the accountant that
// turns (σ, q, T, δ) into ε. Part of MechanismSpec for the `dpsgd` mechanism.

#include "core/privacy/accountant.h"
#include "core/util/option_names.h"

#include <string>

namespace elab::core {

enum class ClipMode { Total, PerLayer };
enum class DropoutKind { None, Bernoulli, Gaussian };
/// The arithmetic of the hidden layer's two large products (forward and clipped sum) on dense rows:
/// single precision (float products, everything that must stay exact in double; docs/MATH.md
/// §3.6, clipping in finite precision), double, or single from SgdSpec::kSingleFromWeights input × hidden
/// weights on (Auto). Everything else is computed in double in every case.
enum class SgdPrecision { Auto, Single, Double };

const OptionNames<ClipMode>& clipModeNames();         ///< "total", "per-layer"
const OptionNames<DropoutKind>& dropoutKindNames();   ///< "none", "bernoulli", "gaussian"
const OptionNames<SgdPrecision>& sgdPrecisionNames(); ///< "auto", "single", "double"

struct SgdSpec {
    int hidden = 16;         ///< H ≥ 0 hidden ReLU units; 0: the softmax-linear model
    int epochs = 20;         ///< passes of ⌈1/q⌉ steps each
    double batchSize = 64.0; ///< expected batch size S (Poisson sampling at q = S/N)
    double clip = 1.0;       ///< C: the clip norm (Total), or each layer's C_l (PerLayer)
    ClipMode clipMode = ClipMode::Total;
    double learningRate = 0.2; ///< η₀ (rows have ‖x‖ ≤ 1, so gradients are small)
    double gamma = 0.0;        ///< η_t = η₀/t^γ, t = epoch (1-based); the paper: γ = 1
    DropoutKind dropout = DropoutKind::None;
    double dropoutRate = 0.5; ///< Bernoulli: the drop probability p; Gaussian: noise variance p/(1−p)
    double weightDecay = 0.0; ///< L2 coefficient added to the mean gradient (data-independent)
    /// PLD: it proves the least ε for a σ (hence the least noise for an ε) of the proven accountants.
    AccountantKind accountant = AccountantKind::Pld;
    int threads = 0; ///< inside one run (0: all cores); results do not depend on it
    /// N of q = S/N and of the step count, declared public by the user (--public-rows, the GUI's
    /// "N is public"); 0: none declared, N is the training set's own row count. The add/remove
    /// guarantee holds for a fixed q and step count, i.e. with N public: a neighbour with one row
    /// more or less is trained with the same N. Without it the guarantee is replace-one at the
    /// fixed |D| (docs/MATH.md §3.6, D14).
    long long publicRows = 0;
    SgdPrecision precision = SgdPrecision::Auto;
    /// Auto: single precision from this many weights in the hidden layer (p·H: MNIST's 785 × 1000
    /// is past it, DIGITS' 65 × 500 is not — there the products are not what takes the time).
    static constexpr long long kSingleFromWeights = 1 << 18;

    bool operator==(const SgdSpec&) const = default;

    /// "" if valid; else why.
    std::string validate() const;
    /// The number of parameter groups clipped separately: 2 with a hidden layer, 1 without.
    int layers() const { return hidden > 0 ? 2 : 1; }
    /// The L2 sensitivity of the clipped sum under add/remove: C, or C·√L per layer.
    double sensitivity() const;
    /// q = S/N for N training rows (capped at 1).
    double samplingRate(long long rows) const;
    /// Steps per epoch ⌈1/q⌉ and in all.
    long long stepsPerEpoch(long long rows) const;
    long long totalSteps(long long rows) const { return stepsPerEpoch(rows) * epochs; }
    /// Whether the hidden layer's products run in single precision for `inputs` dense columns
    /// (never for a linear model or sparse rows).
    bool singlePrecision(long long inputs, bool sparseRows) const;
};

} // namespace elab::core
