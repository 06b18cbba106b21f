#pragma once
// A mechanism's own parameters (beyond ε, δ, the loss and Λ) described once, in the mechanism's
// folder, and reached through its catalog entry (MechanismInfo::parameters): the command line's
// options, the GUI's form, the session block and the reports' block are all built from this
// description, so none of them names a parameter of one mechanism (docs/developer.md, "Adding a
// mechanism"). Each field reads and writes its value in a MechanismSpec through get and set.

#include "core/learner/mechanism.h"

#include <string>
#include <variant>
#include <vector>

namespace elab::core {

/// A parameter's value: long long (Integer, OptionalCount), double (Real) or the name of a
/// choice (Choice).
using ParameterValue = std::variant<long long, double, std::string>;

enum class ParameterType {
    Integer, ///< a whole number
    Real,    ///< a real number
    Choice,  ///< one of ParameterField::choices, by name
    /// A count that may be left undeclared (0: none). The command line takes the count (absent:
    /// none); the form shows a check box and a spin box that, unchecked, suggests the loaded
    /// data's training rows; sessions write 0 and reports null for none.
    OptionalCount,
};

/// The values the command line accepts for a number (the form's spin boxes may be narrower).
enum class ParameterBound {
    Range,       ///< min … max
    Positive,    ///< > 0
    NonNegative, ///< ≥ 0
};

struct ParameterChoice {
    std::string name;  ///< the value on the command line, in sessions and reports ("per-layer")
    std::string title; ///< the form's menu text ("Per layer")
};

struct ParameterField {
    /// The session and report key, e.g. "batch_size". The form's widgets are named after it in
    /// camel case with their kind: "batchSizeSpin", "clipModeCombo", "publicRowsCheck".
    const char* key;
    const char* flag;    ///< the command-line option, e.g. "--batch-size"
    const char* help;    ///< its --help text
    const char* label;   ///< the form's row label
    const char* toolTip; ///< the form's tool tip (of the spin box or menu)
    ParameterType type = ParameterType::Real;
    /// The command line's check of a number (not of a choice).
    ParameterBound bound = ParameterBound::Range;
    double min = 0.0, max = 0.0;            ///< Range: the accepted values (OptionalCount: when declared)
    double formMin = 0.0, formMax = 0.0;    ///< the form's spin box range (within the accepted one)
    int decimals = 2;                       ///< Real: the form's decimals; 0: an integer spin box
    double step = 1.0;                      ///< the form's spin box step
    const char* specialValueText = "";      ///< the form's text for formMin ("none (linear)"), if any
    std::vector<ParameterChoice> choices{}; ///< Choice: in menu order
    const char* checkText = "";             ///< OptionalCount: the form's check box ("N is public:")
    const char* checkToolTip = "";          ///< OptionalCount: its tool tip
    ParameterValue (*get)(const MechanismSpec& spec) = nullptr;
    /// value of this field's type (a Choice: one of its names, else std::invalid_argument).
    void (*set)(MechanismSpec& spec, const ParameterValue& value) = nullptr;
    /// The form shows the row only when this holds of the spec as edited (nullptr: always).
    bool (*shown)(const MechanismSpec& spec) = nullptr;
    /// While the row is not shown the form gives the field its default (dropout without hidden units: none).
    bool defaultWhenHidden = false;
};

/// A value a report shows beside the parameters, computed from them (DP-SGD: the sensitivity).
struct DerivedParameter {
    const char* key;   ///< the report key
    const char* after; ///< the field it follows in the report
    ParameterValue (*value)(const MechanismSpec& spec) = nullptr;
};

struct ParameterSchema {
    /// The block's key in sessions and its id in the form's object name ("sgd": "sgdGroup").
    const char* id;
    const char* title; ///< the form's group title and the command line's option group ("DP-SGD")
    std::vector<ParameterField> fields;
    std::vector<DerivedParameter> derived{};
    /// "" if the block's values are valid, else why (a session's block is checked with it).
    std::string (*validate)(const MechanismSpec& spec) = nullptr;

    /// The field called key, or nullptr.
    const ParameterField* field(const std::string& key) const;
};

/// The default of field: its value in a default-constructed MechanismSpec.
ParameterValue defaultValue(const ParameterField& field);
/// The choice of field called name; throws std::invalid_argument naming the field and its
/// choices for a name that is not one of them.
const ParameterChoice& findChoice(const ParameterField& field, const std::string& name);
/// "a, b, c": the names of field's choices.
std::string choiceNames(const ParameterField& field);
/// The camel-case form of a key ("batch_size" → "batchSize"), the stem of the form's object names.
std::string camelCaseKey(const char* key);

} // namespace elab::core
