#pragma once
// The settings that determine a run's results, as ordered (name, value) pairs: the canonical
// description at the head of a checkpoint (core/scale/checkpoint_file.h). Names are the
// command's own (the command, its options with their effective values, a data file's
// SHA-256); what does not change the results (threads, output path, the checkpoint itself,
// MPI ranks) is left out by whoever builds them.

#include <string>
#include <utility>
#include <vector>

namespace elab::core {

struct RunSettings {
    std::vector<std::pair<std::string, std::string>> entries; ///< in a fixed order

    void add(std::string name, std::string value) { entries.emplace_back(std::move(name), std::move(value)); }
    /// One "name=value" line per entry (value with '\\' and newlines escaped).
    std::string canonicalText() const;
    /// Lower-case hex SHA-256 of canonicalText().
    std::string fingerprint() const;
    /// What differs from other, one item per setting: "--eps: 0.1:10:6 here, 0.1:10:5 there";
    /// a setting only one side has reads "(none)" on the other. Empty when equal.
    std::vector<std::string> differences(const RunSettings& other, const std::string& here,
                                         const std::string& there) const;
    /// Parses canonicalText(). Throws std::runtime_error on a line without '='.
    static RunSettings fromCanonicalText(const std::string& text);
};

} // namespace elab::core
