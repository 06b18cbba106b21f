#pragma once
// Bounds files (docs/MATH.md §1.4): the text of a file of public bounds in, PublicBounds or a
// LoadError that names the file, the line and what is wrong out. Nothing here touches a
// dataset; applying the bounds is core/data/feature_bounds.h.
//
// Formats, told apart by content (a first non-blank character '[' or '{' is JSON):
//  - CSV "column,lo,hi" (',', ';' or tab; a header line naming the three is optional; '#'
//    comments and blank lines skipped);
//  - JSON: an array of {"column", "lo", "hi"}, or an object {"columns": [...], "range":
//    "unit"|"symmetric", "source": text}, or {"name": [lo, hi], ...}.

#include "core/data/feature_bounds.h"

#include <string>
#include <string_view>

namespace elab::core {

/// Parses the text of a bounds file. The result's source is sourceName unless the JSON names
/// one. Throws LoadError naming sourceName, the line (CSV) and what is wrong (bad number,
/// lo ≥ hi, duplicate column, no column at all).
PublicBounds parseBounds(std::string_view text, const std::string& sourceName);

/// Reads and parses a bounds file. Throws LoadError (unreadable file, or as parseBounds).
PublicBounds loadBoundsFile(const std::string& path);

/// The bounds as the JSON object parseBounds reads ({"range", "source", "columns"}).
std::string boundsJsonText(const PublicBounds& bounds);

} // namespace elab::core
