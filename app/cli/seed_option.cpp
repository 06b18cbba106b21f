#include "app/cli/seed_option.h"

#include <random>

namespace elab::app {

void SeedOption::addTo(CLI::App& command, const std::string& what) {
    auto* seedOption = command.add_option("--seed", seed, "Seed of " + what + " (reproducible: written to the output)");
    command
        .add_flag("--secret-seed", secret,
                  "Private release: draw the seed from the operating system's entropy and write it nowhere "
                  "(the guarantee then holds for this output itself)")
        ->excludes(seedOption);
}

std::uint64_t SeedOption::value() const {
    if (!secret)
        return seed;
    if (!m_drawn) {
        std::random_device entropy;
        m_drawn = (static_cast<std::uint64_t>(entropy()) << 32) ^ static_cast<std::uint64_t>(entropy());
    }
    return *m_drawn;
}

nlohmann::ordered_json SeedOption::json() const {
    return secret ? nlohmann::ordered_json() : nlohmann::ordered_json(seed);
}

} // namespace elab::app
