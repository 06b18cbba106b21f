#pragma once
// Labels y_i as the objective's passes and the metrics read them, without a copy: a vector's
// values, class indices, or the ±1 labels of one class against the rest read from class indices.
// One-vs-rest over K classes thus holds no K label vectors (a million rows, 3 classes: 24 MB),
// and a multiclass set no copy of its class indices as doubles (8 MB; issue 15).

#include "core/util/shared_vector.h"

#include <Eigen/Core>

namespace elab::core {

class Labels {
public:
    /// y_i = values[i]. Referenced, not copied: values must outlive the labels.
    Labels(const Eigen::VectorXd& values) // NOLINT(google-explicit-constructor): plain labels
        : m_values(values.data()), m_size(values.size()) {}
    Labels(const SharedVector<Eigen::VectorXd>& values) : Labels(values.get()) {} // NOLINT: Targets::values
    /// y_i = classIndex[i] as a double: the class indices 0..K−1 of a multiclass target
    /// (Targets::classIndex). Referenced, not copied.
    Labels(const Eigen::VectorXi& classIndex) // NOLINT(google-explicit-constructor): class labels
        : m_classes(classIndex.data()), m_size(classIndex.size()), m_read(Read::Classes) {}
    Labels(const SharedVector<Eigen::VectorXi>& classIndex) : Labels(classIndex.get()) {} // NOLINT: Targets::classIndex

    /// y_i = +1 where this label is `positive`, −1 elsewhere: class `positive` against the rest
    /// (one-vs-rest), read from these class indices (ints, or class indices held as doubles).
    Labels oneVsRest(int positive) const {
        Labels labels = *this;
        labels.m_read = m_classes ? Read::ClassSign : Read::ValueSign;
        labels.m_positive = positive;
        labels.m_positiveValue = static_cast<double>(positive);
        return labels;
    }

    Eigen::Index size() const { return m_size; }
    /// Hot loops: read from a copy held in the loop (its members then stay in registers; the
    /// test of m_read is the same for every row, so predicted, and the plain labels — every
    /// binary fit — pass one test, as before class indices could be read).
    double operator[](Eigen::Index i) const {
        // ±1 without a branch on the row's class (classes in random order mispredict a third of
        // the rows) and without an int → double conversion (its false dependency on the target
        // register): a million-row one-vs-rest sweep took 1.3–1.4× the time of stored labels
        // with either, and the same time with this load.
        static constexpr double kSign[2] = {-1.0, 1.0};
        if (m_read == Read::Values)
            return m_values[i];
        if (m_read == Read::ClassSign)
            return kSign[m_classes[i] == m_positive];
        if (m_read == Read::ValueSign)
            return kSign[m_values[i] == m_positiveValue];
        return static_cast<double>(m_classes[i]);
    }
    /// The labels as a vector (a copy; for tests and small sets).
    Eigen::VectorXd toVector() const {
        Eigen::VectorXd out(size());
        for (Eigen::Index i = 0; i < size(); ++i)
            out[i] = (*this)[i];
        return out;
    }

private:
    /// What y_i is, in the order operator[] tests (the hot cases first).
    enum class Read : unsigned char { Values, ClassSign, ValueSign, Classes };
    const double* m_values = nullptr; ///< the labels as doubles, or
    const int* m_classes = nullptr;   ///< the labels as class indices
    Eigen::Index m_size = 0;
    Read m_read = Read::Values;
    int m_positive = -1;           ///< the class read as +1 (one-vs-rest)
    double m_positiveValue = -1.0; ///< m_positive as a double (compared with m_values)
};

} // namespace elab::core
