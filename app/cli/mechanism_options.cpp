#include "app/cli/mechanism_options.h"

#include "app/cli/split_list.h"

#include "core/mechanisms/mechanism_catalog.h"

#include <algorithm>

namespace elab::app {

namespace {

using Parameter = MechanismOptions::Parameter;

// The command line's check of a number field (CLI11's validators, typed as the field's value).
template <typename T>
CLI::Validator numberCheck(const core::ParameterField& field) {
    switch (field.bound) {
    case core::ParameterBound::Positive: return CLI::PositiveNumber;
    case core::ParameterBound::NonNegative: return CLI::NonNegativeNumber;
    case core::ParameterBound::Range: break;
    }
    return CLI::Range(static_cast<T>(field.min), static_cast<T>(field.max));
}

void addParameter(CLI::App& command, const core::ParameterField& field, const std::string& group, Parameter& p) {
    p.field = &field;
    const core::ParameterValue initial = core::defaultValue(field);
    CLI::Option* option = nullptr;
    switch (field.type) {
    case core::ParameterType::Integer:
    case core::ParameterType::OptionalCount:
        p.integer = std::get<long long>(initial);
        option = command.add_option(field.flag, p.integer, field.help)->check(numberCheck<long long>(field));
        break;
    case core::ParameterType::Real:
        p.real = std::get<double>(initial);
        option = command.add_option(field.flag, p.real, field.help)->check(numberCheck<double>(field));
        break;
    case core::ParameterType::Choice: {
        p.name = std::get<std::string>(initial);
        std::vector<std::string> names;
        for (const core::ParameterChoice& c : field.choices)
            names.push_back(c.name);
        option = command.add_option(field.flag, p.name, field.help)->check(CLI::IsMember(names));
        break;
    }
    }
    option->group(group);
}

core::ParameterValue valueOf(const Parameter& p) {
    switch (p.field->type) {
    case core::ParameterType::Integer:
    case core::ParameterType::OptionalCount: return p.integer;
    case core::ParameterType::Real: return p.real;
    case core::ParameterType::Choice: break;
    }
    return p.name;
}

nlohmann::ordered_json reportValue(const core::ParameterField* field, const core::ParameterValue& value) {
    if (field != nullptr && field->type == core::ParameterType::OptionalCount && std::get<long long>(value) <= 0)
        return nullptr; // none declared
    return std::visit([](const auto& v) { return nlohmann::ordered_json(v); }, value);
}

// Each name of a comma list is a catalog name; the first that is not is named.
CLI::Validator mechanismList() {
    const std::vector<std::string> known = core::optionNameList(core::mechanismKindNames());
    return CLI::Validator(
        [known](std::string& text) -> std::string {
            const std::vector<std::string> names = splitList(text);
            if (names.empty())
                return "no mechanism named in '" + text + "'";
            for (const std::string& name : names)
                if (std::find(known.begin(), known.end(), name) == known.end()) {
                    std::string list;
                    for (const std::string& k : known)
                        list += (list.empty() ? "" : ", ") + k;
                    return "unknown mechanism '" + name + "' (the catalog has " + list + ")";
                }
            for (std::size_t i = 0; i < names.size(); ++i)
                for (std::size_t j = 0; j < i; ++j)
                    if (names[i] == names[j])
                        return "'" + names[i] + "' is named twice";
            return {};
        },
        "NAME[,NAME…]");
}

} // namespace

void MechanismOptions::addTo(CLI::App& command, bool list) {
    std::string described =
        list ? "Mechanism, or a comma list of mechanisms to compare on the same grid and seeds:" : "Mechanism:";
    for (const core::MechanismInfo& info : core::mechanismCatalog())
        described += std::string("\n  ") + core::toString(info.kind) + ": " + info.summary;
    CLI::Option* option = command.add_option("--mechanism", mechanism, described);
    if (list)
        option->check(mechanismList());
    else
        option->check(CLI::IsMember(core::optionNameList(core::mechanismKindNames())));
    lossOption = command.add_option("--loss", loss, "Loss (gaussian-lm: huber, its only loss)")
                     ->check(CLI::IsMember(core::optionNameList(core::lossKindNames())));
    command.add_option("--huber-width", huberWidth, "Huber SVM width h")->check(CLI::Range(1e-6, 0.999));
    command.add_option("--lambda", lambda, "Λ of L(θ) + (Λ/2n)‖θ‖² (Li et al. eq. 1)")->check(CLI::NonNegativeNumber);
    command.add_option("--delta", delta, "δ of the (ε, δ) mechanisms");
    for (const core::MechanismInfo& info : core::mechanismCatalog())
        if (info.parameters != nullptr)
            for (const core::ParameterField& field : info.parameters->fields)
                addParameter(command, field,
                             std::string(info.parameters->title) + " (--mechanism " + core::toString(info.kind) + ")",
                             parameters.emplace_back());
}

std::vector<std::string> MechanismOptions::names() const { return splitList(mechanism); }

MechanismOptions MechanismOptions::with(const std::string& name) const {
    MechanismOptions one = *this;
    one.mechanism = name;
    return one;
}

core::MechanismSpec MechanismOptions::spec() const {
    core::MechanismSpec spec;
    spec.kind = core::mechanismKindFromString(mechanism);
    const auto required = core::mechanismInfo(spec.kind).requiredLoss;
    const bool lossGiven = lossOption != nullptr && lossOption->count() > 0;
    spec.model.loss = core::Loss(required && !lossGiven ? *required : core::lossKindFromString(loss), huberWidth);
    spec.model.lambda = lambda;
    spec.privacy.delta = delta;
    for (const Parameter& p : parameters)
        p.field->set(spec, valueOf(p));
    return spec;
}

nlohmann::ordered_json MechanismOptions::parametersJson() const {
    const core::MechanismSpec s = spec();
    const core::ParameterSchema* schema = core::mechanismInfo(s.kind).parameters;
    if (schema == nullptr)
        return nullptr;
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    for (const core::ParameterField& field : schema->fields) {
        j[field.key] = reportValue(&field, field.get(s));
        for (const core::DerivedParameter& d : schema->derived)
            if (std::string(d.after) == field.key)
                j[d.key] = reportValue(nullptr, d.value(s));
    }
    return j;
}

} // namespace elab::app
