// splitTrainTest (core/data/preprocess.h): the held-out split by per-row coins (docs/MATH.md §7).
//
// Each row goes to the test set by its own coin, drawn from (seed, the row's own content: its
// features and its label). Changing, adding or removing one row therefore moves no other row
// between the sets, wherever the row sits in the file: the split is stable, so a mechanism's
// guarantee on the training rows is a guarantee on the file. (A per-class shuffle, or a shuffle
// of a fixed-size index list, is not: one flipped label moved hundreds of rows.) Identical rows
// share their coin, which changes nothing for stability.

#include "core/data/preprocess.h"

#include "core/data/processing_log.h"
#include "core/util/format_number.h"
#include "core/util/random.h"

#include <bit>
#include <cmath>
#include <stdexcept>

namespace elab::core {

namespace {

// Stream tag of the split, so a split seed never reuses a mechanism's (seed, grid, rep) stream.
constexpr std::uint64_t kSplitStream = 0x73706C6974ULL; // "split"

std::uint64_t mixValue(std::uint64_t h, std::uint64_t column, double value) {
    // +0.0 and −0.0 are the same feature value.
    const double v = value == 0.0 ? 0.0 : value;
    return splitMix64(h ^ splitMix64(std::bit_cast<std::uint64_t>(v) + 0x9E3779B97F4A7C15ULL * (column + 1)));
}

std::uint64_t mixText(std::uint64_t h, const std::string& text) {
    for (const char c : text)
        h = splitMix64(h ^ static_cast<unsigned char>(c));
    return splitMix64(h ^ text.size());
}

} // namespace

std::vector<std::uint64_t> rowContentHashes(const Dataset& data, std::uint64_t seed) {
    const Index n = data.rows();
    const std::uint64_t base = deriveSeed(seed, kSplitStream);
    std::vector<std::uint64_t> h(static_cast<std::size_t>(n), base);
    const FeatureMatrix& X = data.features;
    if (X.isSparse()) {
        const CsrRows rows = X.csrRows();
        for (Index i = 0; i < n; ++i) {
            std::uint64_t& hi = h[static_cast<std::size_t>(i)];
            rows.forEachEntry(i, [&](int column, double value) {
                if (value != 0.0) // a stored zero is the same row as an absent entry
                    hi = mixValue(hi, static_cast<std::uint64_t>(column), value);
            });
        }
    } else {
        const DenseRows rows = X.denseRows();
        std::vector<double> factor(static_cast<std::size_t>(n));
        for (Index i = 0; i < n; ++i)
            factor[static_cast<std::size_t>(i)] = rows.factor(i);
        // Column by column (the storage order); each row's values still mix in column order.
        for (Index j = 0; j < rows.cols; ++j)
            for (Index i = 0; i < n; ++i)
                if (const double v = rows.unscaled(i, j) * factor[static_cast<std::size_t>(i)]; v != 0.0)
                    h[static_cast<std::size_t>(i)] =
                        mixValue(h[static_cast<std::size_t>(i)], static_cast<std::uint64_t>(j), v);
    }
    const Targets& t = data.targets;
    for (Index i = 0; i < n; ++i) {
        std::uint64_t& hi = h[static_cast<std::size_t>(i)];
        // The label by its name, not its index in a class list that other rows determine.
        hi = t.isClassification()
                 ? mixText(hi ^ 0x6C6162656CULL, t.classNames[static_cast<std::size_t>(t.classIndex[i])])
                 : mixValue(hi ^ 0x6C6162656CULL, 0, t.values[i]);
    }
    return h;
}

TrainTestSplit splitTrainTest(const Dataset& data, double testFraction, std::uint64_t seed) {
    if (!(testFraction > 0.0 && testFraction < 1.0))
        throw std::invalid_argument("test fraction must be in (0, 1), got " + formatNumber(testFraction));
    if (const std::string problem = data.validate(); !problem.empty())
        throw std::invalid_argument("cannot split an invalid dataset: " + problem);
    std::vector<Index> train, test;
    const std::vector<std::uint64_t> hashes = rowContentHashes(data, seed);
    for (Index i = 0; i < data.rows(); ++i) {
        const double u = static_cast<double>(hashes[static_cast<std::size_t>(i)] >> 11) * 0x1.0p-53; // [0, 1)
        (u < testFraction ? test : train).push_back(i);
    }
    if (train.empty() || test.empty())
        throw std::invalid_argument("splitting " + std::to_string(data.rows()) + " rows with test fraction " +
                                    formatNumber(testFraction) + " leaves the " +
                                    (train.empty() ? "training" : "test") +
                                    " set empty (each row is drawn to the test set "
                                    "by its own coin; use more rows or another test fraction)");
    TrainTestSplit out{data.selectRows(train), data.selectRows(test)};
    const ProcessingStep step{"split",
                              std::to_string(static_cast<Index>(train.size())) + " train / " +
                                  std::to_string(static_cast<Index>(test.size())) + " test rows, test fraction " +
                                  formatNumber(testFraction) + ", seed " + std::to_string(seed) +
                                  ", each row by its own coin from the seed and its content (one row's change "
                                  "moves no other row)",
                              false};
    detail::appendStep(out.train, &out.test, step);
    return out;
}

} // namespace elab::core
