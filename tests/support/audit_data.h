#pragma once
// The data the audit's tests and benchmark share (issue 14): rows of two moons plus one feature
// no row uses (as a rare one-hot level would be), prepared as the views prepare data (rows
// clipped, intercept). The default canary goes to the unused feature, where only the noise
// hides it — the setting in which a single-canary audit has power (docs/audit.md).

#include "core/data/generators.h"
#include "core/data/preprocess.h"

#include <string>

namespace elab::test {

/// Moons plus `empty` features no row uses ("rare0", "rare1", …), rows clipped, intercept: the
/// canaries of the one-run and white-box audits go to the empty columns.
inline core::Dataset moonsWithEmptyColumns(core::Index rows, core::Index empty) {
    core::GeneratorOptions options;
    options.rows = rows;
    options.seed = 5;
    const core::Dataset moons = core::generateDataset("moons", options);
    core::Dataset d = moons;
    core::DenseMatrix X = core::DenseMatrix::Zero(rows, 2 + empty);
    X.leftCols(2) = moons.features.dense();
    d.features = core::FeatureMatrix(std::move(X));
    d.featureNames = {"x1", "x2"};
    for (core::Index j = 0; j < empty; ++j)
        d.featureNames.push_back("rare" + std::to_string(j));
    core::PreprocessOptions p;
    p.intercept = true;
    core::preprocess(d, nullptr, p);
    return d;
}

/// One unused feature, named "rare".
inline core::Dataset moonsWithRareFeature(core::Index rows = 100) {
    core::Dataset d = moonsWithEmptyColumns(rows, 1);
    d.featureNames[2] = "rare";
    return d;
}

/// The worst case for a single-row audit of the linear mechanisms: one feature, no intercept,
/// every row 0 except the last, x = 1 labelled "pos"; class labels alternate. With the Huber
/// loss and a large Λ, replacing that last row by itself labelled against the model (the audit's
/// canaryRow = rows − 1) moves the minimiser by exactly the mechanisms' sensitivity 2/(nΛ) — the
/// loss is linear with slope 1 at the tiny margins involved, and no other row has a gradient — and
/// the noise is one-dimensional: the pair on which the privacy loss reaches the claim.
inline core::Dataset worstCasePair(core::Index rows) {
    core::Dataset d;
    d.name = "worst-case pair";
    core::DenseMatrix X = core::DenseMatrix::Zero(rows, 1);
    X(rows - 1, 0) = 1.0;
    d.features = core::FeatureMatrix(std::move(X));
    d.featureNames = {"x"};
    Eigen::VectorXi cls(rows);
    for (core::Index i = 0; i < rows; ++i)
        cls[i] = static_cast<int>(i % 2);
    cls[rows - 1] = 1;
    d.targets = core::Targets::classification(std::move(cls), {"neg", "pos"});
    return d;
}

} // namespace elab::test
