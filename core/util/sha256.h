#pragma once
// SHA-256 (FIPS 180-4), for dataset provenance checksums.

#include <string>
#include <string_view>

namespace elab::core {

/// Lower-case hex digest of the bytes.
std::string sha256Hex(std::string_view bytes);

} // namespace elab::core
