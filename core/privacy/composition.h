#pragma once
// Basic sequential composition of a model's guarantee with the ε its data preparation spent
// on the same training rows (privately estimated bounds, core/data/private_bounds.h): an
// (ε, δ)-DP model of ε_b-DP-prepared data is (ε + ε_b, δ)-DP (Dwork & Roth 2014, Thm 3.16).

#include "core/privacy/mechanism.h"
#include "core/util/format_number.h"

namespace elab::core {

/// g with preparationEpsilon added to its ε, a note saying so and the parameter "eps_prep";
/// g unchanged when preparationEpsilon is 0 or g is not private.
inline PrivacyGuarantee withPreparationCost(PrivacyGuarantee g, double preparationEpsilon) {
    if (!g.isPrivate || !(preparationEpsilon > 0.0))
        return g;
    const double model = g.epsilon;
    g.epsilon = model + preparationEpsilon;
    g.notes.push_back("ε = " + formatNumber(model) + " for the model + " + formatNumber(preparationEpsilon) +
                      " spent on privately estimated bounds (basic composition)");
    g.parameters.push_back({"eps_prep", "ε_prep", preparationEpsilon});
    return g;
}

} // namespace elab::core
