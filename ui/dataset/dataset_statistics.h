#pragma once
// Extra statistics the Data tab draws that core::summarize() does not provide: the target
// histogram of a regression, and row norms binned on a log scale (norms of raw data span
// decades, and the clip bound 1 must stay visible next to them). Pure functions, computed
// on the loading worker thread; callable from any thread.

#include "core/data/dataset.h"
#include "core/data/dataset_summary.h"

namespace elab::ui {

/// Equal-width histogram of a real target over [min, max]; empty for classification.
core::Histogram targetHistogram(const core::Targets& targets, int bins);

/// Histogram of log10(norm) over the rows with a positive norm: lo and hi are log10 units.
/// Empty counts when no row has a positive norm.
core::Histogram log10NormHistogram(const Eigen::VectorXd& norms, int bins);

} // namespace elab::ui
