#pragma once
// The dataset every part of the engine consumes: features, targets, column schema,
// provenance and the log of what loading and preprocessing did to it.

#include "core/data/feature_matrix.h"
#include "core/util/shared_vector.h"

#include <cstdint>
#include <string>
#include <vector>

namespace elab::core {

enum class TaskKind { Binary, Multiclass, Regression };

const char* toString(TaskKind kind);

/// Targets of n rows.
/// - Binary: classIndex ∈ {0, 1}; values = −1 for class 0, +1 for class 1 (margin losses).
///   classNames = {negative, positive}.
/// - Multiclass: classIndex ∈ {0..C−1}; values empty (the class indices are the labels: a
///   second copy as doubles was half a two-column matrix; read them as labels with Labels).
/// - Regression: values are the real targets; classIndex and classNames are empty.
struct Targets {
    TaskKind kind = TaskKind::Binary;
    /// Shared by the copies of these targets until one of them is changed (mutate()).
    SharedVector<Eigen::VectorXd> values;
    SharedVector<Eigen::VectorXi> classIndex;
    std::vector<std::string> classNames;

    Index size() const { return kind == TaskKind::Multiclass ? classIndex.size() : values.size(); }
    bool isClassification() const { return kind != TaskKind::Regression; }
    int classCount() const { return static_cast<int>(classNames.size()); }
    /// Rows per class, indexed by class (classification only).
    std::vector<Index> classCounts() const;
    Targets selectRows(const std::vector<Index>& rows) const;
    /// Builds classification targets from per-row class indices and names (2 names: Binary,
    /// unless asMulticlass: two classes as a multiclass target, one model per class).
    static Targets classification(Eigen::VectorXi classIndex, std::vector<std::string> names,
                                  bool asMulticlass = false);
    static Targets regression(Eigen::VectorXd values);
};

enum class ColumnKind { Numeric, Categorical, Label, Ignored };

const char* toString(ColumnKind kind);

/// One column of the source file (CSV) and the feature columns it became.
struct ColumnInfo {
    std::string name;
    ColumnKind kind = ColumnKind::Numeric;
    std::size_t missing = 0;         ///< missing cells in the source, before any policy
    std::vector<std::string> levels; ///< categorical: the one-hot levels, in feature order
    Index firstFeature = -1;         ///< first feature column produced (-1: none)
    Index featureCount = 0;          ///< 1 numeric, levels.size() categorical, 0 label
};

struct Provenance {
    std::string path;   ///< file path, or "builtin:NAME"
    std::string format; ///< "csv", "libsvm", "generated"
    bool gzipped = false;
    std::string sha256;       ///< of the bytes as stored (compressed if gzipped); empty if generated
    std::uintmax_t bytes = 0; ///< size as stored
};

/// One entry of the processing log shown in the Data tab.
struct ProcessingStep {
    std::string name;          ///< short, e.g. "clip rows"
    std::string detail;        ///< what it did, with numbers
    bool leaksPrivacy = false; ///< uses the private data itself (docs/MATH.md §1): turns the guarantee off
    /// Stable under replace-one only (docs/MATH.md §7): one row changed, added or removed in the
    /// input can replace one row of the output (a fixed-size subsample). An add/remove guarantee
    /// after it holds as its replace-one equivalent.
    bool replaceOneOnly = false;
    /// ε this step spent on the training rows (privately estimated bounds; 0: none). The
    /// dataset's preparationEpsilon is what guarantees add; this names the step that spent it.
    double epsilon = 0.0;
};

struct Dataset {
    std::string name;
    FeatureMatrix features;
    Targets targets;
    /// One per feature column ("workclass=Private"), or empty when the names are implicit
    /// (LIBSVM: "f1".."fp" — not stored, a 100-byte file may name feature 10⁷).
    std::vector<std::string> featureNames;
    std::vector<ColumnInfo> columns; ///< source columns (CSV; empty for LIBSVM)
    Provenance provenance;
    std::vector<ProcessingStep> log;
    /// ε the preparation spent on these training rows (privately estimated bounds): every
    /// guarantee of a model trained on them adds it (basic composition). 0: nothing spent.
    double preparationEpsilon = 0.0;

    Index rows() const { return features.rows(); }
    Index featureCount() const { return features.cols(); }
    /// featureNames[j], or "f<j+1>" when names are implicit.
    std::string featureName(Index j) const;
    /// Empty if consistent; otherwise what is wrong (sizes, names, labels).
    std::string validate() const;
    Dataset selectRows(const std::vector<Index>& rows) const;
};

} // namespace elab::core
