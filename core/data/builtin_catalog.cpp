#include "core/data/builtin_catalog.h"

#include "core/data/bounds_file.h"

#include <stdexcept>

namespace elab::core {

namespace {
const char* const kSklearnLicence =
    "BSD-3-Clause (Debian python3-sklearn 1.2.1+dfsg-1); upstream credit in LICENSES.md";
}

const std::vector<BuiltinInfo>& builtinCatalog() {
    static const std::vector<BuiltinInfo> catalog = {
        {"breast_cancer",
         "breast_cancer_wdbc.csv",
         "label",
         TaskKind::Binary,
         "Breast Cancer Wisconsin (Diagnostic): 569 × 30, malignant vs benign",
         kSklearnLicence,
         {"malignant", "benign"}},
        {"iris",
         "iris.csv",
         "label",
         TaskKind::Multiclass,
         "Iris (Fisher 1936): 150 × 4, three species",
         kSklearnLicence,
         {"setosa", "versicolor", "virginica"}},
        {"wine",
         "wine.csv",
         "label",
         TaskKind::Multiclass,
         "Wine recognition: 178 × 13, three cultivars",
         kSklearnLicence,
         {"cultivar_0", "cultivar_1", "cultivar_2"}},
        {"penguins",
         "penguins.csv",
         "species",
         TaskKind::Multiclass,
         "Palmer penguins: 344 rows (NA present), three species",
         "CC0 (Debian r-cran-palmerpenguins 0.1.1-1)",
         {}},
        {"digits",
         "digits.csv",
         "label",
         TaskKind::Multiclass,
         "Handwritten digits 8×8: 1,797 × 64, ten classes",
         kSklearnLicence,
         {}},
        {"diabetes",
         "diabetes.csv",
         "target",
         TaskKind::Regression,
         "Diabetes (Efron et al. 2004): 442 × 10, regression",
         kSklearnLicence,
         {}},
        {"blobs", "", "", TaskKind::Multiclass, "Generated: Gaussian blobs in 2-D (seeded)", "generated", {}},
        {"moons", "", "", TaskKind::Binary, "Generated: two interleaving half-moons (seeded)", "generated", {}},
        {"xor", "", "", TaskKind::Binary, "Generated: XOR quadrants (seeded)", "generated", {}},
        {"circles", "", "", TaskKind::Binary, "Generated: two concentric circles (seeded)", "generated", {}},
        {"sparse",
         "",
         "",
         TaskKind::Binary,
         "Generated: sparse text-like binary features, planted linear labels (seeded; any size)",
         "generated",
         {"negative", "positive"}},
    };
    return catalog;
}

PublicBounds documentedBounds(const std::string& name) {
    PublicBounds out;
    if (name == "digits") {
        for (int r = 0; r < 8; ++r)
            for (int c = 0; c < 8; ++c)
                out.columns.push_back({"pixel_" + std::to_string(r) + "_" + std::to_string(c), 0.0, 16.0});
        out.source = "documented ranges of builtin:digits (UCI optdigits: each pixel an integer in 0..16)";
    } else if (name == "penguins") {
        out.columns.push_back({"year", 2007.0, 2009.0});
        // Set by hand, wider than any adult bird of the three species; the data is public, so
        // these demonstrate public bounds rather than claim to have been chosen blind.
        out.columns.push_back({"bill_length_mm", 30.0, 60.0});
        out.columns.push_back({"bill_depth_mm", 13.0, 22.0});
        out.source = "documented ranges of builtin:penguins (palmerpenguins: study years 2007–2009; bill length "
                     "30–60 mm and depth 13–22 mm set by hand for the three species)";
    } else if (name == "iris") {
        // UCI iris.names, "Summary Statistics" (petal length 1.0–6.9 cm, width 0.1–2.5 cm), rounded outward.
        out.columns.push_back({"petal_length_cm", 1.0, 7.0});
        out.columns.push_back({"petal_width_cm", 0.0, 2.5});
        out.source = "documented ranges of builtin:iris (UCI iris.names summary statistics, rounded outward)";
    } else if (name == "breast_cancer") {
        // The dataset's documentation (UCI WDBC, scikit-learn's breast cancer description, "Summary
        // Statistics": radius (worst) 7.93–36.04, concave points (worst) 0.0–0.291, radius (mean)
        // 6.981–28.11, texture (mean) 9.71–39.28), rounded outward.
        out.columns.push_back({"mean_radius", 6.0, 29.0});
        out.columns.push_back({"mean_texture", 9.0, 40.0});
        out.columns.push_back({"worst_radius", 7.0, 37.0});
        out.columns.push_back({"worst_concave_points", 0.0, 0.3});
        out.source = "documented ranges of builtin:breast_cancer (its documentation's summary statistics, rounded "
                     "outward)";
    } else if (name == "wine") {
        // The dataset's documentation (scikit-learn's wine description, "Summary Statistics":
        // flavanoids 0.34–5.08, proline 278–1680), rounded outward.
        out.columns.push_back({"flavanoids", 0.0, 5.5});
        out.columns.push_back({"proline", 250.0, 1700.0});
        out.source = "documented ranges of builtin:wine (its documentation's summary statistics, rounded outward)";
    }
    return out;
}

PublicSchema documentedSchema(const std::string& name, const std::string& labelColumn, std::optional<TaskKind> task) {
    const BuiltinInfo* info = findBuiltin(name);
    PublicSchema full;
    if (!info || info->fileName.empty())
        return full;
    const auto codes = [](int count) {
        std::vector<std::string> v;
        for (int k = 0; k < count; ++k)
            v.push_back(std::to_string(k));
        return v;
    };
    std::string where;
    full.labelColumn = info->labelColumn;
    if (name == "breast_cancer") {
        full.classes = codes(2);
        where = "WDBC: diagnosis malignant (0) or benign (1)";
    } else if (name == "iris" || name == "wine") {
        full.classes = codes(3);
        where = name == "iris" ? "three species, coded 0..2" : "three cultivars, coded 0..2";
    } else if (name == "digits") {
        full.classes = codes(10);
        where = "UCI optdigits: the digits 0..9";
    } else if (name == "penguins") {
        full.classes = {"Adelie", "Chinstrap", "Gentoo"};
        full.categorical = {{"island", {"Biscoe", "Dream", "Torgersen"}}, {"sex", {"female", "male"}}};
        where = "palmerpenguins: three species, three islands, two sexes";
    } else if (name == "diabetes") {
        full.task = TaskKind::Regression;
        where = "a regression target (disease progression)";
    }
    full.source = "documented schema of builtin:" + name + " (" + where + ")";
    if (name == "penguins" && !labelColumn.empty() && labelColumn != info->labelColumn)
        full.categorical.push_back({"species", full.classes}); // a text column: its levels stay documented
    PublicSchema out = schemaForLabel(full, labelColumn.empty() ? info->labelColumn : labelColumn);
    if (task == TaskKind::Regression && !out.classes.empty()) { // a forced regression: the classes do not apply
        out.classes.clear();
        out.labelColumn.clear();
    }
    if (out.empty())
        return {};
    out.source = full.source; // the documentation covers every label it lists
    return out;
}

PublicBounds boundsFromOption(const std::string& option, const std::string& dataSpec) {
    if (option != "builtin")
        return loadBoundsFile(option);
    const std::string prefix = "builtin:";
    const std::string name = dataSpec.rfind(prefix, 0) == 0
                                 ? dataSpec.substr(prefix.size(), dataSpec.find('?') - prefix.size())
                                 : std::string();
    PublicBounds bounds = documentedBounds(name);
    if (bounds.empty())
        throw std::invalid_argument("--bounds builtin: " +
                                    (name.empty() ? std::string("the dataset is not a built-in one")
                                                  : "builtin:" + name + " documents no ranges") +
                                    " (builtin:digits, penguins, iris, wine and breast_cancer do)");
    return bounds;
}

const BuiltinInfo* findBuiltin(const std::string& name) {
    for (const auto& info : builtinCatalog())
        if (info.name == name)
            return &info;
    return nullptr;
}

} // namespace elab::core
