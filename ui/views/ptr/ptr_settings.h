#pragma once
// What the Private dropout (PTR) teaching view is set to (issue 14; docs/MATH.md §3.5, Jain et al.
// Algorithm 2): where the loaded dataset's features are binarised (a public threshold), δ, the
// slider's ε, how many runs of the test the pass fraction is measured on, and the seed. Its
// session block is "ptr". No Qt types.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace elab::ui {

struct Session;

struct PtrSettings {
    double binariseAt = 0.0; ///< x > binariseAt counts as 1 (public, chosen without the data)
    double delta = 1e-5;
    double currentEps = 1.0; ///< the test's ε; the procedure is (2ε, δ)-DP
    int runs = 2000;         ///< runs of the test for the measured pass fraction
    std::uint64_t seed = 1;

    static constexpr int kMaxRuns = 1000000;

    std::string validate() const;
    bool operator==(const PtrSettings&) const = default;
};

namespace detail {
nlohmann::ordered_json toJson(const PtrSettings& s);
/// Throws std::runtime_error naming the field ("ptr.delta: …").
PtrSettings ptrSettingsFromJson(const nlohmann::json& j);
} // namespace detail

std::optional<PtrSettings> ptrSettingsOf(const Session& session);
void storePtrSettings(Session& session, const PtrSettings& settings);

} // namespace elab::ui
