#include "core/data/builtin_catalog.h"

namespace elab::core {

namespace {
const char* const kSklearnLicence =
    "BSD-3-Clause (Debian python3-sklearn 1.2.1+dfsg-1); upstream credit in LICENSES.md";
}

const std::vector<BuiltinInfo>& builtinCatalog() {
    static const std::vector<BuiltinInfo> catalog = {
        {"breast_cancer", "breast_cancer_wdbc.csv", "label", TaskKind::Binary,
         "Breast Cancer Wisconsin (Diagnostic): 569 × 30, malignant vs benign", kSklearnLicence,
         {"malignant", "benign"}},
        {"iris", "iris.csv", "label", TaskKind::Multiclass,
         "Iris (Fisher 1936): 150 × 4, three species", kSklearnLicence,
         {"setosa", "versicolor", "virginica"}},
        {"wine", "wine.csv", "label", TaskKind::Multiclass,
         "Wine recognition: 178 × 13, three cultivars", kSklearnLicence,
         {"cultivar_0", "cultivar_1", "cultivar_2"}},
        {"penguins", "penguins.csv", "species", TaskKind::Multiclass,
         "Palmer penguins: 344 rows (NA present), three species", "CC0 (Debian r-cran-palmerpenguins 0.1.1-1)",
         {}},
        {"digits", "digits.csv", "label", TaskKind::Multiclass,
         "Handwritten digits 8×8: 1,797 × 64, ten classes", kSklearnLicence, {}},
        {"diabetes", "diabetes.csv", "target", TaskKind::Regression,
         "Diabetes (Efron et al. 2004): 442 × 10, regression", kSklearnLicence, {}},
        {"blobs", "", "", TaskKind::Multiclass, "Generated: Gaussian blobs in 2-D (seeded)",
         "generated", {}},
        {"moons", "", "", TaskKind::Binary, "Generated: two interleaving half-moons (seeded)",
         "generated", {}},
        {"xor", "", "", TaskKind::Binary, "Generated: XOR quadrants (seeded)", "generated", {}},
        {"circles", "", "", TaskKind::Binary, "Generated: two concentric circles (seeded)",
         "generated", {}},
    };
    return catalog;
}

const BuiltinInfo* findBuiltin(const std::string& name) {
    for (const auto& info : builtinCatalog())
        if (info.name == name)
            return &info;
    return nullptr;
}

} // namespace elab::core
