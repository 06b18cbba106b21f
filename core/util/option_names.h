#pragma once
// One home for the option names of the core's enums (issue 10): the names the CLI accepts, the
// GUI's command line and sessions write and read. Each enum has one table; the helpers below
// turn it into "name → value", "value → name" and the list of names (for --help and checks).

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace elab::core {

template <typename E>
using OptionNames = std::vector<std::pair<E, const char*>>;

/// The value called name in table, or nullopt.
template <typename E>
std::optional<E> fromOptionName(const OptionNames<E>& table, std::string_view name) {
    for (const auto& [value, n] : table)
        if (name == n)
            return value;
    return std::nullopt;
}

/// The name of value in table ("?" if absent).
template <typename E>
const char* optionName(const OptionNames<E>& table, E value) {
    for (const auto& [v, n] : table)
        if (v == value)
            return n;
    return "?";
}

/// Every name, in table order.
template <typename E>
std::vector<std::string> optionNameList(const OptionNames<E>& table) {
    std::vector<std::string> names;
    for (const auto& entry : table)
        names.emplace_back(entry.second);
    return names;
}

/// "a, b, c": the names for messages and --help.
template <typename E>
std::string joinedOptionNames(const OptionNames<E>& table) {
    std::string text;
    for (const auto& entry : table)
        text += (text.empty() ? "" : ", ") + std::string(entry.second);
    return text;
}

/// The value called name; throws std::invalid_argument "unknown <what> '<name>' (a, b, c)".
template <typename E>
E parseOptionName(const OptionNames<E>& table, const std::string& name, const char* what) {
    if (const std::optional<E> value = fromOptionName(table, name))
        return *value;
    throw std::invalid_argument("unknown " + std::string(what) + " '" + name + "' (" + joinedOptionNames(table) + ")");
}

} // namespace elab::core
