#include "core/learner/parameter_schema.h"

#include <cctype>
#include <stdexcept>

namespace elab::core {

const ParameterField* ParameterSchema::field(const std::string& key) const {
    for (const ParameterField& f : fields)
        if (key == f.key)
            return &f;
    return nullptr;
}

ParameterValue defaultValue(const ParameterField& field) { return field.get(MechanismSpec{}); }

std::string choiceNames(const ParameterField& field) {
    std::string text;
    for (const ParameterChoice& c : field.choices)
        text += (text.empty() ? "" : ", ") + c.name;
    return text;
}

const ParameterChoice& findChoice(const ParameterField& field, const std::string& name) {
    for (const ParameterChoice& c : field.choices)
        if (c.name == name)
            return c;
    throw std::invalid_argument(std::string(field.key) + ": unknown value '" + name + "' (" + choiceNames(field) + ")");
}

std::string camelCaseKey(const char* key) {
    std::string name;
    bool upper = false;
    for (const char* c = key; *c != '\0'; ++c) {
        if (*c == '_') {
            upper = true;
            continue;
        }
        name += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(*c))) : *c;
        upper = false;
    }
    return name;
}

} // namespace elab::core
