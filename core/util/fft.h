#pragma once
// A small in-place complex FFT (iterative radix-2 Cooley–Tukey, lengths a power of two), for
// convolutions of probability mass functions (the PLD accountant, docs/MATH.md §3.6). The
// twiddle factors are computed directly as cos/sin of 2πk/N (no recurrence), so the round-off is
// O(ε_mach·log N) relative to the largest entry.

#include <complex>
#include <cstddef>
#include <vector>

namespace elab::core {

/// A plan for transforms of one length N = 2^k ≥ 1: the twiddles and the bit-reversal table.
class Fft {
public:
    /// Throws std::invalid_argument unless n is a power of two ≥ 1.
    explicit Fft(std::size_t n);

    std::size_t size() const { return m_n; }
    /// X_k = Σ_j x_j e^{−2πi jk/N}, in place. Throws std::invalid_argument for another length.
    void forward(std::vector<std::complex<double>>& x) const;
    /// x_j = (1/N) Σ_k X_k e^{+2πi jk/N}, in place (the inverse of forward, scaled).
    void inverse(std::vector<std::complex<double>>& x) const;

    /// The smallest power of two ≥ n (1 for n ≤ 1).
    static std::size_t nextPowerOfTwo(std::size_t n);

private:
    void transform(std::vector<std::complex<double>>& x, bool inverse) const;

    std::size_t m_n;
    std::vector<std::complex<double>> m_twiddle; ///< per stage of length 2h: e^{−πik/h}, k < h, at h − 1
    std::vector<std::size_t> m_reversed;         ///< bit-reversed index of each j
};

} // namespace elab::core
