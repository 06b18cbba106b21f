#pragma once
// Seeded random streams (docs/MATH.md §0.3). Every stream is derived from (seed, stream ids) — never from a
// thread or the clock — so results are identical for any thread count (docs/STYLE.md §2).

#include <cstdint>
#include <random>
#include <vector>

namespace elab::core {

using Rng = std::mt19937_64;

/// SplitMix64 finaliser (Steele, Lea & Flood 2014): a bijective 64-bit mixer.
constexpr std::uint64_t splitMix64(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/// Seed of the stream (seed, a, b): e.g. (user seed, grid index, repetition).
constexpr std::uint64_t deriveSeed(std::uint64_t seed, std::uint64_t a, std::uint64_t b = 0) {
    return splitMix64(splitMix64(splitMix64(seed) ^ (a + 0x632BE59BD9B4E019ULL)) ^ (b + 0x85157AF5ULL));
}

__extension__ typedef unsigned __int128 UInt128; // GCC/Clang extension, silenced for -Wpedantic

/// xoshiro256++ (Blackman & Vigna 2019): a small, fast 64-bit generator (≈ 1 ns per draw, against
/// ≈ 7 ns for mt19937_64 on the reference VM) for streams of millions of draws (DP-SGD's noise),
/// its state filled from the seed by SplitMix64 as its authors recommend.
class Xoshiro256pp {
public:
    using result_type = std::uint64_t;
    explicit Xoshiro256pp(std::uint64_t seed) {
        for (auto& word : m_s) {
            seed += 0x9E3779B97F4A7C15ULL;
            word = splitMix64(seed - 0x9E3779B97F4A7C15ULL);
        }
    }
    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return ~result_type(0); }
    result_type operator()() {
        const std::uint64_t result = rotl(m_s[0] + m_s[3], 23) + m_s[0];
        const std::uint64_t t = m_s[1] << 17;
        m_s[2] ^= m_s[0];
        m_s[3] ^= m_s[1];
        m_s[1] ^= m_s[2];
        m_s[0] ^= m_s[3];
        m_s[2] ^= t;
        m_s[3] = rotl(m_s[3], 45);
        return result;
    }

private:
    static constexpr std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    std::uint64_t m_s[4];
};

/// Uniform integer in [0, bound) by Lemire's unbiased method; stdlib-independent so the
/// same seed gives the same sequence with any standard library.
inline std::uint64_t uniformIndex(Rng& rng, std::uint64_t bound) {
    if (bound <= 1)
        return 0;
    const std::uint64_t threshold = (0 - bound) % bound;
    for (;;) {
        const std::uint64_t r = rng();
        const UInt128 m = static_cast<UInt128>(r) * bound;
        if (static_cast<std::uint64_t>(m) >= threshold)
            return static_cast<std::uint64_t>(m >> 64);
    }
}

/// Uniform double in [0, 1) with 53 random bits.
inline double uniform01(Rng& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

/// Fisher–Yates shuffle with uniformIndex (stdlib-independent).
template <typename T>
void shuffleInPlace(std::vector<T>& v, Rng& rng) {
    for (std::size_t i = v.size(); i > 1; --i)
        std::swap(v[i - 1], v[uniformIndex(rng, i)]);
}

} // namespace elab::core
