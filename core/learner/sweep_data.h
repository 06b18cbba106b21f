#pragma once
// The data an ε-sweep or an ε search trains and measures on, referenced (not copied).

#include "core/data/dataset.h"
#include "core/model/labels.h"
#include "core/privacy/composition.h"

#include <Eigen/Core>

#include <optional>

namespace elab::core {

/// Training data and, for test metrics, a test set.
/// classes = 0: the labels are used as given (±1 for the margin losses, real targets for the
/// squared loss). classes = K ≥ 2: the labels are class indices 0..K−1 and the margin losses
/// train one model per class, one-vs-rest (core/learners/linear_erm/one_vs_rest.h). The test labels
/// follow the same convention. The labels are referenced, not copied (core/model/labels.h):
/// a multiclass set's are its class indices as they are stored (Targets::classIndex).
struct SweepData {
    const FeatureMatrix& trainX;
    Labels trainY;
    const FeatureMatrix* testX = nullptr;
    std::optional<Labels> testY = std::nullopt;
    int classes = 0;
    /// What the pipeline did to the training rows (ε spent on private bounds, leaking steps): every
    /// guarantee reported on this data goes through withPipeline (core/privacy/composition.h).
    PipelineFacts pipeline{};
};

/// The sweep data of prepared datasets: classes = K for a multiclass target, 0 otherwise.
/// The datasets must outlive the result. Throws std::invalid_argument when a multiclass test
/// set does not name the same classes in the same order as the training set (its class
/// indices would mean other classes).
SweepData sweepDataOf(const Dataset& train, const Dataset* test = nullptr);

/// Each row's class 0..K−1 for models with one output per class: the labels themselves for a
/// multiclass target (classes ≥ 2), else 1 for a positive (+1) label and 0 for a negative one.
Eigen::VectorXi classIndicesOf(Labels labels, int classes);
/// One label's class index, as classIndicesOf gives it: the label for K ≥ 2 classes, else 1 for
/// +1 and 0 for −1.
inline int classIndexOf(double label, int classes) {
    return classes >= 2 ? static_cast<int>(label) : (label > 0.0 ? 1 : 0);
}

} // namespace elab::core
