#pragma once
// An Eigen vector shared by the copies of what holds it until one of them changes it (copy on
// write). A dataset is copied to be prepared for every sweep, stability run or regions picture;
// its labels (12 MB for a million rows) stay one array unless a step changes them.
//
// Reading is as with the vector (size(), (i), [i], -> for any other member, and a const
// reference where one is expected); changing goes through mutate(), which copies first when
// another holder shares the vector. Holders on several threads may read at once; a holder is
// changed by one thread at a time, like any other value.

#include <Eigen/Core>

#include <memory>
#include <utility>

namespace elab::core {

template <class Vector>
class SharedVector {
public:
    using Scalar = typename Vector::Scalar;

    SharedVector() : m_data(std::make_shared<Vector>()) {}
    SharedVector(Vector v) : m_data(std::make_shared<Vector>(std::move(v))) {} // NOLINT: implicit, as a vector
    template <class Derived>
    SharedVector(const Eigen::DenseBase<Derived>& expression) // NOLINT: implicit, as a vector (or array) expression
        : m_data(std::make_shared<Vector>()) {
        *m_data = expression; // assignment takes array expressions too
    }

    const Vector& get() const { return *m_data; }
    operator const Vector&() const { return *m_data; } // NOLINT: implicit, read as a vector
    const Vector& operator*() const { return *m_data; }
    const Vector* operator->() const { return m_data.get(); }

    Eigen::Index size() const { return m_data->size(); }
    Scalar operator()(Eigen::Index i) const { return (*m_data)(i); }
    Scalar operator[](Eigen::Index i) const { return (*m_data)[i]; }

    /// The vector, to change: a copy of its own first if another holder shares it.
    Vector& mutate() {
        if (m_data.use_count() > 1)
            m_data = std::make_shared<Vector>(*m_data);
        return *m_data;
    }
    /// Equal values (and sizes), shared or not.
    friend bool operator==(const SharedVector& a, const SharedVector& b) {
        return a.sharesWith(b) || (a.size() == b.size() && a.get() == b.get());
    }
    friend bool operator!=(const SharedVector& a, const SharedVector& b) { return !(a == b); }

    /// Whether this and other hold the same array (neither copied since they were one).
    bool sharesWith(const SharedVector& other) const { return m_data == other.m_data; }

private:
    std::shared_ptr<Vector> m_data;
};

} // namespace elab::core
