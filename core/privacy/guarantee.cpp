#include "core/privacy/guarantee.h"

#include <cmath>

namespace elab::core {

const char* toString(Adjacency adjacency) { return adjacency == Adjacency::AddRemove ? "add-remove" : "replace-one"; }

double PrivacyGuarantee::parameter(const std::string& name) const {
    for (const MechanismParameter& p : parameters)
        if (p.name == name)
            return p.value;
    return NAN;
}

} // namespace elab::core
