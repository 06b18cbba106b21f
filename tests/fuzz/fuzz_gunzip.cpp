// libFuzzer target for gunzip (core/data/source_reader.h): any bytes give the decompressed
// text or a LoadError naming the source. A success must survive a round trip through zlib's
// own deflate, and sourceFromBytes must agree with gunzip. zlib itself is a system library
// and not instrumented; what is fuzzed here is the member, trailer and buffer logic around it.

#include "core/data/load_error.h"
#include "core/data/source_reader.h"
#include "tests/support/gzip_writer.h"

#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace {

[[noreturn]] void bug(const char* what) {
    std::fprintf(stderr, "fuzz_gunzip: %s\n", what);
    std::abort();
}

using elab::test::gzipBytes;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace elab::core;
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    try {
        const std::string out = gunzip(bytes, "fuzz.gz");
        if (!isGzip(bytes))
            bug("non-gzip input decompressed");
        if (gunzip(gzipBytes(out, 1), "again.gz") != out)
            bug("round trip differs");
        const RawSource raw = sourceFromBytes(bytes, "fuzz.gz");
        if (!raw.gzipped || raw.text != out || raw.storedBytes != size)
            bug("sourceFromBytes disagrees with gunzip");
    } catch (const LoadError& e) {
        if (e.source() != "fuzz.gz" && e.source() != "again.gz")
            bug("LoadError without the source name");
        if (e.source() == "again.gz")
            bug("zlib's own output rejected");
    } catch (const std::exception& e) {
        bug(e.what());
    }
    return 0;
}
