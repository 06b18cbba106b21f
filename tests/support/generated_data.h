#pragma once
// A seeded generated dataset for the tests (core/data/generators.h: blobs, moons, xor, circles).

#include "core/data/generators.h"

#include <cstdint>
#include <memory>

namespace elab::test {

/// rows rows of the generator name; noise 0.3 and seed 5 unless given.
inline std::shared_ptr<const core::Dataset> generated(const char* name, core::Index rows, int classes = 2,
                                                      double noise = 0.3, std::uint64_t seed = 5) {
    core::GeneratorOptions options;
    options.rows = rows;
    options.noise = noise;
    options.classes = classes;
    options.seed = seed;
    return std::make_shared<const core::Dataset>(core::generateDataset(name, options));
}

} // namespace elab::test
