#include "core/scale/run_settings.h"

#include "core/util/sha256.h"

#include <map>
#include <sstream>
#include <stdexcept>

namespace elab::core {

namespace {

std::string escaped(const std::string& value) {
    std::string out;
    for (char c : value) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

std::string unescaped(const std::string& value) {
    std::string out;
    for (std::size_t k = 0; k < value.size(); ++k) {
        if (value[k] == '\\' && k + 1 < value.size()) {
            out += value[k + 1] == 'n' ? '\n' : value[k + 1];
            ++k;
        } else {
            out += value[k];
        }
    }
    return out;
}

} // namespace

std::string RunSettings::canonicalText() const {
    std::string text;
    for (const auto& [name, value] : entries)
        text += name + "=" + escaped(value) + "\n";
    return text;
}

std::string RunSettings::fingerprint() const { return sha256Hex(canonicalText()); }

std::vector<std::string> RunSettings::differences(const RunSettings& other, const std::string& here,
                                                  const std::string& there) const {
    const std::map<std::string, std::string> mine(entries.begin(), entries.end());
    const std::map<std::string, std::string> theirs(other.entries.begin(), other.entries.end());
    std::vector<std::string> out;
    auto describe = [&](const std::string& name, const std::string* a, const std::string* b) {
        out.push_back(name + ": " + (a ? "'" + *a + "'" : std::string("(none)")) + " " + here + ", " +
                      (b ? "'" + *b + "'" : std::string("(none)")) + " " + there);
    };
    for (const auto& [name, value] : entries) {
        const auto it = theirs.find(name);
        if (it == theirs.end())
            describe(name, &value, nullptr);
        else if (it->second != value)
            describe(name, &value, &it->second);
    }
    for (const auto& [name, value] : other.entries)
        if (!mine.count(name))
            describe(name, nullptr, &value);
    return out;
}

RunSettings RunSettings::fromCanonicalText(const std::string& text) {
    RunSettings settings;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        const auto eq = line.find('=');
        if (eq == std::string::npos)
            throw std::runtime_error("malformed setting line '" + line + "'");
        settings.add(line.substr(0, eq), unescaped(line.substr(eq + 1)));
    }
    return settings;
}

} // namespace elab::core
