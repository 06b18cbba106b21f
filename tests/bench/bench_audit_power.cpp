// Benchmark: the power of every audit method (docs/audit.md, "Honest power"). For each private
// mechanism and claimed ε ∈ {2, 8}: ε_LB by the two-dataset audit, the one-run audit and (DP-SGD)
// the white-box audit, for the correct mechanism and two broken versions — noise ÷ 10 and noise
// assuming half the sensitivity (white-box: the trainer clips at 2C and draws N(0, σ²C²); the
// other methods: trained at 2ε, their only test-only knob, which halves the noise scale of the
// mechanisms whose scale is ∝ Δ/ε) — with runs and seconds.
//   Settings "power": 100 rows of two moons plus `empty` features no row uses, rows clipped,
//   intercept; Λ = 100 for the ERM mechanisms and the Gaussian classifier; DP-SGD softmax-linear,
//   full batch, 5 epochs. Two-dataset: moons plus one unused feature (the Gaussian classifier's
//   fits grow as (p + 1)²), T = 30,000 per neighbour (a perfect attacker certifies 8.3); one-run
//   and white-box (4,000 runs): 40 unused features.
//   Settings "digits": DP-SGD at its defaults on the digits CSV given as the first argument (the
//   CLI's builtin:digits), two-dataset T = 200, one run, white-box 400 runs in both views.
// Part "pipeline": the whole-pipeline audit (one label flipped, 400 rows of
// tests/support/split_data.h, split 0.3, Λ = 100; T = 300 per neighbour at ε = 2, 30,000 at ε = 8,
// DP-SGD at ε = 8 in part "pipeline-dpsgd") with the product's split and with a split whose test
// rows depend on the label counts — "a split that moves other rows" — for every mechanism.
// Part "many": the two-dataset audit of the ERM mechanisms and DP-SGD on the power set with
// T = 200,000 per neighbour (a perfect attacker certifies 10.2).
// Part "worst-case" ("worst-case-many": T = 200,000): the two-dataset audit of every mechanism but DP-SGD on
// the worst-case pair of tests/support/audit_data.h, Huber loss, T = 30,000 per neighbour.
// Usage: bench_audit_power [digits.csv] [threads]
// [power|digits|many|worst-case|worst-case-many|pipeline|pipeline-dpsgd|all]. Prints a Markdown table (an audit that
// refuses its settings: its message); appends JSON lines to EPSILONLAB_BENCH_OUT.

#include "core/audit/mechanism_audit.h"
#include "core/audit/one_run_audit.h"
#include "core/audit/pipeline_audit.h"
#include "core/audit/whitebox_dpsgd_audit.h"
#include "core/data/dataset_loader.h"
#include "core/data/generators.h"
#include "core/data/preprocess.h"
#include "core/learner/sweep_data.h"
#include "core/mechanisms/mechanism_catalog.h"
#include "tests/support/audit_data.h"
#include "tests/support/split_data.h"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <functional>
#include <string>

using namespace elab::core;

namespace {

MechanismSpec powerSpec(MechanismKind kind, Index rows) {
    MechanismSpec spec;
    selectMechanism(spec, kind);
    spec.model.lambda = 100.0;
    spec.sgd.hidden = 0;
    spec.sgd.epochs = 5;
    spec.sgd.batchSize = static_cast<int>(rows);
    return spec;
}

struct Version {
    const char* name;
    double noiseDivisor; // the two-dataset and one-run audits: trained at ε·this
    double clipMultiplier;
};
// "sensitivity ÷ 2": white-box clips at 2C (noise unchanged); the others train at 2ε.
constexpr Version kVersions[] = {{"correct", 1.0, 1.0}, {"noise ÷ 10", 10.0, 1.0}, {"sensitivity ÷ 2", 2.0, 2.0}};

std::ofstream* g_out = nullptr;

void report(const std::string& setting, MechanismKind kind, double eps, const std::string& method, const Version& v,
            long long runs, double epsLB, double most, double seconds) {
    std::printf("| %s | %s | %g | %s | %s | %lld | %.3f%s | %.3f | %.1f s |\n", setting.c_str(), toString(kind), eps,
                method.c_str(), v.name, runs, epsLB, epsLB > eps ? " (violated)" : "", most, seconds);
    std::fflush(stdout);
    *g_out << "{\"bench\":\"audit_power\",\"setting\":\"" << setting << "\",\"mechanism\":\"" << toString(kind)
           << "\",\"eps\":" << eps << ",\"method\":\"" << method << "\",\"version\":\"" << v.name
           << "\",\"runs\":" << runs << ",\"eps_lb\":" << epsLB << ",\"max_certifiable\":" << most
           << ",\"seconds\":" << seconds << "}\n";
}

void refused(const std::string& setting, MechanismKind kind, double eps, const std::string& method, const Version& v,
             const std::string& why) {
    std::printf("| %s | %s | %g | %s | %s | – | refused: %s | | |\n", setting.c_str(), toString(kind), eps,
                method.c_str(), v.name, why.c_str());
    std::fflush(stdout);
}

/// The two-dataset audit of every version; `adjust` completes the spec (the worst-case pair's
/// canary row and Gaussian fit). The Gaussian fit, when asked for, is reported as its own method.
void twoDataset(const std::string& setting, const SweepData& data, const MechanismSpec& mech, double eps, int runs,
                int threads, const std::function<void(AuditSpec&)>& adjust = {}) {
    for (const Version& v : kVersions) {
        AuditSpec spec;
        spec.mechanism = mech;
        spec.eps = eps;
        spec.runs = runs;
        spec.threads = threads;
        spec.noiseDivisor = v.noiseDivisor;
        if (adjust)
            adjust(spec);
        AuditResult r;
        try {
            r = runAudit(data, spec);
        } catch (const std::exception& e) {
            refused(setting, mech.kind, eps, "two-dataset", v, e.what());
            continue;
        }
        report(setting, mech.kind, eps, "two-dataset", v, 2LL * runs, r.bound.epsLB, r.bound.maxCertifiable, r.seconds);
        if (r.gaussian) // the same runs, the parametric bound (no most-certifiable: it has no ceiling)
            report(setting, mech.kind, eps,
                   r.gaussian->shapeRejected ? "Gaussian fit (shape rejected)" : "Gaussian fit", v, 2LL * runs,
                   r.gaussian->epsLB, 0.0, 0.0);
    }
}

/// The two-dataset audit on the worst-case pair (tests/support/audit_data.h): Huber loss, the
/// last row as the canary (replace-one), every ERM mechanism and the Gaussian classifier.
void worstCase(double eps, int runs, int threads) {
    const Dataset rows = elab::test::worstCasePair(100);
    const SweepData data = sweepDataOf(rows);
    for (MechanismKind kind : privateMechanisms()) {
        if (kind == MechanismKind::Dpsgd)
            continue; // add/remove: the white-box audit is its worst case
        MechanismSpec mech = powerSpec(kind, 100);
        mech.model.loss = Loss(LossKind::HuberSvm, 0.1);
        twoDataset("worst-case pair", data, mech, eps, runs, threads, [&](AuditSpec& spec) {
            spec.canaryRow = data.trainX.rows() - 1;
            spec.gaussianFit = true;
        });
    }
}

void oneRun(const std::string& setting, const SweepData& data, const MechanismSpec& mech, double eps, int threads) {
    for (const Version& v : kVersions) {
        OneRunAuditSpec spec;
        spec.mechanism = mech;
        spec.eps = eps;
        spec.threads = threads;
        spec.noiseDivisor = v.noiseDivisor;
        OneRunAuditResult r;
        try {
            r = runOneRunAudit(data, spec);
        } catch (const std::exception& e) {
            refused(setting, mech.kind, eps, "one-run", v, e.what());
            continue;
        }
        report(setting, mech.kind, eps, "one-run (m = " + std::to_string(r.bound.canaries) + ")", v, 1, r.bound.epsLB,
               r.bound.maxCertifiable, r.seconds);
    }
}

void whitebox(const std::string& setting, const SweepData& data, const MechanismSpec& mech, double eps, int runs,
              WhiteboxView view, int threads) {
    for (const Version& v : kVersions) {
        WhiteboxAuditSpec spec;
        spec.mechanism = mech;
        spec.eps = eps;
        spec.runs = runs;
        spec.threads = threads;
        spec.view = view;
        spec.noiseDivisor = v.clipMultiplier > 1.0 ? 1.0 : v.noiseDivisor;
        spec.clipMultiplier = v.clipMultiplier;
        const WhiteboxAuditResult r = runWhiteboxAudit(data, spec);
        report(setting, mech.kind, eps,
               std::string("white-box ") + toString(view) + " (" + std::to_string(r.canaries.size()) + " coords)", v,
               runs, r.bound.epsLB, r.bound.maxCertifiable, r.seconds);
    }
}

void pipeline(MechanismKind kind, double eps, int runs, int threads) {
    PipelineInput in;
    in.spec = "segments.csv";
    in.options.schema.labelColumn = "label";
    in.options.schema.classes = {"no", "yes"};
    in.options.schema.source = "the benchmark's declaration";
    in.options.findSchema = false;
    in.text = elab::test::segmentsCsv(400, 11);
    for (bool broken : {false, true}) {
        PipelineAuditSpec spec;
        spec.neighbour = InputNeighbourKind::Label;
        spec.preparation.testFraction = 0.3;
        spec.preparation.preprocess.intercept = true;
        spec.splitSeed = 1;
        selectMechanism(spec.audit.mechanism, kind);
        spec.audit.mechanism.model.lambda = 100.0; // as the power set
        spec.audit.eps = eps;
        spec.audit.runs = runs;
        spec.audit.seed = 5;
        spec.audit.threads = threads;
        if (broken)
            spec.stages.prepare = elab::test::labelCountSplit;
        const PipelineAuditResult r = runPipelineAudit(in, spec);
        const Version v{broken ? "split moving rows" : "correct", 1.0, 1.0};
        report("pipeline (" + std::to_string(r.differingTrainRows) + " rows differ, claim " +
                   std::to_string(r.claimedEps).substr(0, 4) + ")",
               kind, eps, "pipeline", v, 2LL * spec.audit.runs, r.bound.epsLB, r.bound.maxCertifiable, r.seconds);
    }
}

} // namespace

int main(int argc, char** argv) {
    const std::string digitsPath = argc > 1 ? argv[1] : "";
    const int threads = argc > 2 ? std::atoi(argv[2]) : 0;
    const std::string part = argc > 3 ? argv[3] : "all";
    std::ofstream out(EPSILONLAB_BENCH_OUT, std::ios::app);
    g_out = &out;
    std::printf("| setting | mechanism | claimed ε | method | version | runs | ε_LB | most certifiable | time |\n");
    std::printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    std::fflush(stdout);
    const Dataset rareRows = elab::test::moonsWithEmptyColumns(100, 1),
                  wideRows = elab::test::moonsWithEmptyColumns(100, 40);
    const SweepData rare = sweepDataOf(rareRows); // SweepData refers to the datasets
    const SweepData wide = sweepDataOf(wideRows);
    if (part == "pipeline") {
        for (MechanismKind kind : privateMechanisms())
            pipeline(kind, 2.0, 300, threads);
        for (MechanismKind kind : privateMechanisms())
            if (kind != MechanismKind::Dpsgd)
                pipeline(kind, 8.0, 30000, threads);
        return 0;
    }
    if (part == "pipeline-dpsgd") { // about 25 minutes on 2 cores
        pipeline(MechanismKind::Dpsgd, 8.0, 30000, threads);
        return 0;
    }
    if (part == "worst-case") {
        for (double eps : {2.0, 8.0})
            worstCase(eps, 30000, threads);
        return 0;
    }
    if (part == "worst-case-many") {
        for (double eps : {2.0, 8.0})
            worstCase(eps, 200000, threads);
        return 0;
    }
    if (part == "many") {
        for (double eps : {2.0, 8.0})
            for (MechanismKind kind : privateMechanisms())
                if (kind != MechanismKind::GaussianLm)
                    twoDataset("power", rare, powerSpec(kind, 100), eps, 200000, threads);
        return 0;
    }
    for (double eps : {2.0, 8.0})
        for (MechanismKind kind : privateMechanisms()) {
            if (part == "digits")
                break;
            const MechanismSpec mech = powerSpec(kind, 100);
            twoDataset("power", rare, mech, eps, 30000, threads);
            oneRun("power", wide, mech, eps, threads);
            if (kind == MechanismKind::Dpsgd)
                whitebox("power", wide, mech, eps, 4000, WhiteboxView::Iterates, threads);
        }
    if (digitsPath.empty() || part == "power")
        return 0;
    LoadOptions options;
    options.csv.labelColumn = "label";
    options.schema.labelColumn = "label"; // the classes declared, as builtin:digits' documented schema does
    for (int c = 0; c < 10; ++c)
        options.schema.classes.push_back(std::to_string(c));
    options.schema.source = "the benchmark's declaration";
    options.findSchema = false;
    Dataset digits = loadDataset(digitsPath, options, {});
    PreprocessOptions p;
    p.intercept = true;
    preprocess(digits, nullptr, p);
    const SweepData d = sweepDataOf(digits);
    MechanismSpec mech;
    selectMechanism(mech, MechanismKind::Dpsgd);
    for (double eps : {2.0, 8.0}) {
        whitebox("digits", d, mech, eps, 400, WhiteboxView::Residual, threads);
        whitebox("digits", d, mech, eps, 400, WhiteboxView::Iterates, threads);
        oneRun("digits", d, mech, eps, threads);
        twoDataset("digits", d, mech, eps, 200, threads);
    }
    return 0;
}
