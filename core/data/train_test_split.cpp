// splitTrainTest (core/data/preprocess.h): the stratified held-out split.

#include "core/data/preprocess.h"

#include "core/data/processing_log.h"
#include "core/util/format_number.h"
#include "core/util/random.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace elab::core {

namespace {

// Stream tag of the split, so a split seed never reuses a mechanism's (seed, grid, rep) stream.
constexpr std::uint64_t kSplitStream = 0x73706C6974ULL; // "split"

// Test rows put in test for a class (or a regression set) of n rows: round(f·n), half
// away from zero, then kept in [1, n − 1] so both sides get a row; a lone row trains.
Index testRowCount(std::size_t rows, double fraction) {
    const auto n = static_cast<Index>(rows);
    if (n < 2)
        return 0;
    const auto k = static_cast<Index>(std::floor(fraction * double(n) + 0.5));
    return std::clamp<Index>(k, 1, n - 1);
}

void takeSplit(std::vector<Index>& rows, Index nTest, std::vector<Index>& train,
               std::vector<Index>& test) {
    test.insert(test.end(), rows.begin(), rows.begin() + nTest);
    train.insert(train.end(), rows.begin() + nTest, rows.end());
}

} // namespace

TrainTestSplit splitTrainTest(const Dataset& data, double testFraction, std::uint64_t seed) {
    if (!(testFraction > 0.0 && testFraction < 1.0))
        throw std::invalid_argument("test fraction must be in (0, 1), got " + formatNumber(testFraction));
    if (const std::string problem = data.validate(); !problem.empty())
        throw std::invalid_argument("cannot split an invalid dataset: " + problem);
    std::vector<Index> train, test;
    std::string detail;
    const Targets& t = data.targets;
    if (t.isClassification()) {
        std::vector<std::vector<Index>> byClass(static_cast<std::size_t>(t.classCount()));
        for (Index i = 0; i < t.size(); ++i)
            byClass[static_cast<std::size_t>(t.classIndex[i])].push_back(i);
        std::string perClass;
        for (std::size_t c = 0; c < byClass.size(); ++c) {
            Rng rng(deriveSeed(seed, kSplitStream, c));
            shuffleInPlace(byClass[c], rng);
            const Index nTest = testRowCount(byClass[c].size(), testFraction);
            takeSplit(byClass[c], nTest, train, test);
            perClass += (c ? ", " : "") + t.classNames[c] + " " + std::to_string(nTest) + "/" +
                        std::to_string(byClass[c].size());
        }
        detail = "stratified by class (test/all per class: " + perClass + ")";
    } else {
        std::vector<Index> rows(static_cast<std::size_t>(data.rows()));
        for (std::size_t i = 0; i < rows.size(); ++i)
            rows[i] = static_cast<Index>(i);
        Rng rng(deriveSeed(seed, kSplitStream));
        shuffleInPlace(rows, rng);
        takeSplit(rows, testRowCount(rows.size(), testFraction), train, test);
        detail = "random (regression target, not stratified)";
    }
    if (train.empty() || test.empty())
        throw std::invalid_argument(
            "splitting " + std::to_string(data.rows()) + " rows with test fraction " + formatNumber(testFraction) +
            " leaves the " + (train.empty() ? "training" : "test") + " set empty");
    std::sort(train.begin(), train.end());
    std::sort(test.begin(), test.end());
    TrainTestSplit out{data.selectRows(train), data.selectRows(test)};
    const ProcessingStep step{"split",
                              std::to_string(static_cast<Index>(train.size())) + " train / " +
                                  std::to_string(static_cast<Index>(test.size())) +
                                  " test rows, test fraction " + formatNumber(testFraction) + ", seed " +
                                  std::to_string(seed) + ", " + detail,
                              false};
    detail::appendStep(out.train, &out.test, step);
    return out;
}

} // namespace elab::core
