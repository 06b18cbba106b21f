#pragma once
// RegionsProblem's state (core/regions/decision_regions.h), shared by its two source files.

#include "core/regions/decision_regions.h"

namespace elab::core {

struct RegionsProblem::Impl {
    RegionsSpec spec;
    std::vector<std::string> classNames;
    std::string axes[2];
    std::vector<ProcessingStep> log;
    double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
    Eigen::MatrixX2d trainPoints, testPoints;
    Eigen::VectorXi trainClass, testClass;
    /// The plane datasets after expansion and preparation (what the learner sees), and the grid's
    /// G² cell centres transformed the same way.
    Dataset train;
    std::optional<Dataset> test;
    FeatureMatrix grid;
    std::shared_ptr<const PreparedProblem> prepared;
    std::vector<std::shared_ptr<const LearnerNoise>> noises; ///< draw r's standard noise (fixed across ε)
};

} // namespace elab::core
