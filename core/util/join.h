#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace elab::core {

/// The items with `separator` between them ("a, b, c").
inline std::string joined(const std::vector<std::string>& items, std::string_view separator = ", ") {
    std::string s;
    for (const std::string& item : items) {
        if (!s.empty())
            s += separator;
        s += item;
    }
    return s;
}

} // namespace elab::core
