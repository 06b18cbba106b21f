#pragma once
// A resumable run's checkpoint (issue 15; docs/scale-out.md): a header with the canonical
// settings (core/scale/run_settings.h) and their SHA-256, then one line per finished cell,
//   <stage> <index> <payload> *<FNV-1a 64 of the text before " *", 16 hex digits>
// appended with one write() each as the cell completes. The header is written to a temporary
// file renamed into place, so a killed process leaves either no file or a readable one; a cell
// line cut short by a kill (no newline, or a wrong checksum) is ignored and its cell computed
// again. A checkpoint written with other settings is refused, naming the settings that differ.

#include "core/scale/run_settings.h"

#include <cstddef>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

namespace elab::core {

/// A checkpoint that belongs to other settings (or is no checkpoint). Exit status 2 in the CLI.
class CheckpointMismatch : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

using CellKey = std::pair<std::string, std::size_t>; ///< (stage, cell index)

struct CheckpointContents {
    RunSettings settings;
    std::string fingerprint;              ///< as stored in the header
    std::map<CellKey, std::string> cells; ///< payloads of the intact cell lines (first wins)
    std::size_t ignoredLines = 0;         ///< lines with a wrong checksum or cut short
    std::size_t intactBytes = 0;          ///< length up to the end of the last complete line
};

class CheckpointFile {
public:
    /// Opens path for a run with these settings: creates it (header only) when missing, else
    /// reads it and keeps its cells. Throws CheckpointMismatch when its settings differ (the
    /// message names them) or it is not a checkpoint, std::runtime_error when it cannot be
    /// read or written. A cut-short last line is cut off so that appends start on a new line.
    CheckpointFile(std::string path, const RunSettings& settings);
    ~CheckpointFile();
    CheckpointFile(const CheckpointFile&) = delete;
    CheckpointFile& operator=(const CheckpointFile&) = delete;

    const std::string& path() const { return m_path; }
    /// The cells read at opening.
    const CheckpointContents& contents() const { return m_contents; }
    /// Appends one finished cell (one write, no fsync: survives a killed process, not a power
    /// cut, whose torn line is then ignored). Thread: any (serialised).
    void append(const std::string& stage, std::size_t index, const std::string& payload);

    /// Reads a checkpoint without judging its settings. Throws CheckpointMismatch when the
    /// header is not a checkpoint's, std::runtime_error when the file cannot be read.
    static CheckpointContents read(const std::string& path);
    /// The text of one cell line, newline included (also the MPI wire format).
    static std::string cellLine(const std::string& stage, std::size_t index, const std::string& payload);
    /// Parses a cell line without its newline; false if cut short or its checksum is wrong.
    static bool parseCellLine(const std::string& line, CellKey& key, std::string& payload);

private:
    std::string m_path;
    CheckpointContents m_contents;
    int m_fd = -1;
    std::mutex m_mutex;
};

} // namespace elab::core
