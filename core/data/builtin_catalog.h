#pragma once
// The built-in datasets: embedded CSVs (licences in resources/datasets/LICENSES.md) and
// seeded 2-D generators for teaching.

#include "core/data/dataset.h"

#include <string>
#include <vector>

namespace elab::core {

struct BuiltinInfo {
    std::string name;        ///< spec is "builtin:" + name
    std::string fileName;    ///< embedded file; empty for generated sets
    std::string labelColumn; ///< for embedded CSVs
    TaskKind task = TaskKind::Binary;
    std::string description;
    std::string licence;
    /// Display names of the classes by index (classification), if the file codes them 0..C−1.
    std::vector<std::string> classNames;
};

const std::vector<BuiltinInfo>& builtinCatalog();
/// nullptr if unknown.
const BuiltinInfo* findBuiltin(const std::string& name);

/// The name of the dataset the GUI and run.sh open first.
inline const char* defaultBuiltin() { return "breast_cancer"; }

} // namespace elab::core
