#pragma once
// One private training: solve the mechanism's perturbed problem (docs/MATH.md §3) with
// Newton-CG and add its output noise.

#include "core/data/feature_matrix.h"
#include "core/learner/mechanism.h"
#include "core/model/labels.h"
#include "core/optim/newton_cg.h"
#include "core/util/noise.h"

#include <limits>
#include <stop_token>

namespace elab::core {

class PrefixTree;

struct PrivateFit {
    Eigen::VectorXd theta;     ///< released model (with output noise, if any)
    Eigen::VectorXd minimiser; ///< minimiser of the perturbed objective (before output noise)
    NewtonCgResult solver;
    PrivacyGuarantee guarantee;
    /// (1/n) Σ_i ℓ(x_iᵀθ, y_i) of the released θ on the training rows, from the solver's last
    /// evaluation (at the minimiser), when θ is the minimiser (no output noise); NaN otherwise.
    double trainLoss = std::numeric_limits<double>::quiet_NaN();
};

/// X (rows clipped to ‖x‖ ≤ 1 for the guarantee to hold), y ∈ {−1, +1} for margin losses.
/// warmStart: a previous minimiser (e.g. at the neighbouring ε), or nullptr for 0.
/// gram: gramMatrix(X) for the preconditioner, computed once per dataset by the caller (or
/// nullptr / empty: Jacobi). rowScale: constantRowValues(X.csrRows()) computed once by the caller,
/// or nullptr (LinearObjective computes it). prefixTree: PrefixTree of X's rows (binary rows),
/// or nullptr (core/model/prefix_tree.h: the same preconditioner in fewer updates).
/// Thread: any; reentrant.
PrivateFit fitPrivate(const FeatureMatrix& X, Labels y, const MechanismSpec& spec, double eps, const NoiseDraw& noise,
                      const Eigen::VectorXd* warmStart = nullptr, std::stop_token stop = {},
                      const NewtonCgOptions& options = {}, const Eigen::MatrixXd* gram = nullptr,
                      const Eigen::VectorXd* rowScale = nullptr, const PrefixTree* prefixTree = nullptr);

/// The same fit on merged rows (core/model/merged_rows.h, docs/MATH.md §2.1): rows.X the
/// distinct rows of the training set, plus the count of +1 labels of each (labels ±1, margin
/// losses), rowScale: constantRowValues(rows.X.csrRows()) or nullptr. The mechanism sees the
/// n = Σ count rows of the training set; the objective is the same function of θ, so the fit is
/// fitPrivate's on the unmerged rows up to rounding. gram: gramMatrix of the unmerged rows.
struct MergedRows;
PrivateFit fitPrivate(const MergedRows& rows, const Eigen::VectorXd& plus, const MechanismSpec& spec, double eps,
                      const NoiseDraw& noise, const Eigen::VectorXd* warmStart = nullptr, std::stop_token stop = {},
                      const NewtonCgOptions& options = {}, const Eigen::MatrixXd* gram = nullptr,
                      const Eigen::VectorXd* rowScale = nullptr, const PrefixTree* prefixTree = nullptr);

} // namespace elab::core
