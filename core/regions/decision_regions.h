#pragma once
// Decision regions of a private classifier in a 2-D plane (issue 11; docs/MATH.md §6).
//
// From a loaded dataset: a plane — two chosen features, or the first two principal components of
// the training rows (data-dependent: "leaks", labelled like the other such steps) — optionally
// expanded quadratically (x₁, x₂, x₁², x₁x₂, x₂²), then the usual preparation (standardise if
// asked, intercept, row norm: clip by default) with statistics from the training rows. The
// selected mechanism — any learner of the mechanism catalog (core/mechanisms/mechanism_catalog.h),
// so DP-SGD networks plug in unchanged — is trained in that plane at ε for R noise draws, each
// draw's standard noise fixed across ε (as in the utility sweep, so boundaries move continuously
// with the slider), and the non-private model. Every model is evaluated on a G×G grid covering the
// data with a margin: per cell each draw's class and the agreement of the draws.
//
// Two steps, for a live slider: prepareRegions (plane, transform, grid, learner and noise: once
// per dataset and settings) and evaluateRegions (per ε: R fits, grid scores, boundaries — fast).
// Deterministic for 1 or N threads (parallel over draws, each writing its own slot); cancellable.

#include "core/data/data_preparation.h"
#include "core/data/dataset.h"
#include "core/learner/fit_options.h"
#include "core/learner/mechanism.h"
#include "core/learner/prepared_problem.h"
#include "core/optim/newton_cg.h"
#include "core/regions/marching_squares.h"
#include "core/util/option_names.h"

#include <Eigen/Core>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace elab::core {

enum class PlaneKind { Features, Pca };
const OptionNames<PlaneKind>& planeKindNames(); ///< "features", "pca"

struct PlaneSpec {
    PlaneKind kind = PlaneKind::Features;
    Index featureA = 0; ///< PlaneKind::Features: the two feature columns (distinct, < p)
    Index featureB = 1;
    bool quadratic = false; ///< expand to (x₁, x₂, x₁², x₁x₂, x₂²) before the preparation
};

struct RegionsSpec {
    PlaneSpec plane;
    /// Split / subsample / preprocessing, applied in the plane (after projection and expansion);
    /// preprocess.intercept defaults to on here: a boundary through the origin teaches nothing.
    DataPreparation preparation = [] {
        DataPreparation p;
        p.preprocess.intercept = true;
        return p;
    }();
    MechanismSpec mechanism;
    int draws = 10;         ///< R, 1..20
    int gridSize = 256;     ///< G, 16..1024
    double margin = 0.1;    ///< grid extent: the data's bounding box grown by this fraction per side
    std::uint64_t seed = 1; ///< noise draw r from the learner's stream (seed, r); also the split
    FitOptions solver;
    int threads = 0; ///< worker threads over the draws, 0 = all cores (results identical for any)
    /// > 0: a dataset (or given test set) with more rows is first cut to this many, seeded and
    /// uniform, and the picture is trained and drawn on those (logged: the noise is then scaled
    /// for that n, not the whole data's). 0: all rows.
    long long maxRows = 0;

    /// "" if valid; else why (names the field).
    std::string validate() const;
};

/// One trained model's picture: the class of every grid cell (row-major, y from bottom to top:
/// cell (ix, iy) at index iy·G + ix, centre x = x0 + (ix + ½)·(x1 − x0)/G), its boundaries
/// (marching squares on the score margin, or exact for lines), and its accuracy in the plane.
struct RegionsModel {
    std::vector<std::uint8_t> cellClass; ///< class index 0..K−1 (binary: 0 = negative, 1 = positive)
    std::vector<Polyline> boundaries;
    double trainAccuracy = 0.0;
    double testAccuracy = 0.0; ///< NaN without a test set
    bool stopped = false;      ///< cut short by the stop token: do not use
};

/// The prepared plane: everything that does not depend on ε.
class RegionsProblem {
public:
    /// Throws std::invalid_argument (bad spec, feature index out of range, regression target,
    /// fewer than 2 rows, a learner that cannot train on the plane data).
    RegionsProblem(const Dataset& train, const std::optional<Dataset>& test, const RegionsSpec& spec);
    ~RegionsProblem();

    const RegionsSpec& spec() const;
    int classes() const; ///< K ≥ 2 (binary: 2)
    const std::vector<std::string>& classNames() const;
    std::string axisName(int axis) const; ///< "sepal_length", "PC1 (72 % of variance)"
    /// The plane's preparation steps (projection, PCA, expansion, standardise, intercept, norm),
    /// each with leaksPrivacy set as in docs/MATH.md §1.
    const std::vector<ProcessingStep>& log() const;
    /// The grid's extent in plane coordinates.
    double x0() const;
    double x1() const;
    double y0() const;
    double y1() const;
    /// Points in plane coordinates (before expansion and preparation) and their class indices.
    const Eigen::MatrixX2d& trainPoints() const;
    const Eigen::VectorXi& trainClass() const;
    const Eigen::MatrixX2d& testPoints() const; ///< 0 rows without a test set
    const Eigen::VectorXi& testClass() const;
    /// The learner in the plane (guarantee, capabilities).
    const PreparedProblem& prepared() const;

    struct Impl;
    const Impl& impl() const { return *m_impl; }

private:
    std::unique_ptr<Impl> m_impl;
};

struct RegionsResult {
    double eps = 0.0;                ///< +∞: the non-private model only (draws empty)
    std::vector<RegionsModel> draws; ///< R private models at eps
    RegionsModel nonPrivate;
    std::vector<std::uint8_t> majority; ///< per cell: the class most draws predict (ties: lowest index)
    std::vector<float> agreement;       ///< per cell: fraction of draws predicting the majority class
    double trainAccuracyMean = 0.0, trainAccuracySd = 0.0; ///< over draws (sd: n−1; 0 for R = 1)
    double testAccuracyMean = 0.0, testAccuracySd = 0.0;   ///< NaN without a test set
    /// Per training / test point: the fraction of draws that misclassify it.
    Eigen::VectorXd trainMisclassified, testMisclassified;
    /// Of one draw at eps, with the condition of the picture (each draw; the R draws together:
    /// core::composedDraws(guarantee, R)).
    PrivacyGuarantee guarantee;
    /// The fitted models (draw r at index r), kept for warm starts of the next ε.
    std::vector<std::shared_ptr<const TrainedModel>> fits;
    bool stopped = false; ///< cancelled: partial, do not show
};

/// The regions at eps (> 0; +∞ for the non-private model alone). warm: the previous result of
/// the same problem (its fits warm-start these where the learner allows it; may be null).
/// Parallel over draws (TBB), deterministic; checks stop between fits.
RegionsResult evaluateRegions(const RegionsProblem& problem, double eps, std::stop_token stop = {},
                              const RegionsResult* warm = nullptr);

} // namespace elab::core
