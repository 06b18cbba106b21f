#include "core/dpsgd/dense_products.h"

#if defined(EPSILONLAB_HAVE_OPENBLAS)
#include <cblas.h>
#endif

namespace elab::core {

namespace {

using Stride = Eigen::OuterStride<>;
using ConstBlock = Eigen::Map<const Eigen::MatrixXd, 0, Stride>;
using Block = Eigen::Map<Eigen::MatrixXd, 0, Stride>;

void eigenProduct(bool transA, bool transB, Eigen::Index m, Eigen::Index n, Eigen::Index k, double alpha,
                  const double* A, Eigen::Index lda, const double* B, Eigen::Index ldb, double beta, double* C,
                  Eigen::Index ldc) {
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
}

#if defined(EPSILONLAB_HAVE_OPENBLAS)
/// Whether the OpenBLAS loaded at run time may be called from several threads at once: its
/// threaded builds (pthread, OpenMP) are; a sequential build (Debian's libopenblas0-serial, which
/// the libopenblas.so.0 alternative may point to) is not — concurrent calls corrupt each other's
/// products. Each call of a threaded build is kept to one thread. Decided once, before any call.
bool openBlasUsable() {
    static const bool usable = [] {
        if (openblas_get_parallel() == 0)
            return false;
        openblas_set_num_threads(1);
        return true;
    }();
    return usable;
}
#endif

} // namespace

void denseProduct(bool transA, bool transB, Eigen::Index m, Eigen::Index n, Eigen::Index k, double alpha,
                  const double* A, Eigen::Index lda, const double* B, Eigen::Index ldb, double beta, double* C,
                  Eigen::Index ldc) {
    if (m == 0 || n == 0)
        return;
#if defined(EPSILONLAB_HAVE_OPENBLAS)
    if (openBlasUsable()) {
        cblas_dgemm(CblasColMajor, transA ? CblasTrans : CblasNoTrans, transB ? CblasTrans : CblasNoTrans,
                    static_cast<blasint>(m), static_cast<blasint>(n), static_cast<blasint>(k), alpha, A,
                    static_cast<blasint>(lda), B, static_cast<blasint>(ldb), beta, C, static_cast<blasint>(ldc));
        return;
    }
#endif
    eigenProduct(transA, transB, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

const char* denseProductBackend() {
#if defined(EPSILONLAB_HAVE_OPENBLAS)
    if (openBlasUsable())
        return "OpenBLAS (threaded build, one thread per call; dgemm)";
    return "Eigen (the OpenBLAS loaded is a sequential build, unsafe for concurrent calls)";
#else
    return "Eigen";
#endif
}

} // namespace elab::core
