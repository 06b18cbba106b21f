#pragma once
// --seed and --secret-seed of the commands that release private outputs (docs/MATH.md §7:
// seeds). A reproducible run (the default) uses a public seed, written to its output: anyone with
// it can regenerate the noise, so the guarantee is stated as holding for a release drawn with
// secret randomness, which this run's outputs are not. A private release (--secret-seed) draws
// its seed from the operating system's entropy and never writes it.

#include "core/privacy/composition.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace elab::app {

struct SeedOption {
    unsigned long long seed = 1;
    bool secret = false;

    /// Adds --seed (what: the streams it drives) and --secret-seed.
    void addTo(CLI::App& command, const std::string& what);
    /// The seed of this run: the given one, or one drawn from std::random_device on first use.
    std::uint64_t value() const;
    core::SeedMode mode() const { return secret ? core::SeedMode::SecretRelease : core::SeedMode::Reproducible; }
    /// The seed as written to an output: null for a private release.
    nlohmann::ordered_json json() const;
    /// g with this run's seed condition (core::withSeedMode).
    core::PrivacyGuarantee guarantee(core::PrivacyGuarantee g) const {
        return core::withSeedMode(std::move(g), mode());
    }

private:
    mutable std::optional<std::uint64_t> m_drawn;
};

} // namespace elab::app
