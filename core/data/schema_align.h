#pragma once
// A test file encoded with the training file's schema (issue 13): the feature columns of the
// training set, in its order. CSV: columns and one-hot levels are matched by name — a level
// the training file never saw becomes an all-zero one-hot (its rows are counted), a level the
// test file lacks is a zero column. LIBSVM: missing trailing features are zeros and features
// beyond the training width are ignored, as LIBLINEAR's predict does (counted). Class labels
// are matched by name. What changed is logged on the test set.

#include "core/data/dataset.h"

namespace elab::core {

struct SchemaAlignment {
    bool changed = false;      ///< false: the test set already had the training schema
    Index unseenLevelRows = 0; ///< test rows with at least one level the training file lacks
    std::string unseenLevels;  ///< "workclass=Never-worked (3 rows), …" (first few)
    Index paddedFeatures = 0;  ///< training features the test file lacks (zeros)
    Index droppedFeatures = 0; ///< test features beyond the training schema (ignored)
    Index droppedValues = 0;   ///< their non-zero values
};

/// Re-encodes test in train's feature space and class order. Throws std::invalid_argument
/// naming the formats when they differ, a training column the test file lacks, a column
/// numeric in one file and categorical in the other, a test class the training file lacks,
/// or a regression target against class labels.
SchemaAlignment alignToTrainingSchema(const Dataset& train, Dataset& test);

} // namespace elab::core
