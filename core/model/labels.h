#pragma once
// Labels y_i as the objective's passes and the metrics read them, without a copy: a vector's
// values, or the ±1 labels of one class against the rest read from class indices. One-vs-rest
// over K classes thus holds no K label vectors (a million rows, 3 classes: 24 MB; issue 15).

#include "core/util/shared_vector.h"

#include <Eigen/Core>

namespace elab::core {

class Labels {
public:
    /// y_i = values[i]. Referenced, not copied: values must outlive the labels.
    Labels(const Eigen::VectorXd& values) // NOLINT(google-explicit-constructor): plain labels
        : m_values(values.data()), m_size(values.size()) {}
    Labels(const SharedVector<Eigen::VectorXd>& values) : Labels(values.get()) {} // NOLINT: Targets::values
    /// y_i = +1 where classIndex[i] = positive, −1 elsewhere (one-vs-rest, class positive against
    /// the rest); classIndex holds class indices as doubles (Targets::values of a multiclass set).
    static Labels oneVsRest(const Eigen::VectorXd& classIndex, int positive) {
        Labels labels(classIndex);
        labels.m_positive = static_cast<double>(positive);
        return labels;
    }

    Eigen::Index size() const { return m_size; }
    /// Hot loops: read from a copy held in the loop (its members then stay in registers).
    double operator[](Eigen::Index i) const {
        const double v = m_values[i];
        if (m_positive < 0.0) // the same for every row: predicted
            return v;
        // ±1 without a branch on the row's class (classes in random order mispredict a third of
        // the rows) and without an int → double conversion (its false dependency on the target
        // register): a million-row one-vs-rest sweep took 1.3–1.4× the time of stored labels
        // with either, and the same time with this load.
        static constexpr double kSign[2] = {-1.0, 1.0};
        return kSign[v == m_positive];
    }
    /// The labels as a vector (a copy; for tests and small sets).
    Eigen::VectorXd toVector() const {
        Eigen::VectorXd out(size());
        for (Eigen::Index i = 0; i < size(); ++i)
            out[i] = (*this)[i];
        return out;
    }

private:
    const double* m_values;
    Eigen::Index m_size;
    double m_positive = -1.0; ///< the class read as +1; negative: the values as they are
};

} // namespace elab::core
