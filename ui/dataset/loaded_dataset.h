#pragma once
// A loaded dataset as the GUI holds it: the immutable dataset (shared with later analyses),
// its summary and the request that produced it. Everything here is computed on the worker
// thread; the GUI only reads it.

#include "core/data/dataset.h"
#include "core/data/dataset_summary.h"
#include "ui/dataset/load_request.h"

#include <QMetaType>

#include <memory>

namespace elab::ui {

struct LoadedDataset {
    std::shared_ptr<const core::Dataset> data;
    /// The test file (LoadRequest::testSpec), loaded with the same options and bounds; the
    /// views measure their test metrics on it instead of a held-out fraction. Null: none.
    std::shared_ptr<const core::Dataset> test;
    core::DatasetSummary summary;
    /// Regression: histogram of the target values (empty counts for classification).
    core::Histogram targetHistogram;
    /// Row norms binned on log10(norm) (lo/hi in log10 units), rows with norm 0 left out.
    core::Histogram logNormHistogram;
    LoadRequest request;
    /// core::boundsHint of the data and the request's bounds ("" when none is due).
    std::string boundsHint;
    double seconds = 0.0; ///< wall time of load + summary

    bool isValid() const { return data != nullptr; }
};

} // namespace elab::ui

Q_DECLARE_METATYPE(elab::ui::LoadedDataset)
