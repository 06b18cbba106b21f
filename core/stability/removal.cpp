#include "core/stability/removal.h"

#include "core/util/grid_text.h"

#include "core/util/random.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace elab::core {

const OptionNames<RemovalKind>& removalKindNames() {
    static const OptionNames<RemovalKind> names{{RemovalKind::Random, "random"},
                                                {RemovalKind::Adversarial, "adversarial"}};
    return names;
}

const char* toString(RemovalKind value) { return optionName(removalKindNames(), value); }

RemovalKind removalKindFromString(const std::string& name) {
    return parseOptionName(removalKindNames(), name, "removal");
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
    const std::vector<double> grid = parseGridText(text, GridSpacing::Linear, "ρ");
    for (double r : grid)
        if (!(r >= 0.0 && r < 1.0))
            throw std::invalid_argument("ρ grid needs every ρ in [0, 1) (A:B:K: 0 ≤ A ≤ B < 1): '" + text + "'");
    return grid;
}

} // namespace elab::core
