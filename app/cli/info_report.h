#pragma once
// `epsilonlab-cli info`: what a dataset holds, as JSON (stable field names) or as text.

#include "core/data/dataset.h"
#include "core/data/dataset_summary.h"

#include <nlohmann/json.hpp>

#include <string>

namespace elab::app {

nlohmann::ordered_json infoJson(const core::Dataset& data, const core::DatasetSummary& summary);
std::string infoText(const core::Dataset& data, const core::DatasetSummary& summary);

} // namespace elab::app
