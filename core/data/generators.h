#pragma once
// Seeded 2-D teaching sets, and a sparse text-like set of any size (sparse_generator.h). Same
// seed → same data on every platform (own samplers, no std::*_distribution).

#include "core/data/dataset.h"
#include "core/util/run_context.h"

#include <cstdint>
#include <string>

namespace elab::core {

struct GeneratorOptions {
    Index rows = 400;
    double noise = 0.1;    ///< Gaussian jitter (standard deviation)
    int classes = 3;       ///< blobs only; moons, XOR and circles are binary
    Index features = 1000; ///< sparse only: binary feature columns
    Index active = 14;     ///< sparse only: features on per row
    std::uint64_t seed = 1;
};

/// name ∈ {"blobs", "moons", "xor", "circles", "sparse"}; throws std::invalid_argument otherwise.
/// ctx (may be null): progress and stop, for the sets large enough to need them.
Dataset generateDataset(const std::string& name, const GeneratorOptions& options, RunContext* ctx = nullptr);
bool isGeneratorName(const std::string& name);

} // namespace elab::core
