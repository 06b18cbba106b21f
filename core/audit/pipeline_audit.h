#pragma once
// The empirical privacy audit of the whole pipeline (docs/audit.md, "Auditing the whole
// pipeline"): D and D′ are two versions of the user's file that differ in one raw row
// (core/audit/input_neighbour.h), and every run does what the CLI does with a file — load and
// encode the text, split (with the run's public split seed, the same for D and D′), bounds,
// preprocess, prepare the mechanism, fit — with its own noise stream (seed, neighbour, run).
// Each file is parsed once; every run prepares its own copy. Privately estimated bounds take
// their noise from the split seed (prepareExperimentData): with them the split seed is drawn
// per run too, as the noise is (splitSeedVaried).
//
// The attacker sees what is released: the model's structure (its feature names, class names and
// number of outputs, hence its number of parameters) and its predictions. A structure that
// differs between D and D′ tells them apart with certainty: each run's score is then 1 when its
// structure is D′'s, else 0. Otherwise the score is Fisher's linear discriminant of the model's
// scores on a fixed probe set (the unit rows e_1..e_p of the encoded space: a linear model's
// parameters), w = Σ⁻¹(μ′ − μ), fitted on shadow runs — S more runs on each neighbour with noise
// streams of their own, the attacker's simulations — and applied to the T audited runs, which
// auditBound (Clopper–Pearson, core/audit/audit_bound.h) turns into ε_LB as for the mechanism
// audit: threshold chosen on the first half, evaluated on the second.
//
// The claim tested is the pipeline's guarantee on D (PreparedProblem::guarantee; none if a
// processing step is logged as leaking), read for the neighbours' adjacency: a row changed is a
// replace-one neighbour (an add/remove guarantee covers it by group privacy, (2ε, (1 + e^ε)δ)); an
// added row is covered by an add/remove guarantee only.

#include "core/audit/input_neighbour.h"
#include "core/audit/mechanism_audit.h"
#include "core/data/data_preparation.h"
#include "core/data/dataset_loader.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace elab::core {

/// The user's file as the audit reads it.
struct PipelineInput {
    std::string spec;            ///< the path or builtin:NAME it was read from (in the loader's messages)
    LoadOptions options;         ///< as the CLI's data options give them
    std::string text;            ///< its content (datasetText)
    std::optional<Dataset> test; ///< a test file, loaded (then the preparation does not split)
};

/// Test-only replacements of pipeline steps, to show that the audit catches an unstable step
/// (each nullptr in every real audit: the product's own step).
struct PipelineStages {
    /// Loads the text of one neighbour (default: loadDatasetText with the input's spec and options).
    std::function<Dataset(const std::string& text)> load;
    /// Split, subsample and preprocess (default: prepareExperimentData).
    std::function<PreparedData(Dataset train, std::optional<Dataset> test, const DataPreparation&, std::uint64_t seed)>
        prepare;
    /// Adjusts the mechanism of one neighbour's training set (default: none).
    std::function<void(MechanismSpec&, const Dataset& train)> mechanism;
};

struct PipelineAuditSpec {
    InputNeighbourKind neighbour = InputNeighbourKind::Level;
    std::optional<long long> row; ///< the file's data row to change (default: chosen, input_neighbour.h)
    DataPreparation preparation;  ///< split, subsample, preprocessing, as the CLI's options give them
    std::uint64_t splitSeed = 1;  ///< the run's public seed of the split: the same for D and D′
    /// Mechanism, claimed ε, T, α, noise seed, threads, executor, noiseDivisor (the canary fields
    /// are not used).
    AuditSpec audit;
    /// Shadow runs per neighbour, on streams of their own, that the score's discriminant is
    /// fitted on (0: as many as audit.runs).
    int shadowRuns = 0;
    PipelineStages stages;

    std::string validate() const;
};

/// One neighbour as the pipeline prepared it (before any run).
struct PipelineSide {
    Index fileRows = 0;          ///< rows as loaded
    Index trainRows = 0;         ///< training rows after the split and subsample
    Index features = 0;          ///< encoded features after preprocessing
    int outputs = 0;             ///< score columns of a model (1: binary)
    std::string classes;         ///< "B, M"
    std::uint64_t structure = 0; ///< hash of the released model's structure (feature and class names, outputs)
};

struct PipelineAuditResult {
    InputNeighbour neighbour;                    ///< textD and textDPrime cleared
    PrivacyGuarantee guarantee;                  ///< the pipeline's guarantee on D at ε
    std::vector<std::string> leakingSteps;       ///< D's processing steps logged as leaking ("name: detail")
    bool claimed = false;                        ///< a guarantee covers these neighbours
    double claimedEps = 0.0, claimedDelta = 0.0; ///< what it says for them
    std::string claimBasis;                      ///< how the claim reads for them, or why there is none
    PipelineSide d, dPrime;
    /// Training rows (features and label, as a multiset) of one side that the other lacks, both
    /// ways: 1 or 2 when one row's change moves no other row.
    Index differingTrainRows = 0;
    bool structural = false; ///< the released structures differ: the score is which one a run shows
    int probes = 0;          ///< rows of the probe set
    int shadowRuns = 0;      ///< per neighbour, to fit the score on
    /// The split seed varied per run: privately estimated bounds take their noise from it.
    bool splitSeedVaried = false;
    std::vector<double> scoresD, scoresDPrime;
    AuditBound bound;
    int runs = 0;
    double alpha = 0.05;
    bool stopped = false;
    double seconds = 0.0;
    bool violated() const { return claimed && !stopped && bound.epsLB > claimedEps; }
};

/// Audits the pipeline on the input's file; sink (if any) receives every audited run's score once
/// all runs are done (a score needs the shadow runs). Throws std::invalid_argument (bad spec, a neighbour the
/// file cannot give, data the mechanism cannot train on) or LoadError.
PipelineAuditResult runPipelineAudit(const PipelineInput& input, const PipelineAuditSpec& spec,
                                     RunContext* ctx = nullptr, const AuditRunSink& sink = {});

/// The verdict in plain words.
std::string pipelineAuditVerdict(const PipelineAuditResult& result);

} // namespace elab::core
