#pragma once
// SHA-256 (FIPS 180-4), for dataset provenance checksums.

#include <string>
#include <string_view>

namespace elab::core {

/// Lower-case hex digest of the bytes. With the x86 SHA extensions when the CPU has them
/// (found at run time), else portable code: the same digest.
std::string sha256Hex(std::string_view bytes);

/// The portable code alone (for tests against the SHA-extension path).
std::string sha256HexPortable(std::string_view bytes);
/// Whether sha256Hex uses the x86 SHA extensions on this CPU.
bool sha256UsesShaExtensions();

} // namespace elab::core
