#include "ui/views/regions/regions_settings.h"

#include "core/data/builtin_catalog.h"

#include <algorithm>
#include <cmath>

namespace elab::ui {

namespace {

/// A built-in dataset's teaching plane (README, "Decision regions"). The pairs are the ones the
/// datasets' own documentation and the textbook plots use: public knowledge, so choosing them
/// spends no privacy, where a PCA plane would read the private rows. A line cannot separate XOR
/// or circles: they get the quadratic expansion. The real datasets are in physical units (cm,
/// mm, mg/L) far from norm 1, so clipping alone squashes every row to its direction and even the
/// non-private model fails (penguins: 0.82 training accuracy): their plane's two columns are
/// mapped to [0, 1] by the datasets' documented ranges (core::documentedBounds), public bounds
/// that read no row, so the default picture keeps its guarantee (standardising would leak).
struct PlaneDefault {
    const char* dataset;
    const char* featureA; ///< null: the first two columns
    const char* featureB;
    bool quadratic;
    bool documentedRanges; ///< map the plane's columns by core::documentedBounds (unless the data is bounded)
    bool pca = false;      ///< binary sparse features: any two of them give four points; PCA (leaks, said)
    /// Ranges the file's schema gives for the plane's columns (a CSV that is not built in), or null.
    core::PublicBounds (*schemaRanges)() = nullptr;
    bool prefix = false; ///< dataset names the file's name starts with (adult.csv, adult_train.csv, …)
};

/// The Adult census file's schema: age in years, education_num the code (1–16) of its sixteen
/// education levels. Facts of the schema, not read off any row.
core::PublicBounds adultSchemaRanges() {
    core::PublicBounds b;
    b.columns.push_back({"age", 0.0, 100.0});
    b.columns.push_back({"education_num", 1.0, 16.0});
    b.source = "the Adult census schema (age in years 0–100; education_num the code 1–16 of its 16 levels)";
    return b;
}

constexpr PlaneDefault kPlaneDefaults[] = {
    {"moons", nullptr, nullptr, false, false},
    {"blobs", nullptr, nullptr, false, false},
    {"xor", nullptr, nullptr, true, false},
    {"circles", nullptr, nullptr, true, false},
    {"iris", "petal_length_cm", "petal_width_cm", false, true},
    {"penguins", "bill_length_mm", "bill_depth_mm", false, true},
    {"wine", "flavanoids", "proline", false, true},
    {"sparse", nullptr, nullptr, false, false, true},
    // Chosen once on these public datasets (two columns that separate the classes), not from the
    // user's rows: the choice reads nothing private. Digits' first two pixels are always blank.
    {"digits", "pixel_2_5", "pixel_5_2", false, true},
    {"breast_cancer", "worst_radius", "worst_concave_points", false, true},
    {"adult", "age", "education_num", false, false, false, adultSchemaRanges, true},
};

int featureIndex(const core::Dataset& d, const char* name) {
    for (std::size_t j = 0; j < d.featureNames.size(); ++j)
        if (d.featureNames[j] == name)
            return static_cast<int>(j);
    return -1;
}

} // namespace

const core::OptionNames<RegionsFill>& regionsFillNames() {
    static const core::OptionNames<RegionsFill> names{
        {RegionsFill::Majority, "majority"}, {RegionsFill::Draw, "draw"}, {RegionsFill::Agreement, "agreement"}};
    return names;
}

std::string RegionsSettings::validate() const {
    if (std::string e = mechanism.validate(); !e.empty())
        return e;
    if (std::string e = preprocess.validate(); !e.empty())
        return e;
    if (plane == core::PlaneKind::Features && (featureA < 0 || featureB < 0 || featureA == featureB))
        return "choose two different features for the plane";
    if (!(testFraction >= 0.0 && testFraction < 1.0))
        return "the test fraction must be in [0, 1)";
    if (draws < 1 || draws > kMaxDraws)
        return "draws must be between 1 and 20";
    if (gridSize < kMinGrid || gridSize > kMaxGrid)
        return "the grid must have between 32 and 512 cells per side";
    if (!(currentEps > 0.0))
        return "the current ε must be > 0";
    if (fillDraw < 0 || fillDraw >= draws)
        return "the draw shown must be one of the draws";
    return {};
}

core::RegionsSpec RegionsSettings::toSpec() const {
    core::RegionsSpec spec;
    spec.plane.kind = plane;
    spec.plane.featureA = featureA;
    spec.plane.featureB = featureB;
    spec.plane.quadratic = quadratic;
    spec.preparation.testFraction = testFraction;
    spec.preparation.preprocess = preprocess;
    spec.mechanism = mechanism;
    spec.draws = draws;
    spec.gridSize = gridSize;
    spec.seed = seed;
    spec.maxRows = kPictureRows;
    return spec;
}

bool RegionsSettings::sameProblem(const RegionsSettings& o) const {
    const bool samePlane = plane == o.plane && quadratic == o.quadratic &&
                           (plane == core::PlaneKind::Pca || (featureA == o.featureA && featureB == o.featureB));
    return samePlane && TrainingChoice::operator==(o) && draws == o.draws && gridSize == o.gridSize;
}

void adaptRegionsToDataset(RegionsSettings& s, const core::Dataset& dataset) {
    s.plane = core::PlaneKind::Features;
    s.featureA = 0;
    s.featureB = dataset.featureCount() > 1 ? 1 : 0;
    s.quadratic = false;
    s.preprocess.standardise = false;
    s.preprocess.bounds = {};
    // Bounds already applied at load (the Data tab's) are not applied twice.
    const bool bounded = std::any_of(dataset.log.begin(), dataset.log.end(), [](const core::ProcessingStep& step) {
        return step.name == "public bounds" || step.name == "private bounds";
    });
    for (const PlaneDefault& d : kPlaneDefaults) {
        if (d.prefix ? dataset.name.rfind(d.dataset, 0) != 0 : dataset.name != d.dataset)
            continue;
        s.quadratic = d.quadratic;
        if (d.documentedRanges && !bounded)
            s.preprocess.bounds = core::documentedBounds(d.dataset);
        if (d.schemaRanges && !bounded)
            s.preprocess.bounds = d.schemaRanges();
        if (d.pca)
            s.plane = core::PlaneKind::Pca;
        if (d.featureA) {
            const int a = featureIndex(dataset, d.featureA), b = featureIndex(dataset, d.featureB);
            if (a >= 0 && b >= 0) {
                s.featureA = a;
                s.featureB = b;
            }
        }
    }
}

} // namespace elab::ui
