#include "core/dpsgd/dense_products.h"

#if defined(EPSILONLAB_HAVE_OPENBLAS)
#include <cblas.h>

#include <mutex>
#endif

namespace elab::core {

namespace {

using Stride = Eigen::OuterStride<>;
using ConstBlock = Eigen::Map<const Eigen::MatrixXd, 0, Stride>;
using Block = Eigen::Map<Eigen::MatrixXd, 0, Stride>;

} // namespace

void denseProduct(bool transA, bool transB, Eigen::Index m, Eigen::Index n, Eigen::Index k, double alpha,
                  const double* A, Eigen::Index lda, const double* B, Eigen::Index ldb, double beta, double* C,
                  Eigen::Index ldc) {
    if (m == 0 || n == 0)
        return;
#if defined(EPSILONLAB_HAVE_OPENBLAS)
    static std::once_flag single;
    std::call_once(single, [] { openblas_set_num_threads(1); }); // a threaded build installed instead
    cblas_dgemm(CblasColMajor, transA ? CblasTrans : CblasNoTrans, transB ? CblasTrans : CblasNoTrans,
                static_cast<blasint>(m), static_cast<blasint>(n), static_cast<blasint>(k), alpha, A,
                static_cast<blasint>(lda), B, static_cast<blasint>(ldb), beta, C, static_cast<blasint>(ldc));
#else
    const ConstBlock a(A, transA ? k : m, transA ? m : k, Stride(lda));
    const ConstBlock b(B, transB ? n : k, transB ? k : n, Stride(ldb));
    Block c(C, m, n, Stride(ldc));
    if (beta == 0.0)
        c.setZero();
    else if (beta != 1.0)
        c *= beta;
    if (transA && transB)
        c.noalias() += alpha * a.transpose() * b.transpose();
    else if (transA)
        c.noalias() += alpha * a.transpose() * b;
    else if (transB)
        c.noalias() += alpha * a * b.transpose();
    else
        c.noalias() += alpha * a * b;
#endif
}

const char* denseProductBackend() {
#if defined(EPSILONLAB_HAVE_OPENBLAS)
    return "OpenBLAS (serial, dgemm)";
#else
    return "Eigen";
#endif
}

} // namespace elab::core
