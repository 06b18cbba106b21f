#include "core/stability/removal.h"

#include "core/util/random.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace elab::core {

const char* toString(RemovalKind kind) { return kind == RemovalKind::Random ? "random" : "adversarial"; }

RemovalKind removalKindFromString(const std::string& name) {
    if (name == "random")
        return RemovalKind::Random;
    if (name == "adversarial")
        return RemovalKind::Adversarial;
    throw std::invalid_argument("unknown removal '" + name + "' (random, adversarial)");
}

Index removalCount(Index n, double rho) {
    const auto count = static_cast<Index>(std::llround(rho * static_cast<double>(n)));
    return std::clamp(count, Index(0), std::max(Index(0), n - 2));
}

std::vector<Index> randomKeep(Index n, Index remove, std::uint64_t seed) {
    std::vector<Index> rows(static_cast<std::size_t>(n));
    std::iota(rows.begin(), rows.end(), Index(0));
    Rng rng(seed);
    shuffleInPlace(rows, rng);
    rows.resize(static_cast<std::size_t>(n - std::clamp(remove, Index(0), n)));
    std::sort(rows.begin(), rows.end());
    return rows;
}

std::vector<Index> adversarialKeep(const Eigen::VectorXd& score, Index remove) {
    const Index n = score.size();
    std::vector<Index> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), Index(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](Index a, Index b) { return std::abs(score[a]) < std::abs(score[b]); });
    std::vector<Index> kept(order.begin() + std::clamp(remove, Index(0), n), order.end());
    std::sort(kept.begin(), kept.end());
    return kept;
}

std::vector<double> parseRhoGrid(const std::string& text) {
    auto toDouble = [&](const std::string& s) {
        std::size_t used = 0;
        double v = 0.0;
        try {
            v = std::stod(s, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (s.empty() || used != s.size())
            throw std::invalid_argument("not a number: '" + s + "' in ρ grid '" + text + "'");
        return v;
    };
    std::vector<double> grid;
    if (const auto c1 = text.find(':'); c1 != std::string::npos) {
        const auto c2 = text.find(':', c1 + 1);
        if (c2 == std::string::npos)
            throw std::invalid_argument("expected A:B:K in ρ grid '" + text + "'");
        const double a = toDouble(text.substr(0, c1)), b = toDouble(text.substr(c1 + 1, c2 - c1 - 1));
        const double kd = toDouble(text.substr(c2 + 1));
        const int k = static_cast<int>(kd);
        if (k < 1 || kd != k || !(a >= 0.0) || !(b >= a) || !(b < 1.0))
            throw std::invalid_argument("ρ grid A:B:K needs 0 ≤ A ≤ B < 1 and an integer K ≥ 1: '" + text + "'");
        for (int i = 0; i < k; ++i)
            grid.push_back(k == 1 ? a : a + (b - a) * static_cast<double>(i) / (k - 1));
    } else {
        std::size_t pos = 0;
        while (pos <= text.size()) {
            const std::size_t comma = std::min(text.find(',', pos), text.size());
            grid.push_back(toDouble(text.substr(pos, comma - pos)));
            pos = comma + 1;
        }
        std::sort(grid.begin(), grid.end());
    }
    for (double r : grid)
        if (!(r >= 0.0 && r < 1.0))
            throw std::invalid_argument("every ρ must be in [0, 1): '" + text + "'");
    return grid;
}

} // namespace elab::core
