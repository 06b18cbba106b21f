#include "core/optim/dense_products.h"

#if defined(EPSILONLAB_HAVE_OPENBLAS)
#include <cblas.h>
#include <cpuid.h>
#include <dlfcn.h>

#include <cstdlib>
#include <string>
#endif

namespace elab::core {

namespace {

using Stride = Eigen::OuterStride<>;

template <typename Scalar>
void eigenProduct(bool transA, bool transB, Eigen::Index m, Eigen::Index n, Eigen::Index k, Scalar alpha,
                  const Scalar* A, Eigen::Index lda, const Scalar* B, Eigen::Index ldb, Scalar beta, Scalar* C,
                  Eigen::Index ldc) {
    using Matrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
    using ConstBlock = Eigen::Map<const Matrix, 0, Stride>;
    using Block = Eigen::Map<Matrix, 0, Stride>;
    const ConstBlock a(A, transA ? k : m, transA ? m : k, Stride(lda));
    const ConstBlock b(B, transB ? n : k, transB ? k : n, Stride(ldb));
    Block c(C, m, n, Stride(ldc));
    if (beta == Scalar(0))
        c.setZero();
    else if (beta != Scalar(1))
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
/// The kernels OpenBLAS should use on an Intel CPU its own detection may not know, or nullptr to
/// leave the choice to it. OpenBLAS 0.3.21 (Debian 12) picks kernels by CPU model, and a model
/// newer than it (e.g. family 6 model 207, a Xeon of 2024) falls back to its Prescott (SSE3)
/// kernels: 15 GFLOP/s dgemm on one core of such a machine where its AVX-512 kernels give 55–65
/// (sgemm 32 against 135–148). Chosen here by what the CPU can do, as OpenBLAS does for the models
/// it knows; AMD CPUs are left to OpenBLAS, which recognises Zen by family.
const char* openBlasCoreFor() {
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid(0, &a, &b, &c, &d) || !(b == 0x756e6547 && d == 0x49656e69 && c == 0x6c65746e)) // GenuineIntel
        return nullptr;
    __builtin_cpu_init();
    const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                        __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
                        __builtin_cpu_supports("avx512cd");
    bool bf16 = false;
    if (__get_cpuid_count(7, 1, &a, &b, &c, &d))
        bf16 = (a & (1u << 5)) != 0; // AVX512_BF16: Cooper Lake and later
    if (avx512)
        return bf16 ? "COOPERLAKE" : "SKYLAKEX";
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return "HASWELL";
    return nullptr;
}

struct OpenBlas {
    decltype(&cblas_dgemm) dgemm = nullptr;
    decltype(&cblas_sgemm) sgemm = nullptr;
    std::string core; ///< the kernels it runs (openblas_get_corename)
};

const OpenBlas& openBlas() {
    static const OpenBlas blas = []() -> OpenBlas {
        // OPENBLAS_CORETYPE is read once, when the library loads; a value the user set is kept.
        // Set on the first product, possibly while other threads run: glibc's setenv builds a new
        // environment array and never frees the old one, so a concurrent getenv reads one or the other.
        if (const char* core = openBlasCoreFor(); core && !std::getenv("OPENBLAS_CORETYPE"))
            setenv("OPENBLAS_CORETYPE", core, 0);
        void* library = dlopen(EPSILONLAB_OPENBLAS_PATH, RTLD_NOW | RTLD_LOCAL);
        if (!library)
            library = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
        if (!library)
            return {};
        const auto parallel =
            reinterpret_cast<decltype(&openblas_get_parallel)>(dlsym(library, "openblas_get_parallel"));
        const auto threads =
            reinterpret_cast<decltype(&openblas_set_num_threads)>(dlsym(library, "openblas_set_num_threads"));
        const auto corename =
            reinterpret_cast<decltype(&openblas_get_corename)>(dlsym(library, "openblas_get_corename"));
        OpenBlas found;
        found.dgemm = reinterpret_cast<decltype(&cblas_dgemm)>(dlsym(library, "cblas_dgemm"));
        found.sgemm = reinterpret_cast<decltype(&cblas_sgemm)>(dlsym(library, "cblas_sgemm"));
        if (!parallel || !threads || !found.dgemm || !found.sgemm || parallel() == 0)
            return {};
        threads(1);
        found.core = corename ? corename() : "";
        return found;
    }();
    return blas;
}
#endif

} // namespace

void denseProduct(bool transA, bool transB, Eigen::Index m, Eigen::Index n, Eigen::Index k, double alpha,
                  const double* A, Eigen::Index lda, const double* B, Eigen::Index ldb, double beta, double* C,
                  Eigen::Index ldc) {
    if (m == 0 || n == 0)
        return;
#if defined(EPSILONLAB_HAVE_OPENBLAS)
    if (const auto dgemm = openBlas().dgemm) {
        dgemm(CblasColMajor, transA ? CblasTrans : CblasNoTrans, transB ? CblasTrans : CblasNoTrans,
              static_cast<blasint>(m), static_cast<blasint>(n), static_cast<blasint>(k), alpha, A,
              static_cast<blasint>(lda), B, static_cast<blasint>(ldb), beta, C, static_cast<blasint>(ldc));
        return;
    }
#endif
    eigenProduct(transA, transB, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

void denseProduct(bool transA, bool transB, Eigen::Index m, Eigen::Index n, Eigen::Index k, float alpha, const float* A,
                  Eigen::Index lda, const float* B, Eigen::Index ldb, float beta, float* C, Eigen::Index ldc) {
    if (m == 0 || n == 0)
        return;
#if defined(EPSILONLAB_HAVE_OPENBLAS)
    if (const auto sgemm = openBlas().sgemm) {
        sgemm(CblasColMajor, transA ? CblasTrans : CblasNoTrans, transB ? CblasTrans : CblasNoTrans,
              static_cast<blasint>(m), static_cast<blasint>(n), static_cast<blasint>(k), alpha, A,
              static_cast<blasint>(lda), B, static_cast<blasint>(ldb), beta, C, static_cast<blasint>(ldc));
        return;
    }
#endif
    eigenProduct(transA, transB, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

const char* denseProductBackend() {
#if defined(EPSILONLAB_HAVE_OPENBLAS)
    static const std::string name = openBlas().dgemm ? "OpenBLAS (threaded build, one thread per call; dgemm and "
                                                       "sgemm; " +
                                                           openBlas().core + " kernels)"
                                                     : std::string("Eigen (no threaded OpenBLAS at run time; a "
                                                                   "sequential build is unsafe for concurrent calls)");
    return name.c_str();
#else
    return "Eigen";
#endif
}

} // namespace elab::core
