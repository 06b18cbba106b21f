#include "core/learner/sgd_spec.h"

#include <algorithm>
#include <cmath>

namespace elab::core {

const OptionNames<ClipMode>& clipModeNames() {
    static const OptionNames<ClipMode> names{{ClipMode::Total, "total"}, {ClipMode::PerLayer, "per-layer"}};
    return names;
}

const OptionNames<DropoutKind>& dropoutKindNames() {
    static const OptionNames<DropoutKind> names{
        {DropoutKind::None, "none"}, {DropoutKind::Bernoulli, "bernoulli"}, {DropoutKind::Gaussian, "gaussian"}};
    return names;
}

const OptionNames<SgdPrecision>& sgdPrecisionNames() {
    static const OptionNames<SgdPrecision> names{
        {SgdPrecision::Auto, "auto"}, {SgdPrecision::Single, "single"}, {SgdPrecision::Double, "double"}};
    return names;
}

bool SgdSpec::singlePrecision(long long inputs, bool sparseRows) const {
    if (hidden <= 0 || sparseRows || precision == SgdPrecision::Double)
        return false;
    return precision == SgdPrecision::Single || inputs * static_cast<long long>(hidden) >= kSingleFromWeights;
}

std::string SgdSpec::validate() const {
    if (hidden < 0 || hidden > 100000)
        return "the hidden units H must lie in 0 … 100000 (0: a linear model)";
    if (epochs < 1 || epochs > 100000)
        return "the epochs must lie in 1 … 100000";
    if (!(batchSize >= 1.0) || !std::isfinite(batchSize))
        return "the expected batch size S must be a number ≥ 1";
    if (!(clip > 0.0) || !std::isfinite(clip))
        return "the clip norm C must be a finite number > 0";
    if (!(learningRate > 0.0) || !std::isfinite(learningRate))
        return "the learning rate η₀ must be a finite number > 0";
    if (!(gamma >= 0.0 && gamma <= 2.0))
        return "the learning-rate decay γ must lie in [0, 2]";
    if (dropout != DropoutKind::None && hidden == 0)
        return "dropout acts on hidden units: set H > 0, or no dropout";
    if (dropout != DropoutKind::None && !(dropoutRate > 0.0 && dropoutRate < 1.0))
        return "the dropout rate must lie in (0, 1)";
    if (!(weightDecay >= 0.0) || !std::isfinite(weightDecay))
        return "the weight decay must be a finite number ≥ 0";
    if (publicRows < 0)
        return "the public row count N must be ≥ 1 (or 0: none declared, N is the training rows)";
    if (threads < 0)
        return "threads must be ≥ 0 (0: all cores)";
    if (precision != SgdPrecision::Auto && precision != SgdPrecision::Single && precision != SgdPrecision::Double)
        return "unknown precision";
    return {};
}

double SgdSpec::sensitivity() const {
    return clipMode == ClipMode::PerLayer ? clip * std::sqrt(static_cast<double>(layers())) : clip;
}

double SgdSpec::samplingRate(long long rows) const {
    const long long n = publicRows > 0 ? publicRows : rows;
    return n <= 0 ? 1.0 : std::min(1.0, batchSize / static_cast<double>(n));
}

long long SgdSpec::stepsPerEpoch(long long rows) const {
    return static_cast<long long>(std::ceil(1.0 / samplingRate(rows) - 1e-9));
}

} // namespace elab::core
