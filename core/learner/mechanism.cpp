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

bool sameMechanism(const MechanismSpec& a, const MechanismSpec& b) {
    const Loss& la = a.model.loss;
    const Loss& lb = b.model.loss;
    return a.kind == b.kind && la.kind() == lb.kind() && la.huberWidth() == lb.huberWidth() &&
           la.temperature() == lb.temperature() && a.model.lambda == b.model.lambda &&
           a.privacy.delta == b.privacy.delta && a.sgd == b.sgd;
}

} // namespace elab::core
