#include "core/learner/mechanism.h"

#include <cmath>

namespace elab::core {

const OptionNames<MechanismKind>& mechanismKindNames() {
    static const OptionNames<MechanismKind> names{{MechanismKind::NonPrivate, "nonprivate"},
                                                  {MechanismKind::ObjPertGauss, "objpert-gauss"},
                                                  {MechanismKind::ObjPertPure, "objpert-pure"},
                                                  {MechanismKind::OutPertPure, "outpert-pure"},
                                                  {MechanismKind::OutPertGauss, "outpert-gauss"},
                                                  {MechanismKind::GaussianLm, "gaussian-lm"},
                                                  {MechanismKind::Dpsgd, "dpsgd"}};
    return names;
}

const char* toString(MechanismKind value) { return optionName(mechanismKindNames(), value); }

MechanismKind mechanismKindFromString(const std::string& name) {
    return parseOptionName(mechanismKindNames(), name, "mechanism");
}

std::string ModelSpec::validate() const {
    if (std::string e = loss.validate(); !e.empty())
        return e;
    if (!(lambda >= 0.0) || !std::isfinite(lambda))
        return "Λ must be a finite number ≥ 0";
    return {};
}

bool MechanismSpec::usesDelta() const {
    return kind == MechanismKind::ObjPertGauss || kind == MechanismKind::OutPertGauss || kind == MechanismKind::Dpsgd;
}

bool sameMechanism(const MechanismSpec& a, const MechanismSpec& b) {
    const Loss& la = a.model.loss;
    const Loss& lb = b.model.loss;
    return a.kind == b.kind && la.kind() == lb.kind() && la.huberWidth() == lb.huberWidth() &&
           la.temperature() == lb.temperature() && a.model.lambda == b.model.lambda &&
           a.privacy.delta == b.privacy.delta && a.sgd == b.sgd;
}

std::string MechanismSpec::validate() const {
    if (std::string e = model.validate(); !e.empty())
        return e;
    if (kind == MechanismKind::NonPrivate)
        return {};
    if (kind == MechanismKind::Dpsgd) {
        if (!(privacy.delta > 0.0 && privacy.delta < 1.0))
            return "δ must be in (0, 1)";
        return sgd.validate();
    }
    if (!model.loss.isMargin())
        return "the private mechanisms need a bounded loss gradient ζ; squared loss has none "
               "without a label bound, so use a margin loss (logistic, huber, smooth-hinge)";
    if (kind == MechanismKind::GaussianLm && model.loss.kind() != LossKind::HuberSvm)
        return "the Gaussian classifier (gaussian-lm) is trained with the Huber SVM loss of docs/MATH.md §3.4: "
               "choose the huber loss";
    if (usesDelta() && !(privacy.delta > 0.0 && privacy.delta < 1.0))
        return "δ must be in (0, 1)";
    if ((kind == MechanismKind::OutPertPure || kind == MechanismKind::OutPertGauss) && !(model.lambda > 0.0))
        return "output perturbation needs Λ > 0: its sensitivity 2ζ/(nΛ) is infinite at Λ = 0";
    return {};
}

} // namespace elab::core
