// libFuzzer target for the public schema file parser (core/data/public_schema.h). Only
// LoadError may escape parseSchema; any other exception, a crash or a sanitizer report is a
// bug. An accepted schema must be valid, and written back with schemaFileText it must parse
// to the same schema (the file the Data tab and `info --write-schema` write is read again).

#include "core/data/load_error.h"
#include "core/data/public_schema.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <string_view>

namespace {

using namespace elab::core;

[[noreturn]] void bug(const std::string& what) {
    std::fprintf(stderr, "fuzz_schema: %s\n", what.c_str());
    std::abort();
}

bool hasLineBreak(const PublicSchema& s) {
    const auto breaks = [](const std::string& t) { return t.find_first_of("\r\n") != std::string::npos; };
    if (breaks(s.labelColumn))
        return true;
    for (const std::string& c : s.classes)
        if (breaks(c))
            return true;
    for (const SchemaColumn& c : s.categorical) {
        if (breaks(c.name))
            return true;
        for (const std::string& l : c.levels)
            if (breaks(l))
                return true;
    }
    return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    PublicSchema schema;
    try {
        schema = parseSchema(text, "fuzz.schema");
    } catch (const LoadError&) {
        return 0;
    } catch (const std::exception& e) {
        bug(std::string("parseSchema threw a non-LoadError: ") + e.what());
    }
    if (schema.empty())
        bug("an empty schema was accepted");
    if (const std::string problem = schema.validate(); !problem.empty())
        bug("an invalid schema was accepted: " + problem);
    if (schema.source != "fuzz.schema")
        bug("the source is not the file name");
    std::string written;
    try {
        written = schemaFileText(schema);
    } catch (const std::invalid_argument& e) {
        if (!hasLineBreak(schema))
            bug(std::string("schemaFileText refused a schema without line breaks: ") + e.what());
        return 0;
    } catch (const std::exception& e) {
        bug(std::string("schemaFileText threw: ") + e.what());
    }
    try {
        const PublicSchema again = parseSchema(written, "fuzz.schema");
        if (!(again == schema))
            bug("the written schema reads back differently:\n" + written);
    } catch (const std::exception& e) {
        bug(std::string("the written schema does not parse: ") + e.what() + "\n" + written);
    }
    return 0;
}
