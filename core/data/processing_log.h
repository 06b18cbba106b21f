#pragma once
// Internal to core/data: appending a ProcessingStep to the logs of a training set and its
// test set (preprocess.cpp, train_test_split.cpp).

#include "core/data/dataset.h"

#include <string>

namespace elab::core::detail {

inline void appendStep(Dataset& train, Dataset* test, const ProcessingStep& step) {
    train.log.push_back(step);
    if (test)
        test->log.push_back(step);
}

/// A step whose detail differs per set (counts of that set's own rows).
inline void appendStep(Dataset& train, Dataset* test, const ProcessingStep& trainStep, const std::string& testDetail) {
    train.log.push_back(trainStep);
    if (test)
        test->log.push_back({trainStep.name, testDetail, trainStep.leaksPrivacy, trainStep.replaceOneOnly});
}

} // namespace elab::core::detail
