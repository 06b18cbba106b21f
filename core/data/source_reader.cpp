#include "core/data/source_reader.h"

#include "core/data/load_error.h"
#include "core/util/sha256.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>
#include <system_error>

namespace elab::core {

namespace {

// Output produced per inflate() call: small enough that a stop request or a progress update
// is seen within a few milliseconds, large enough that the call overhead does not show.
constexpr std::size_t kInflateSlice = std::size_t{4} << 20;
// Deflate cannot expand more than about 1032:1; a gzip trailer claiming more is corrupt, so
// the reservation made from it is capped rather than trusted.
constexpr std::size_t kMaxDeflateRatio = 1032;

struct InflateGuard {
    z_stream* stream;
    ~InflateGuard() { inflateEnd(stream); }
};

// A first guess at the decompressed size: the ISIZE trailer of the last member (size mod
// 2^32, RFC 1952 §2.3.1), capped by what deflate can produce, plus a little slack so that an
// exact guess never fills the buffer before zlib has read the trailer (which would double
// it). Too small only costs a doubling or two: concatenated members, files over 4 GiB.
std::size_t initialCapacity(std::string_view bytes) {
    const std::size_t floor = std::max<std::size_t>(bytes.size() * 4, 4096);
    if (bytes.size() < 18) // smaller than an empty member: the hint would be garbage
        return floor;
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data() + bytes.size() - 4);
    const std::size_t isize =
        std::size_t{p[0]} | (std::size_t{p[1]} << 8) | (std::size_t{p[2]} << 16) | (std::size_t{p[3]} << 24);
    const std::size_t cap = bytes.size() * kMaxDeflateRatio;
    return isize > 0 && isize <= cap ? isize + 64 : std::min(floor, cap);
}

// strerror() is not thread-safe; loads run on worker threads.
std::string errnoMessage() {
    return errno != 0 ? std::error_code(errno, std::generic_category()).message() : std::string("unknown error");
}

// Bytes after the last member: zero padding (tape blocks, some tools) is ignored as gzip
// does; anything else means the file is not what it claims to be.
bool onlyZeros(std::string_view bytes) {
    return std::all_of(bytes.begin(), bytes.end(), [](char c) { return c == '\0'; });
}

} // namespace

bool isGzip(std::string_view bytes) {
    return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
           static_cast<unsigned char>(bytes[1]) == 0x8b;
}

std::string gunzip(std::string_view bytes, const std::string& sourceName, RunContext* ctx) {
    z_stream zs{};
    // 16 + MAX_WBITS: gzip wrapper only (header and CRC-32/ISIZE trailer checked by zlib).
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
        throw LoadError(sourceName, 0, 0, "cannot initialise zlib");
    InflateGuard guard{&zs};

    std::string out;
    out.resize(initialCapacity(bytes));
    std::size_t produced = 0;
    std::size_t consumed = 0;
    int members = 1;
    constexpr std::size_t kMaxChunk = std::numeric_limits<uInt>::max();

    for (;;) {
        if (produced == out.size())
            out.resize(out.size() * 2);
        const std::size_t inChunk = std::min(bytes.size() - consumed, kMaxChunk);
        const std::size_t outChunk = std::min(out.size() - produced, kInflateSlice);
        // zlib's API is not const-correct; it never writes through next_in.
        zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data() + consumed));
        zs.avail_in = static_cast<uInt>(inChunk);
        zs.next_out = reinterpret_cast<Bytef*>(out.data() + produced);
        zs.avail_out = static_cast<uInt>(outChunk);

        const int rc = inflate(&zs, Z_NO_FLUSH);
        consumed += inChunk - zs.avail_in;
        produced += outChunk - zs.avail_out;

        if (rc == Z_STREAM_END) {
            const std::string_view rest = bytes.substr(consumed);
            if (rest.empty())
                break;
            if (isGzip(rest)) {
                // RFC 1952 §2.2: a gzip file is a series of members; zcat concatenates them.
                inflateReset(&zs);
                ++members;
                continue;
            }
            if (onlyZeros(rest))
                break;
            throw LoadError(sourceName, 0, 0,
                            "corrupt gzip data: " + std::to_string(rest.size()) +
                                " bytes of trailing garbage after member " + std::to_string(members));
        }
        if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT || rc == Z_STREAM_ERROR)
            throw LoadError(sourceName, 0, 0,
                            std::string("corrupt gzip data in member ") + std::to_string(members) + ": " +
                                (zs.msg ? zs.msg : "invalid deflate stream"));
        if (rc == Z_MEM_ERROR)
            throw std::bad_alloc();
        // Z_OK or Z_BUF_ERROR: no progress with input left means the output slice was full;
        // no input left before the end of the stream means the file was cut short.
        if (consumed == bytes.size() && zs.avail_out > 0)
            throw LoadError(sourceName, 0, 0,
                            "truncated gzip data: the stream ends after " + std::to_string(bytes.size()) +
                                " bytes, inside member " + std::to_string(members));
        if (ctx) {
            ctx->throwIfStopped();
            ctx->progress(static_cast<double>(consumed) / static_cast<double>(bytes.size()), "decompressing");
        }
    }
    out.resize(produced);
    // Drop a large over-reservation (corrupt or over-estimated hint) so the text does not
    // hold memory it never uses; a close guess is kept as is to avoid the copy.
    if (out.capacity() > produced + produced / 4 + 4096)
        out.shrink_to_fit();
    return out;
}

RawSource sourceFromBytes(std::string bytes, const std::string& sourceName, RunContext* ctx) {
    RawSource raw;
    raw.path = sourceName;
    raw.storedBytes = bytes.size();
    raw.sha256 = sha256Hex(bytes);
    if (isGzip(bytes)) {
        raw.gzipped = true;
        raw.text = gunzip(bytes, sourceName, ctx);
    } else {
        raw.text = std::move(bytes);
    }
    return raw;
}

RawSource readSource(const std::string& path, RunContext* ctx) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw LoadError(path, 0, 0, "cannot open: is a directory");

    struct FileCloser {
        void operator()(std::FILE* f) const { std::fclose(f); }
    };
    errno = 0;
    std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
    if (!file)
        throw LoadError(path, 0, 0, "cannot open: " + errnoMessage());

    // The size is only a hint: pipes and /proc files report 0, and a file may grow while
    // it is read, so reading goes on until EOF; a one-byte probe keeps a file of exactly
    // the expected size from doubling the buffer.
    const std::uintmax_t hint = std::filesystem::file_size(path, ec);
    std::string bytes;
    bytes.resize(!ec && hint > 0 ? static_cast<std::size_t>(hint) : std::size_t{1} << 16);
    std::size_t size = 0;
    for (;;) {
        size += std::fread(bytes.data() + size, 1, bytes.size() - size, file.get());
        if (size < bytes.size())
            break;
        const int probe = std::fgetc(file.get());
        if (probe == EOF)
            break;
        bytes.resize(bytes.size() * 2);
        bytes[size++] = static_cast<char>(probe);
        if (ctx)
            ctx->throwIfStopped();
    }
    if (std::ferror(file.get()))
        throw LoadError(path, 0, 0, "cannot read: " + errnoMessage());
    bytes.resize(size);
    return sourceFromBytes(std::move(bytes), path, ctx);
}

} // namespace elab::core
