#pragma once
// Reading a data file into memory: gzip detected by its magic bytes (1f 8b), not by the
// name; the SHA-256 is of the bytes as stored so it matches the dataset READMEs.

#include "core/util/run_context.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace elab::core {

struct RawSource {
    std::string path; ///< as given
    std::string text; ///< decompressed content
    bool gzipped = false;
    std::string sha256; ///< hex digest of the stored bytes
    std::uintmax_t storedBytes = 0;
};

/// True if the bytes start with the gzip magic number.
bool isGzip(std::string_view bytes);

/// Decompresses gzip data (concatenated members allowed). Throws LoadError naming
/// sourceName on corrupt or truncated input.
std::string gunzip(std::string_view bytes, const std::string& sourceName, RunContext* ctx = nullptr);

/// Reads a file (throws LoadError if it cannot be opened), hashes it, and gunzips it
/// when the magic bytes say so.
RawSource readSource(const std::string& path, RunContext* ctx = nullptr);

/// Same for bytes already in memory (embedded resources); sourceName is used in messages.
RawSource sourceFromBytes(std::string bytes, const std::string& sourceName, RunContext* ctx = nullptr);

} // namespace elab::core
