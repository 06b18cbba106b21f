// libFuzzer target for the public bounds file parser (core/data/bounds_file.h; CSV and JSON,
// told apart by content). Only LoadError may escape parseBounds; any other exception, a crash
// or a sanitizer report is a bug. Accepted bounds must be valid (named columns, finite
// lo < hi, no duplicate), and their JSON text (boundsJsonText, what a saved session holds)
// must parse to the same bounds.

#include "core/data/bounds_file.h"
#include "core/data/load_error.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>

namespace {

using namespace elab::core;

[[noreturn]] void bug(const std::string& what) {
    std::fprintf(stderr, "fuzz_bounds: %s\n", what.c_str());
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    PublicBounds bounds;
    try {
        bounds = parseBounds(text, "fuzz.bounds");
    } catch (const LoadError&) {
        return 0;
    } catch (const std::exception& e) {
        bug(std::string("parseBounds threw a non-LoadError: ") + e.what());
    }
    if (bounds.empty())
        bug("bounds without a column were accepted");
    if (const std::string problem = bounds.validate(); !problem.empty())
        bug("invalid bounds were accepted: " + problem);
    if (bounds.source.empty())
        bug("no source");
    try {
        const std::string json = boundsJsonText(bounds);
        const PublicBounds again = parseBounds(json, "other");
        if (!(again == bounds))
            bug("the JSON text reads back differently:\n" + json);
    } catch (const std::exception& e) {
        bug(std::string("the bounds do not round-trip through JSON: ") + e.what());
    }
    return 0;
}
