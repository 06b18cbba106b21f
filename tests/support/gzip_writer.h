#pragma once
// gzip in memory with zlib's deflate (16 + MAX_WBITS: gzip wrapper), independent of the code
// under test. Qt-free, for unit tests and fuzz targets. Throws std::runtime_error on failure.

#include <zlib.h>

#include <stdexcept>
#include <string>

namespace elab::test {

inline std::string gzipBytes(const std::string& data, int level = Z_DEFAULT_COMPRESSION) {
    z_stream zs{};
    if (deflateInit2(&zs, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throw std::runtime_error("deflateInit2 failed");
    std::string out(deflateBound(&zs, static_cast<uLong>(data.size())) + 64, '\0');
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    zs.avail_in = static_cast<uInt>(data.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    const int rc = deflate(&zs, Z_FINISH);
    deflateEnd(&zs);
    if (rc != Z_STREAM_END)
        throw std::runtime_error("deflate did not finish");
    out.resize(zs.total_out);
    return out;
}

} // namespace elab::test
