#pragma once
// A trained model as every caller sees it: scores for rows, n × K (docs/MATH.md §0.1, §3.7).
// Binary classifiers and regressors have one column (the class is the score's sign); a K-class
// model has K (the class is the argmax). Metrics are computed from these scores only, by
// core/learner/prediction.h, so a new model family needs no new metric code.

#include "core/data/feature_matrix.h"
#include "core/learner/solver_summary.h"

#include <Eigen/Core>

namespace elab::core {

class TrainedModel {
public:
    virtual ~TrainedModel() = default;

    /// K, the number of score columns (1: binary classifier or regressor).
    virtual int outputs() const = 0;
    /// n × outputs() scores of the rows of X. Thread: any (const).
    virtual Eigen::MatrixXd scores(const FeatureMatrix& X) const = 0;
    /// The fit was cut short by its stop token; the model must not be used.
    virtual bool stopped() const { return false; }
    /// Adds the fit's solver outcome(s) at the classifier's eps to summary (nothing if none).
    virtual void record(SolverSummary& summary, double eps, int repetition) const {
        (void)summary, (void)eps, (void)repetition;
    }
};

} // namespace elab::core
