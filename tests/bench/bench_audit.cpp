// Benchmark (issue 14): the privacy audit.
//  - audit runs per second per mechanism (two fits per run pair: D and D′) on a 2-D dataset
//    (moons, 200 rows, plus a feature no row uses) and on breast cancer (569 × 30, from
//    ../shared/datasets when present), T = 1,000 runs per neighbour, all cores;
//  - the runs T a working attack needs for ε_LB to reach 1 on a mechanism claiming ε = 2
//    (objective perturbation (ε, δ) on the moons set, Λ = 0.01): T doubled from 250 until it does.
// Usage: bench_audit [threads]. Appends JSON lines to EPSILONLAB_BENCH_OUT.

#include "core/audit/mechanism_audit.h"
#include "core/data/dataset_loader.h"
#include "core/data/generators.h"
#include "core/data/preprocess.h"
#include "core/learner/sweep_data.h"
#include "core/mechanisms/mechanism_catalog.h"
#include "tests/support/audit_data.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>

using namespace elab::core;

using elab::test::moonsWithRareFeature;

namespace {

std::optional<Dataset> breastCancer() {
    const std::string path = std::string(EPSILONLAB_SHARED_DIR) + "/datasets/breast_cancer_wdbc/breast_cancer_wdbc.csv";
    if (!std::filesystem::exists(path))
        return std::nullopt;
    LoadOptions options;
    options.csv.labelColumn = "label";
    Dataset d = loadDataset(path, options, {});
    PreprocessOptions p;
    p.intercept = true;
    preprocess(d, nullptr, p);
    return d;
}

MechanismSpec specOf(MechanismKind kind) {
    MechanismSpec spec;
    selectMechanism(spec, kind);
    spec.sgd.hidden = 0;
    spec.sgd.epochs = 5;
    return spec;
}

} // namespace

int main(int argc, char** argv) {
    const int threads = argc > 1 ? std::atoi(argv[1]) : 0;
    std::ofstream out(EPSILONLAB_BENCH_OUT, std::ios::app);
    std::vector<std::pair<std::string, Dataset>> sets;
    sets.emplace_back("moons 200 + rare feature", moonsWithRareFeature(200));
    if (auto bc = breastCancer())
        sets.emplace_back("breast cancer 569 x 30", std::move(*bc));
    else
        std::printf("breast cancer: ../shared/datasets absent, skipped\n");
    for (const auto& [name, data] : sets) {
        for (const MechanismInfo& info : mechanismCatalog()) {
            if (info.kind == MechanismKind::NonPrivate)
                continue;
            AuditSpec spec;
            spec.mechanism = specOf(info.kind);
            spec.eps = 1.0;
            spec.runs = 1000;
            spec.threads = threads;
            const AuditResult r = runAudit(sweepDataOf(data), spec);
            const double rate = 2.0 * spec.runs / r.seconds;
            std::printf("%-26s %-14s %8.0f fits/s  (%d runs per neighbour in %.2f s; ε_LB %.3f at ε = 1)\n",
                        name.c_str(), toString(info.kind), rate, spec.runs, r.seconds, r.bound.epsLB);
            out << "{\"bench\":\"audit_rate\",\"data\":\"" << name << "\",\"mechanism\":\"" << toString(info.kind)
                << "\",\"fits_per_second\":" << rate << ",\"seconds\":" << r.seconds << ",\"eps_lb\":" << r.bound.epsLB
                << "}\n";
        }
    }
    // T for ε_LB ≥ 1 at a claimed ε = 2 (a working attack: the canary on the unused feature).
    const Dataset moons = moonsWithRareFeature(200);
    for (int T = 250; T <= 64000; T *= 2) {
        AuditSpec spec;
        spec.mechanism = specOf(MechanismKind::ObjPertGauss);
        spec.eps = 2.0;
        spec.runs = T;
        spec.threads = threads;
        const AuditResult r = runAudit(sweepDataOf(moons), spec);
        std::printf("objpert-gauss at ε = 2, T = %6d: ε_LB = %.3f (a perfect attacker: %.3f), %.2f s\n", T,
                    r.bound.epsLB, r.bound.maxCertifiable, r.seconds);
        out << "{\"bench\":\"audit_runs_needed\",\"runs\":" << T << ",\"eps_lb\":" << r.bound.epsLB
            << ",\"max_certifiable\":" << r.bound.maxCertifiable << ",\"seconds\":" << r.seconds << "}\n";
        if (r.bound.epsLB >= 1.0)
            break;
    }
    return 0;
}
