#pragma once
// What the Data tab and `epsilonlab-cli info` show about a dataset.

#include "core/data/dataset.h"

#include <string>
#include <vector>

namespace elab::core {

struct ClassBalance {
    std::string name;
    Index count = 0;
};

struct Histogram {
    double lo = 0.0;
    double hi = 0.0;
    std::vector<Index> counts; ///< equal-width bins over [lo, hi]
};

struct DatasetSummary {
    Index rows = 0;
    Index features = 0;
    bool sparse = false;
    std::size_t storedEntries = 0;
    double density = 0.0; ///< stored / (rows·features)
    TaskKind task = TaskKind::Binary;
    std::vector<ClassBalance> classes;                         ///< classification
    double targetMin = 0.0, targetMax = 0.0, targetMean = 0.0; ///< regression
    double normMin = 0.0, normMax = 0.0, normMean = 0.0, normMedian = 0.0;
    Index rowsAboveUnitNorm = 0; ///< rows a clip would change
    Histogram normHistogram;
    std::size_t missingCells = 0; ///< sum over columns
};

DatasetSummary summarize(const Dataset& data, int histogramBins = 30);

} // namespace elab::core
