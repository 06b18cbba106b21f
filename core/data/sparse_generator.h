#pragma once
// A seeded sparse, text-like binary classification set of any size (issue 15: a million rows
// live): `builtin:sparse?rows=1000000&features=1000&active=14`. Each row switches on `active`
// distinct binary features drawn from a Zipf(1) law over `features` columns (a few common
// features, a long tail, as words in documents or Adult's one-hot columns: a9a has 13.9 per
// row); the label is the sign of a planted linear score plus Gaussian noise:
//     s(x) = Σ_{j on} w_j / √active,   w_j ~ N(0, 1) (drawn once per seed),
//     y = 1  iff  s(x) − s̄ + noise·z > 0,  z ~ N(0, 1),  s̄ the mean score of the rows drawn
// (centred: the common features would otherwise put most rows in one class).
// Stored sparse (CSR): rows·active non-zeros. Same seed → same data on every platform.

#include "core/data/dataset.h"
#include "core/data/generators.h"
#include "core/util/run_context.h"

namespace elab::core {

/// Throws std::invalid_argument (features < 2, active outside [1, features], rows < 2);
/// reports progress and honours stop through ctx (may be null).
Dataset generateSparse(const GeneratorOptions& options, RunContext* ctx = nullptr);

} // namespace elab::core
