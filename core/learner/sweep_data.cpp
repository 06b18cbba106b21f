#include "core/learner/sweep_data.h"

#include <stdexcept>

namespace elab::core {

namespace {

// The labels the sweeps read: class indices for one-vs-rest (a multiclass target stores no others).
Labels labelsOf(const Targets& t, bool classIndices) { return classIndices ? Labels(t.classIndex) : Labels(t.values); }

} // namespace

SweepData sweepDataOf(const Dataset& train, const Dataset* test) {
    const bool multiclass = train.targets.kind == TaskKind::Multiclass;
    SweepData d{train.features, labelsOf(train.targets, multiclass)};
    d.pipeline = pipelineFacts(train);
    if (multiclass)
        d.classes = train.targets.classCount();
    if (test) {
        if (d.classes > 0 && test->targets.classNames != train.targets.classNames)
            throw std::invalid_argument(
                "the test set's classes differ from the training set's (same names in the "
                "same order are needed for one-vs-rest); binarise with a positive class instead");
        d.testX = &test->features;
        d.testY = labelsOf(test->targets, multiclass);
    }
    return d;
}

Eigen::VectorXi classIndicesOf(Labels labels, int classes) {
    Eigen::VectorXi cls(labels.size());
    for (Eigen::Index i = 0; i < labels.size(); ++i)
        cls(i) = classIndexOf(labels[i], classes);
    return cls;
}

} // namespace elab::core
