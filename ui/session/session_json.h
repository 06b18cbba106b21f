#pragma once
// JSON of sessions and export sidecars, and the field readers every view's settings block
// uses (ui/views/<id>/<id>_settings_json.cpp). Internal to the ui layer.

#include "ui/session/session.h"

#include "core/data/preprocess.h"
#include "core/learner/mechanism.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace elab::ui::detail {

using Json = nlohmann::json;
using Ordered = nlohmann::ordered_json;

// Reading a settings block: every problem throws std::runtime_error naming the field
// ("utility.repeats: expected an integer"), so that a bad file says where it is wrong.

[[noreturn]] inline void fail(const std::string& field, const std::string& what) {
    throw std::runtime_error(field + ": " + what);
}

inline const Json& member(const Json& j, const std::string& path, const char* key) {
    if (!j.is_object())
        fail(path, "expected an object");
    const auto it = j.find(key);
    if (it == j.end())
        fail(path.empty() ? key : path + "." + key, "missing");
    return *it;
}

template <typename T>
T value(const Json& j, const std::string& path, const char* key) {
    const Json& v = member(j, path, key);
    const std::string field = path + "." + key;
    try {
        if constexpr (std::is_same_v<T, double>) {
            if (!v.is_number())
                fail(field, "expected a number");
        } else if constexpr (std::is_same_v<T, bool>) {
            if (!v.is_boolean())
                fail(field, "expected true or false");
        } else if constexpr (std::is_integral_v<T>) {
            if (!v.is_number_integer())
                fail(field, "expected an integer");
        } else {
            if (!v.is_string())
                fail(field, "expected a string");
        }
        return v.get<T>();
    } catch (const nlohmann::json::exception& e) {
        fail(field, e.what());
    }
}

/// ε as JSON: a number, or "inf" for the non-private stop (JSON has no infinity).
inline Ordered epsJson(double eps) { return std::isinf(eps) ? Ordered("inf") : Ordered(eps); }

template <typename F>
auto parseName(const std::string& field, const std::string& name, F parse) {
    try {
        return parse(name);
    } catch (const std::exception&) {
        fail(field, "unknown value '" + name + "'");
    }
}

/// The value of an option-name table called name; else fails naming field and the names.
template <typename E>
E parseOption(const core::OptionNames<E>& names, const std::string& field, const std::string& name) {
    if (const auto v = core::fromOptionName(names, name))
        return *v;
    fail(field, "unknown value '" + name + "' (" + core::joinedOptionNames(names) + ")");
}

// The blocks several views' settings share, written and read the same way everywhere:
// {"norm", "standardise", "intercept", "positive_class"} and
// {"kind", "loss", "huber_width", "temperature", "lambda", "delta"}; path names the block.
Ordered preprocessJson(const core::PreprocessOptions& p);
core::PreprocessOptions preprocessFromJson(const Json& j, const std::string& path);
Ordered mechanismJson(const core::MechanismSpec& m);
core::MechanismSpec mechanismFromJson(const Json& j, const std::string& path);

nlohmann::ordered_json sessionJson(const Session& session);

/// The start of an export's "export" block: {"figure": file name, "created_utc": now}.
nlohmann::ordered_json exportHeader(const QString& figureFile);

/// NaN and ∞ are not JSON numbers: null.
nlohmann::ordered_json jsonNumber(double v);

} // namespace elab::ui::detail
