#include "core/util/fft.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>
#include <utility>

namespace elab::core {

Fft::Fft(std::size_t n) : m_n(n) {
    if (n == 0 || (n & (n - 1)) != 0)
        throw std::invalid_argument("FFT: the length must be a power of two, not " + std::to_string(n));
    // Stage by stage: the twiddles e^{−πik/half}, k < half, of the stage of length 2·half stored
    // contiguously at offset half − 1 (N − 1 in all), each a copy of the top stage's entry.
    m_twiddle.resize(n > 1 ? n - 1 : 0);
    const std::size_t top = n / 2;
    for (std::size_t k = 0; k < top; ++k) {
        const double angle = -std::numbers::pi * static_cast<double>(k) / static_cast<double>(top);
        m_twiddle[top - 1 + k] = {std::cos(angle), std::sin(angle)};
    }
    for (std::size_t half = 1; half < top; half <<= 1) // e^{−πik/half} = the top stage's entry k·top/half
        for (std::size_t k = 0; k < half; ++k)
            m_twiddle[half - 1 + k] = m_twiddle[top - 1 + k * (top / half)];
    int bits = 0;
    while ((std::size_t{1} << bits) < n)
        ++bits;
    m_reversed.assign(n, 0);
    for (std::size_t j = 1; j < n; ++j)
        m_reversed[j] = (m_reversed[j >> 1] >> 1) | ((j & 1u) << (bits - 1));
}

std::size_t Fft::nextPowerOfTwo(std::size_t n) {
    std::size_t p = 1;
    while (p < n)
        p <<= 1;
    return p;
}

void Fft::forward(std::vector<std::complex<double>>& x) const { transform(x, false); }

void Fft::inverse(std::vector<std::complex<double>>& x) const {
    transform(x, true);
    const double scale = 1.0 / static_cast<double>(m_n);
    for (std::complex<double>& v : x)
        v *= scale;
}

void Fft::transform(std::vector<std::complex<double>>& x, bool inverse) const {
    if (x.size() != m_n)
        throw std::invalid_argument("FFT: a vector of length " + std::to_string(x.size()) + " given to a plan for " +
                                    std::to_string(m_n));
    for (std::size_t j = 0; j < m_n; ++j)
        if (j < m_reversed[j])
            std::swap(x[j], x[m_reversed[j]]);
    // Butterflies on plain doubles: std::complex multiplication checks for NaN/∞ (Annex G) and is
    // slow. The stages up to length kBlock run block by block, so that a block stays in cache.
    double* d = reinterpret_cast<double*>(x.data());
    const double* w = reinterpret_cast<const double*>(m_twiddle.data());
    const double sign = inverse ? -1.0 : 1.0;
    const auto stage = [&](std::size_t len, std::size_t from, std::size_t to) {
        const std::size_t half = len / 2;
        const double* tw = w + 2 * (half - 1);
        for (std::size_t start = from; start < to; start += len)
            for (std::size_t k = 0; k < half; ++k) {
                const double wr = tw[2 * k], wi = sign * tw[2 * k + 1];
                double* a = d + 2 * (start + k);
                double* b = d + 2 * (start + k + half);
                const double tr = b[0] * wr - b[1] * wi, ti = b[0] * wi + b[1] * wr;
                b[0] = a[0] - tr;
                b[1] = a[1] - ti;
                a[0] += tr;
                a[1] += ti;
            }
    };
    // Two stages fused (half h, then 2h) in one pass over the data: the same butterflies, half
    // the loads and stores (and, for the stages too long for the cache, half the trips through
    // memory).
    const auto twoStages = [&](std::size_t half, std::size_t from, std::size_t to) {
        const double* t1 = w + 2 * (half - 1);
        const double* t2 = w + 2 * (2 * half - 1);
        for (std::size_t start = from; start < to; start += 4 * half)
            for (std::size_t k = 0; k < half; ++k) {
                double* p0 = d + 2 * (start + k);
                double* p1 = p0 + 2 * half;
                double* p2 = p1 + 2 * half;
                double* p3 = p2 + 2 * half;
                const double wr = t1[2 * k], wi = sign * t1[2 * k + 1];
                double tr = p1[0] * wr - p1[1] * wi, ti = p1[0] * wi + p1[1] * wr;
                const double a0r = p0[0] + tr, a0i = p0[1] + ti, a1r = p0[0] - tr, a1i = p0[1] - ti;
                tr = p3[0] * wr - p3[1] * wi;
                ti = p3[0] * wi + p3[1] * wr;
                const double a2r = p2[0] + tr, a2i = p2[1] + ti, a3r = p2[0] - tr, a3i = p2[1] - ti;
                const double ur = t2[2 * k], ui = sign * t2[2 * k + 1];
                const double vr = t2[2 * (k + half)], vi = sign * t2[2 * (k + half) + 1];
                tr = a2r * ur - a2i * ui;
                ti = a2r * ui + a2i * ur;
                p0[0] = a0r + tr;
                p0[1] = a0i + ti;
                p2[0] = a0r - tr;
                p2[1] = a0i - ti;
                tr = a3r * vr - a3i * vi;
                ti = a3r * vi + a3i * vr;
                p1[0] = a1r + tr;
                p1[1] = a1i + ti;
                p3[0] = a1r - tr;
                p3[1] = a1i - ti;
            }
    };
    constexpr std::size_t kBlock = 2048;
    const std::size_t block = std::min(m_n, kBlock);
    for (std::size_t base = 0; base < m_n; base += block) {
        std::size_t len = 2;
        for (; 2 * len <= block; len <<= 2)
            twoStages(len / 2, base, base + block);
        if (len <= block)
            stage(len, base, base + block);
    }
    std::size_t len = 2 * block;
    for (; 2 * len <= m_n; len <<= 2)
        twoStages(len / 2, 0, m_n);
    if (len <= m_n)
        stage(len, 0, m_n);
}

} // namespace elab::core
