#pragma once
// The data the audit's tests and benchmark share (issue 14): rows of two moons plus one feature
// no row uses (as a rare one-hot level would be), prepared as the views prepare data (rows
// clipped, intercept). The default canary goes to the unused feature, where only the noise
// hides it — the setting in which a single-canary audit has power (docs/audit.md).

#include "core/data/generators.h"
#include "core/data/preprocess.h"

namespace elab::test {

inline core::Dataset moonsWithRareFeature(core::Index rows = 100) {
    core::GeneratorOptions options;
    options.rows = rows;
    options.seed = 5;
    const core::Dataset moons = core::generateDataset("moons", options);
    core::Dataset d = moons;
    core::DenseMatrix X = core::DenseMatrix::Zero(rows, 3);
    X.leftCols(2) = moons.features.dense();
    d.features = core::FeatureMatrix(std::move(X));
    d.featureNames = {"x1", "x2", "rare"};
    core::PreprocessOptions p;
    p.intercept = true;
    core::preprocess(d, nullptr, p);
    return d;
}

} // namespace elab::test
