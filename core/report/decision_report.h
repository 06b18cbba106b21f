#pragma once
// The ε decision report (README "Decision report"): what a privacy board needs to review the
// choice of a mechanism and an ε on one dataset — the data and its provenance, the pipeline's
// privacy ledger, the mechanisms compared and their measured utility, the guarantee at the chosen ε
// in numbers and in words, what choosing ε on this data spent or assumed, the audit's verdict and
// how to reproduce it. The CLI (`epsilonlab-cli report`) and the GUI (File ▸ Decision report…) fill
// DecisionInputs from their own state and call the same functions, so both write the same report;
// report_html.h renders it as one self-contained HTML file and as blocks for the GUI's PDF writer.

#include "core/data/dataset.h"
#include "core/data/feature_bounds.h"
#include "core/learner/mechanism.h"
#include "core/learner/utility_metric.h"
#include "core/privacy/composition.h"
#include "core/report/report_chart.h"
#include "core/sweeps/utility_sweep.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace elab::core {

/// One mechanism's measured curve, as the Utility view or `utility --mechanism a,b,c` swept it.
struct ReportCurve {
    MechanismSpec spec;
    std::vector<SweepPoint> points;          ///< measured grid points, ascending ε
    std::optional<double> nonPrivate;        ///< its non-private reference level
    std::optional<SweepPoint> atChosen;      ///< measured at the chosen ε with every repetition (none: not measured)
    std::optional<double> verifiedTargetEps; ///< the ε it needs for the target, verified (verifyTargetEps)
    std::string error;                       ///< why it could not be swept ("": none)
};

/// One audited claim (the JSON of `epsilonlab-cli audit` or the Audit tab's result).
struct AuditLine {
    std::string mechanism;
    std::string method = "two-dataset";
    double eps = 0.0; ///< the claim audited
    double delta = 0.0;
    double epsLB = 0.0;          ///< the lower bound at the audit's confidence
    double maxCertifiable = 0.0; ///< the largest ε_LB this many runs can certify
    bool violated = false;
    std::string verdict;
};

struct DecisionInputs {
    const Dataset* train = nullptr; ///< the prepared training rows (their log: loading and preparation)
    const Dataset* test = nullptr;  ///< held-out rows (a test file or a split), or null
    double testFraction = 0.0;      ///< > 0: the test rows were split from the training file
    PublicBounds bounds;            ///< the public bounds the preparation was given (may be empty)
    UtilityMetric metric = UtilityMetric::TestAccuracy;
    int repeats = 0;
    std::vector<ReportCurve> curves; ///< the first is the mechanism chosen; the others were compared with it
    double chosenEps = 1.0;
    std::optional<double> target;
    SeedMode seedMode = SeedMode::Reproducible;
    std::optional<std::uint64_t> seed; ///< none for a private release
    std::vector<AuditLine> audit;
    std::string auditNote; ///< why there is no audit (when audit is empty)
    std::string version;
    std::string producedBy;                             ///< "epsilonlab-cli report" or "EpsilonLab (GUI)"
    std::string commandLine;                            ///< the exact command line ("" in the GUI)
    std::string settingsTitle;                          ///< "Options (JSON)" or "Session (JSON)"
    std::string settingsJson;                           ///< the options or the session, as JSON text
    std::vector<std::shared_ptr<const void>> keepAlive; ///< owners of train and test (the GUI's prepared data)
};

/// A labelled value of the dataset table.
struct ReportField {
    std::string name;
    std::string value;
};

struct DecisionReport {
    DecisionInputs in;
    std::vector<ReportField> dataset;              ///< name, files with SHA-256, rows, columns, task, schema, bounds
    std::vector<std::vector<std::string>> columns; ///< per source column: name, kind, levels, bounds
    std::vector<LedgerEntry> ledger;               ///< pipelineLedger(train->log): the guarantee's facts
    std::vector<PrivacyGuarantee> guarantees;      ///< per curve, at the chosen ε, as every report states it
    std::vector<std::string> plainWords;           ///< the chosen mechanism's guarantee in words
    ReportChart chart;
    std::vector<std::string> choice; ///< what choosing ε on this data spent or assumed
    int classes = 0;                 ///< K for the guarantee (0: binary or regression)
};

/// The guarantee of curve's mechanism at eps on train, as every report states it: the catalog's
/// guarantee through the pipeline (withPipeline), with the condition of an ε chosen on the data
/// and that of the seed mode.
PrivacyGuarantee reportGuarantee(const MechanismSpec& spec, const Dataset& train, double eps, SeedMode mode);

/// The report of in (train and at least one curve required; throws std::invalid_argument naming
/// what is missing).
DecisionReport makeDecisionReport(DecisionInputs in);

/// The audits in the JSON of `epsilonlab-cli audit` ({"audit": {...}} or {"audits": [...]}).
/// Throws std::invalid_argument naming the field that is missing or of the wrong type.
std::vector<AuditLine> auditLinesFromJson(const std::string& jsonText, const std::string& where);

} // namespace elab::core
