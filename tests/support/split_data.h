#pragma once
// A data file and an unstable split that the pipeline audit's test and the audit power benchmark
// share (docs/audit.md, "Auditing the whole pipeline"): a split whose test rows depend on the
// label counts moves most rows when one label flips.

#include "core/data/data_preparation.h"
#include "core/util/random.h"

#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace elab::test {

// n rows "a,b,label": the first 30 % (a, b) = (1, 0) labelled yes, the last 30 % (0, 1) labelled
// no, the middle random points labelled by a + b > 1 with 10 % flipped. A split that swaps the
// first and the last 30 % changes the model a lot; one row changes it little.
inline std::string segmentsCsv(int n, std::uint64_t seed) {
    core::Rng rng(seed);
    std::ostringstream o;
    o << "a,b,label\n";
    for (int i = 0; i < n; ++i) {
        double a = 0.0, b = 0.0;
        bool yes = false;
        if (i < 3 * n / 10) {
            a = 1.0;
            yes = true;
        } else if (i >= n - 3 * n / 10) {
            b = 1.0;
        } else {
            a = core::uniform01(rng);
            b = core::uniform01(rng);
            yes = (a + b > 1.0) != (core::uniform01(rng) < 0.1);
        }
        o << a << ',' << b << ',' << (yes ? "yes" : "no") << '\n';
    }
    return o.str();
}

// A split whose test rows depend on the label counts (the first 30 % of the rows when the
// positive class has an even count, the last 30 % otherwise): one label flipped moves most rows.
inline core::PreparedData labelCountSplit(core::Dataset train, std::optional<core::Dataset> test,
                                          const core::DataPreparation& preparation, std::uint64_t seed) {
    (void)test;
    const core::Index n = train.rows();
    core::Index positives = 0;
    for (core::Index i = 0; i < n; ++i)
        positives += train.targets.classIndex[i] == 1 ? 1 : 0;
    const core::Index k = static_cast<core::Index>(0.3 * static_cast<double>(n));
    std::vector<core::Index> trainRows, testRows;
    for (core::Index i = 0; i < n; ++i) {
        const bool held = positives % 2 == 0 ? i < k : i >= n - k;
        (held ? testRows : trainRows).push_back(i);
    }
    core::DataPreparation rest = preparation;
    rest.testFraction = 0.0;
    return core::prepareExperimentData(train.selectRows(trainRows), train.selectRows(testRows), rest, seed);
}

} // namespace elab::test
