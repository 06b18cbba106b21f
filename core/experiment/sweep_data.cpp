#include "core/experiment/sweep_data.h"

#include <stdexcept>

namespace elab::core {

SweepData sweepDataOf(const Dataset& train, const Dataset* test) {
    SweepData d{train.features, train.targets.kind == TaskKind::Multiclass ? Labels(train.targets.classIndex)
                                                                            : Labels(train.targets.values)};
    d.preparationEpsilon = train.preparationEpsilon;
    if (train.targets.kind == TaskKind::Multiclass)
        d.classes = train.targets.classCount();
    if (test) {
        if (d.classes > 0 && test->targets.classNames != train.targets.classNames)
            throw std::invalid_argument("the test set's classes differ from the training set's (same names in the "
                                        "same order are needed for one-vs-rest); binarise with a positive class instead");
        d.testX = &test->features;
        d.testY = d.classes > 0 ? Labels(test->targets.classIndex) : Labels(test->targets.values);
    }
    return d;
}

Eigen::VectorXi classIndicesOf(Labels labels, int classes) {
    Eigen::VectorXi cls(labels.size());
    for (Eigen::Index i = 0; i < labels.size(); ++i)
        cls(i) = classes >= 2 ? static_cast<int>(labels[i]) : (labels[i] > 0.0 ? 1 : 0);
    return cls;
}

} // namespace elab::core
