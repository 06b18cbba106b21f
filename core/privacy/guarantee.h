#pragma once
// What a private release guarantees: the notion, ε and δ, the neighbouring relation, the
// assumptions and the constants used. Every mechanism's guarantee and every pipeline step's
// effect on it (core/privacy/composition.h) is stated in this one type.

#include "core/privacy/mechanism_parameter.h"

#include <string>
#include <vector>

namespace elab::core {

/// Which datasets are neighbours: one row replaced (the ERM mechanisms, the Gaussian
/// classifier) or one row added or removed (DP-SGD with Poisson sampling). The audit builds its
/// neighbours this way (core/audit/mechanism_audit.h).
enum class Adjacency { ReplaceOne, AddRemove };

/// "replace-one", "add-remove".
const char* toString(Adjacency adjacency);

struct PrivacyGuarantee {
    bool isPrivate = false;
    Adjacency adjacency = Adjacency::ReplaceOne;
    double epsilon = 0.0; ///< the ε actually guaranteed
    double delta = 0.0;   ///< 0 for pure ε-DP
    std::string notion;   ///< "(ε, δ)-DP", "ε-DP" or "none"
    std::string source;   ///< paper and theorem
    std::vector<std::string> assumptions;
    std::vector<std::string> notes;             ///< branch taken, validity ranges
    std::string branch;                         ///< which branch a branching mechanism took ("" if none)
    std::vector<MechanismParameter> parameters; ///< the constants used (one-vs-rest: each model's, at ε/K)
    /// Pipeline steps that read the private data outside a mechanism (core/privacy/composition.h):
    /// non-empty only when they turned the guarantee off (isPrivate false, ε = ∞).
    std::vector<std::string> assumptionsNotMet;
    /// The mechanism itself was broken on purpose (the audit's teaching mode): its claim is false.
    bool brokenOnPurpose = false;
    /// Conditions on the release, not on the data: the seed's mode, what a composite output is.
    std::vector<std::string> conditions;
    /// True when a mechanism's guarantee was voided by the pipeline (not a non-private mechanism).
    bool voided() const { return !isPrivate && !assumptionsNotMet.empty(); }

    /// The parameter called name, or NaN.
    double parameter(const std::string& name) const;
};

} // namespace elab::core
