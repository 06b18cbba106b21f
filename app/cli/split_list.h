#pragma once
// "a,b,,c" → {"a", "b", "c"}: the comma lists of the CLI's options (empty items dropped).

#include <sstream>
#include <string>
#include <vector>

namespace elab::app {

inline std::vector<std::string> splitList(const std::string& text) {
    std::vector<std::string> items;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');)
        if (!item.empty())
            items.push_back(item);
    return items;
}

} // namespace elab::app
