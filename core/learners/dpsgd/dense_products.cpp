#include "core/learners/dpsgd/dense_products.h"

#if defined(EPSILONLAB_HAVE_OPENBLAS)
#include <cblas.h>
#include <dlfcn.h>
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
/// OpenBLAS's dgemm, or nullptr when it is not usable; decided once, before any call.
/// Loaded here, on first use, not linked: when its threaded build is loaded it starts a thread
/// per core, which spins (sched_yield) for ≈ 0.1 s of CPU before it sleeps — at every start of
/// the CLI and the GUI, of which most never multiply dense matrices (an a9a sweep of the CLI
/// spent 0.1 s of system time in it, beside its own two threads on two cores).
/// Usable: a threaded build (pthread, OpenMP), whose calls may run in several threads at once;
/// a sequential build (Debian's libopenblas0-serial, which the libopenblas.so.0 alternative may
/// point to) is not — concurrent calls corrupt each other's products. Each call of a threaded
/// build is kept to one thread.
decltype(&cblas_dgemm) openBlasDgemm() {
    static const auto dgemm = []() -> decltype(&cblas_dgemm) {
        void* library = dlopen(EPSILONLAB_OPENBLAS_PATH, RTLD_NOW | RTLD_LOCAL);
        if (!library)
            library = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
        if (!library)
            return nullptr;
        const auto parallel =
            reinterpret_cast<decltype(&openblas_get_parallel)>(dlsym(library, "openblas_get_parallel"));
        const auto threads =
            reinterpret_cast<decltype(&openblas_set_num_threads)>(dlsym(library, "openblas_set_num_threads"));
        const auto product = reinterpret_cast<decltype(&cblas_dgemm)>(dlsym(library, "cblas_dgemm"));
        if (!parallel || !threads || !product || parallel() == 0)
            return nullptr;
        threads(1);
        return product;
    }();
    return dgemm;
}
#endif

} // namespace

void denseProduct(bool transA, bool transB, Eigen::Index m, Eigen::Index n, Eigen::Index k, double alpha,
                  const double* A, Eigen::Index lda, const double* B, Eigen::Index ldb, double beta, double* C,
                  Eigen::Index ldc) {
    if (m == 0 || n == 0)
        return;
#if defined(EPSILONLAB_HAVE_OPENBLAS)
    if (const auto dgemm = openBlasDgemm()) {
        dgemm(CblasColMajor, transA ? CblasTrans : CblasNoTrans, transB ? CblasTrans : CblasNoTrans,
              static_cast<blasint>(m), static_cast<blasint>(n), static_cast<blasint>(k), alpha, A,
              static_cast<blasint>(lda), B, static_cast<blasint>(ldb), beta, C, static_cast<blasint>(ldc));
        return;
    }
#endif
    eigenProduct(transA, transB, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

const char* denseProductBackend() {
#if defined(EPSILONLAB_HAVE_OPENBLAS)
    if (openBlasDgemm())
        return "OpenBLAS (threaded build, one thread per call; dgemm)";
    return "Eigen (no threaded OpenBLAS at run time; a sequential build is unsafe for concurrent calls)";
#else
    return "Eigen";
#endif
}

} // namespace elab::core
