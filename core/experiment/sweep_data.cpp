#include "core/experiment/sweep_data.h"

#include <stdexcept>

namespace elab::core {

SweepData sweepDataOf(const Dataset& train, const Dataset* test) {
    SweepData d{train.features, train.targets.values};
    if (train.targets.kind == TaskKind::Multiclass)
        d.classes = train.targets.classCount();
    if (test) {
        if (d.classes > 0 && test->targets.classNames != train.targets.classNames)
            throw std::invalid_argument("the test set's classes differ from the training set's (same names in the "
                                        "same order are needed for one-vs-rest); binarise with a positive class instead");
        d.testX = &test->features;
        d.testY = &test->targets.values;
    }
    return d;
}

} // namespace elab::core
