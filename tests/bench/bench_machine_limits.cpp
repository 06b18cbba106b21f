// Benchmark: what this machine allows — the limits the other benchmarks are stated against.
//  - dense products: GFLOP/s of C = A·B in double (dgemm) and single (sgemm) precision, all cores,
//    square n = 2000 and DP-SGD's MNIST shape (600 × 784 × 1000), with OpenBLAS's threaded build
//    when it loads (the library DP-SGD uses), else Eigen split over column blocks by oneTBB;
//  - memory bandwidth: a STREAM-like triad a = b + s·c over three 80 MB arrays, all cores, and
//    one core (GB/s counting 24 bytes moved per element, as STREAM does);
//  - the GUI: one frame at 60 Hz, 16.7 ms (a constant, printed for the table).
// Best of 5 after a warm-up. Prints the figures and appends them to build/bench-results.jsonl.

#include "core/optim/dense_products.h"

#include <Eigen/Core>
#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

template <class F>
double bestSeconds(F&& f, int runs = 5) {
    f();
    double best = 1e300;
    for (int r = 0; r < runs; ++r) {
        const auto t0 = Clock::now();
        f();
        best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count());
    }
    return best;
}

// cblas_?gemm with the CBLAS enums as ints (column-major 102, no transpose 111).
using Dgemm = void (*)(int, int, int, int, int, int, double, const double*, int, const double*, int, double, double*,
                       int);
using Sgemm = void (*)(int, int, int, int, int, int, float, const float*, int, const float*, int, float, float*, int);

struct OpenBlas {
    Dgemm dgemm = nullptr;
    Sgemm sgemm = nullptr;
    bool threaded = false;
};

OpenBlas loadOpenBlas() {
    // The product's own loading first: it picks OpenBLAS's kernels for CPUs newer than the library
    // (OPENBLAS_CORETYPE, read when the library loads), so the limit is measured with the kernels
    // the product runs; the dlopen below then finds the same library.
    std::printf("bench_machine_limits dense products: %s\n", elab::core::denseProductBackend());
    OpenBlas blas;
    void* library = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library)
        return blas;
    using Parallel = int (*)();
    using Threads = void (*)(int);
    const auto parallel = reinterpret_cast<Parallel>(dlsym(library, "openblas_get_parallel"));
    const auto threads = reinterpret_cast<Threads>(dlsym(library, "openblas_set_num_threads"));
    blas.threaded = parallel && parallel() != 0;
    if (blas.threaded && threads)
        threads(tbb::info::default_concurrency());
    blas.dgemm = reinterpret_cast<Dgemm>(dlsym(library, "cblas_dgemm"));
    blas.sgemm = reinterpret_cast<Sgemm>(dlsym(library, "cblas_sgemm"));
    return blas;
}

/// Seconds of one m × n × k product, OpenBLAS (all its threads) or Eigen over column blocks.
template <class Scalar, class Gemm>
double productSeconds(Gemm gemm, bool threaded, int m, int n, int k) {
    using Matrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
    const Matrix a = Matrix::Random(m, k);
    const Matrix b = Matrix::Random(k, n);
    Matrix c = Matrix::Zero(m, n);
    if (gemm && threaded)
        return bestSeconds([&] { gemm(102, 111, 111, m, n, k, 1, a.data(), m, b.data(), k, 0, c.data(), m); });
    const int blocks = 4 * tbb::info::default_concurrency();
    return bestSeconds([&] {
        tbb::parallel_for(0, blocks, [&](int j) {
            const int begin = n * j / blocks, end = n * (j + 1) / blocks;
            c.middleCols(begin, end - begin).noalias() = a * b.middleCols(begin, end - begin);
        });
    });
}

/// GB/s of the triad a = b + s·c (24 bytes per element) on `threads` threads.
double triadGBs(int threads) {
    const std::size_t n = 10'000'000; // 80 MB per array, far beyond any cache
    std::vector<double> a(n, 0.0), b(n, 1.0), c(n, 2.0);
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
    const double s = bestSeconds([&] {
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1 << 16),
                          [&](const tbb::blocked_range<std::size_t>& r) {
                              for (std::size_t i = r.begin(); i != r.end(); ++i)
                                  a[i] = b[i] + 3.0 * c[i];
                          });
    });
    return 24.0 * static_cast<double>(n) / s / 1e9;
}

} // namespace

int main() {
    const OpenBlas blas = loadOpenBlas();
    const bool useBlas = blas.dgemm && blas.sgemm && blas.threaded;
    const char* backend = useBlas ? "OpenBLAS (threaded)" : "Eigen over oneTBB column blocks";
    const int cores = tbb::info::default_concurrency();
    std::ofstream out(EPSILONLAB_BENCH_OUT, std::ios::app);
    struct Shape {
        const char* name;
        int m, n, k;
    };
    const Shape shapes[] = {{"square 2000", 2000, 2000, 2000}, {"MNIST step 600x784x1000", 600, 1000, 784}};
    for (const Shape& shape : shapes) {
        const double flops = 2.0 * shape.m * shape.n * shape.k;
        const double d = productSeconds<double>(useBlas ? blas.dgemm : nullptr, useBlas, shape.m, shape.n, shape.k);
        const double f = productSeconds<float>(useBlas ? blas.sgemm : nullptr, useBlas, shape.m, shape.n, shape.k);
        std::printf("bench_machine_limits gemm %-24s %s, %d cores: fp64 %.1f GFLOP/s (%.2f ms), fp32 %.1f GFLOP/s "
                    "(%.2f ms)\n",
                    shape.name, backend, cores, flops / d / 1e9, d * 1e3, flops / f / 1e9, f * 1e3);
        out << "{\"bench\":\"machine_limits\",\"probe\":\"gemm\",\"shape\":\"" << shape.name << "\",\"backend\":\""
            << backend << "\",\"cores\":" << cores << ",\"fp64_gflops\":" << flops / d / 1e9
            << ",\"fp32_gflops\":" << flops / f / 1e9 << "}\n";
    }
    const double all = triadGBs(cores);
    const double one = triadGBs(1);
    std::printf("bench_machine_limits memory triad: %.1f GB/s on %d cores, %.1f GB/s on one\n", all, cores, one);
    std::printf("bench_machine_limits GUI frame at 60 Hz: 16.7 ms\n");
    out << "{\"bench\":\"machine_limits\",\"probe\":\"triad\",\"cores\":" << cores << ",\"gbs_all\":" << all
        << ",\"gbs_one\":" << one << "}\n";
    return 0;
}
