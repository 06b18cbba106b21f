#include "core/model/dense_rows.h"

namespace elab::core {

void denseRowDots(const DenseRows& X, const Eigen::VectorXd& v, Eigen::VectorXd& out) {
    out.resize(X.n);
    X.forEachBlock([&](Index begin, const auto& rows) { out.segment(begin, rows.rows()).noalias() = rows * v; });
}

void denseTransposedProduct(const DenseRows& X, const Eigen::VectorXd& w, Eigen::VectorXd& out) {
    out.setZero(X.cols);
    X.forEachBlock(
        [&](Index begin, const auto& rows) { out.noalias() += rows.transpose() * w.segment(begin, rows.rows()); });
}

void denseWeightedGramProduct(const DenseRows& X, const Eigen::VectorXd& weight, double factor,
                              const Eigen::VectorXd& v, Eigen::VectorXd& out) {
    Eigen::VectorXd t;
    X.forEachBlock([&](Index begin, const auto& rows) {
        t.noalias() = rows * v;
        t.array() *= weight.segment(begin, rows.rows()).array() * factor;
        out.noalias() += rows.transpose() * t;
    });
}

void denseWeightedGram(const DenseRows& X, const Eigen::VectorXd* weight, double factor, Eigen::MatrixXd& H) {
    H.setZero(X.cols, X.cols);
    Eigen::MatrixXd weighted;
    X.forEachBlock([&](Index begin, const auto& rows) {
        if (weight) {
            weighted = weight->segment(begin, rows.rows()).asDiagonal() * rows;
            H.noalias() += rows.transpose() * weighted;
        } else {
            H.noalias() += rows.transpose() * rows;
        }
    });
    H *= factor;
}

void denseWeightedSquares(const DenseRows& X, const Eigen::VectorXd& weight, Eigen::VectorXd& out) {
    out.setZero(X.cols);
    X.forEachBlock([&](Index begin, const auto& rows) {
        out.noalias() += rows.cwiseAbs2().transpose() * weight.segment(begin, rows.rows());
    });
}

} // namespace elab::core
