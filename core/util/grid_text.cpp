#include "core/util/grid_text.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace elab::core {

std::vector<double> spacedGrid(double a, double b, int k, GridSpacing spacing) {
    std::vector<double> grid;
    for (int i = 0; i < k; ++i) {
        const double t = k == 1 ? 0.0 : static_cast<double>(i) / (k - 1);
        grid.push_back(k == 1 ? a : spacing == GridSpacing::Logarithmic ? a * std::pow(b / a, t) : a + (b - a) * t);
    }
    return grid;
}

std::vector<double> parseGridText(const std::string& text, GridSpacing spacing, const std::string& name) {
    const std::string where = " in " + name + " grid '" + text + "'";
    auto toDouble = [&](const std::string& s) {
        std::size_t used = 0;
        double v = 0.0;
        try {
            v = std::stod(s, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (s.empty() || used != s.size())
            throw std::invalid_argument("not a number: '" + s + "'" + where);
        return v;
    };
    std::vector<double> grid;
    if (const auto c1 = text.find(':'); c1 != std::string::npos) {
        const auto c2 = text.find(':', c1 + 1);
        if (c2 == std::string::npos)
            throw std::invalid_argument("expected A:B:K" + where);
        const double a = toDouble(text.substr(0, c1)), b = toDouble(text.substr(c1 + 1, c2 - c1 - 1));
        const double kd = toDouble(text.substr(c2 + 1));
        const int k = static_cast<int>(kd);
        const bool logarithmic = spacing == GridSpacing::Logarithmic;
        if (k < 1 || kd != k || !(b >= a) || (logarithmic && !(a > 0.0)))
            throw std::invalid_argument(name + " grid A:B:K needs " + (logarithmic ? "0 < A ≤ B" : "A ≤ B") +
                                        " and an integer K ≥ 1: '" + text + "'");
        const std::vector<double> points = spacedGrid(a, b, k, spacing);
        grid.insert(grid.end(), points.begin(), points.end());
    } else {
        std::size_t pos = 0;
        while (pos <= text.size()) {
            const std::size_t comma = std::min(text.find(',', pos), text.size());
            grid.push_back(toDouble(text.substr(pos, comma - pos)));
            pos = comma + 1;
        }
        std::sort(grid.begin(), grid.end());
    }
    return grid;
}

} // namespace elab::core
