#pragma once
// Seeded 2-D teaching sets. Same seed → same data on every platform (own samplers, no
// std::*_distribution).

#include "core/data/dataset.h"

#include <cstdint>
#include <string>

namespace elab::core {

struct GeneratorOptions {
    Index rows = 400;
    double noise = 0.1;        ///< Gaussian jitter (standard deviation)
    int classes = 3;           ///< blobs only; moons, XOR and circles are binary
    std::uint64_t seed = 1;
};

/// name ∈ {"blobs", "moons", "xor", "circles"}; throws std::invalid_argument otherwise.
Dataset generateDataset(const std::string& name, const GeneratorOptions& options);
bool isGeneratorName(const std::string& name);

} // namespace elab::core
