#pragma once
// One dense matrix product (DP-SGD's layers, the Gaussian classifier's lifted rows), C = α·op(A)·op(B) + β·C on
// column-major blocks (leading dimensions given, so a block of rows or columns of a larger matrix can be written in
// place): OpenBLAS's dgemm kept to one thread when the build found it and the library loaded is a
// threaded build (AVX2/FMA kernels picked at run time), else Eigen — a sequential OpenBLAS build
// is not safe for concurrent calls. One call never uses more than one thread, so callers that
// split work over fixed blocks get the same bits for any thread count, and concurrent runs the
// same bits as sequential ones. The single-precision product (sgemm, or Eigen in float) is the
// same in every respect.

#include <Eigen/Core>

namespace elab::core {

void denseProduct(bool transA, bool transB, Eigen::Index m, Eigen::Index n, Eigen::Index k, double alpha,
                  const double* A, Eigen::Index lda, const double* B, Eigen::Index ldb, double beta, double* C,
                  Eigen::Index ldc);

void denseProduct(bool transA, bool transB, Eigen::Index m, Eigen::Index n, Eigen::Index k, float alpha, const float* A,
                  Eigen::Index lda, const float* B, Eigen::Index ldb, float beta, float* C, Eigen::Index ldc);

/// "OpenBLAS (… kernels of core X) …" or "Eigen" — for benchmarks and reports.
const char* denseProductBackend();

} // namespace elab::core
