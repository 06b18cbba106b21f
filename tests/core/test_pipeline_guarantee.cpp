// The guarantee of the whole pipeline (core/privacy/composition.h, docs/MATH.md §7): a step that
// reads the private data outside a mechanism turns the claim off, ε spent on preparation adds, a
// replace-one-only step turns add/remove into its replace-one equivalent, composite outputs and
// data-chosen ε say what they are, and the seed's mode is a condition on the release.

#include "core/data/data_preparation.h"
#include "core/learner/sweep_data.h"
#include "core/mechanisms/mechanism_catalog.h"
#include "core/privacy/accountant.h"
#include "core/privacy/composition.h"
#include "core/privacy/plain_language.h"
#include "core/privacy/ptr_dropout.h"
#include "core/report/result_json.h"

#include "csv_test_helpers.h"

#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace elab::core;

namespace {

PrivacyGuarantee objPert(double eps, Index n = 500) {
    MechanismSpec spec;
    spec.kind = MechanismKind::ObjPertGauss;
    return mechanismInfo(spec.kind).guarantee(spec, n, 0, eps);
}

// A binary CSV of n rows (two numeric features, one with a missing cell when `missing`).
QByteArray csvText(int n, bool missing) {
    QByteArray text = "a,b,label\n";
    for (int i = 0; i < n; ++i) {
        const bool hole = missing && i == 3;
        text += QByteArray::number(0.01 * (i % 37)) + ',' +
                (hole ? QByteArray() : QByteArray::number(0.02 * (i % 11))) + ',' + QByteArray::number(i % 2) + '\n';
    }
    return text;
}

// The guarantee every report states for data prepared with `preparation` (as the CLI prepares it).
PrivacyGuarantee reported(const Dataset& loaded, const DataPreparation& preparation, double eps = 1.0) {
    const PreparedData data = prepareExperimentData(loaded, std::nullopt, preparation, 1);
    MechanismSpec spec;
    spec.kind = MechanismKind::ObjPertGauss;
    const auto problem = prepareProblem(sweepDataOf(data.train), spec, UtilityMetric::TrainLoss);
    return problem->guarantee(eps);
}

} // namespace

class TestPipelineGuarantee : public QObject {
    Q_OBJECT

private slots:
    void leakingStepTurnsTheClaimOff() {
        const PrivacyGuarantee g = objPert(1.0);
        QVERIFY(g.isPrivate);
        const std::vector<ProcessingStep> log{{"clip rows", "x ← x / max(1, ‖x‖₂)", false},
                                              {"standardise", "column means and sds", true},
                                              {"scale by max norm", "largest norm 7", true}};
        const PrivacyGuarantee out = withPipeline(g, pipelineFacts(log));
        QVERIFY(!out.isPrivate);
        QVERIFY(out.voided());
        QVERIFY(std::isinf(out.epsilon));
        QVERIFY(std::isnan(out.delta));
        QCOMPARE(out.assumptionsNotMet.size(), std::size_t(2));
        QCOMPARE(out.assumptionsNotMet[0], std::string("standardise: column means and sds"));
        QCOMPARE(out.parameter("mechanism_eps"), 1.0);
        const nlohmann::ordered_json j = guaranteeJson(out);
        QCOMPARE(j["private"].get<bool>(), false);
        QVERIFY(j["epsilon"].is_null());
        QCOMPARE(j["assumptions_not_met"].size(), std::size_t(2));
        const std::vector<std::string> words = plainLanguage(out, 100);
        QVERIFY(!words.empty());
        QVERIFY(words.front().find("No privacy guarantee") != std::string::npos);
        QVERIFY(words.at(1).find("Not met: standardise") != std::string::npos);
        // No leaking step: unchanged.
        const PrivacyGuarantee clean = withPipeline(g, pipelineFacts({log[0]}));
        QVERIFY(clean.isPrivate);
        QCOMPARE(clean.epsilon, g.epsilon);
        QVERIFY(clean.assumptionsNotMet.empty());
    }

    void preparationEpsilonAdds() {
        PipelineFacts facts;
        facts.preparationEpsilon = 0.25;
        const PrivacyGuarantee out = withPipeline(objPert(0.5), facts);
        QVERIFY(out.isPrivate);
        QCOMPARE(out.epsilon, 0.75);
        QCOMPARE(out.parameter("eps_prep"), 0.25);
    }

    // A fixed-size subsample makes an added row of the file a replaced row of the training set:
    // an add/remove guarantee then holds as its replace-one equivalent (2ε, (1 + e^ε)δ).
    void replaceOneOnlyStepConvertsAddRemove() {
        PrivacyGuarantee g;
        g.isPrivate = true;
        g.epsilon = 0.8;
        g.delta = 1e-6;
        g.notion = "(ε, δ)-DP";
        g.adjacency = Adjacency::AddRemove;
        PipelineFacts facts;
        facts.replaceOneOnly = true;
        const PrivacyGuarantee out = withPipeline(g, facts);
        QCOMPARE(out.adjacency, Adjacency::ReplaceOne);
        QCOMPARE(out.epsilon, 1.6);
        QVERIFY(std::abs(out.delta - (1.0 + std::exp(0.8)) * 1e-6) < 1e-18);
        // A replace-one guarantee is kept as it is.
        const PrivacyGuarantee r = withPipeline(objPert(0.8), facts);
        QCOMPARE(r.epsilon, 0.8);
    }

    // The cases, through the preparation the CLI and GUI run.
    void leakingPreprocessingIsReported_data() {
        QTest::addColumn<int>("norm");
        QTest::addColumn<bool>("standardise");
        QTest::addColumn<bool>("impute");
        QTest::addColumn<QString>("leak"); // the step that must turn the claim off ("" none)
        QTest::newRow("clip (default)") << int(NormPolicy::ClipRows) << false << false << QString();
        QTest::newRow("--norm none") << int(NormPolicy::None) << false << false << QStringLiteral("no norm bound");
        QTest::newRow("--norm max") << int(NormPolicy::ScaleByMaxNorm) << false << false
                                    << QStringLiteral("scale by max norm");
        QTest::newRow("--standardise") << int(NormPolicy::ClipRows) << true << false << QStringLiteral("standardise");
        QTest::newRow("mean imputation") << int(NormPolicy::ClipRows) << false << true << QStringLiteral("impute");
    }

    void leakingPreprocessingIsReported() {
        QFETCH(int, norm);
        QFETCH(bool, standardise);
        QFETCH(bool, impute);
        QFETCH(QString, leak);
        CsvOptions options = elab::test::csv::opts("label");
        if (impute)
            options.missing = MissingPolicy::ImputeMean;
        const Dataset loaded = elab::test::csv::load(csvText(200, impute), options);
        DataPreparation preparation;
        preparation.preprocess.norm = static_cast<NormPolicy>(norm);
        preparation.preprocess.standardise = standardise;
        const PrivacyGuarantee g = reported(loaded, preparation);
        // A CSV's classes come from the file unless a public schema declares them, which is a leak
        // of its own ("schema"): only the step asked for here is looked for.
        const auto named = [&](const std::string& prefix) {
            return std::any_of(g.assumptionsNotMet.begin(), g.assumptionsNotMet.end(),
                               [&](const std::string& s) { return s.rfind(prefix, 0) == 0; });
        };
        for (const char* step : {"no norm bound", "scale by max norm", "standardise", "impute"})
            QCOMPARE(named(step), leak == QLatin1String(step));
        if (!leak.isEmpty()) {
            QVERIFY(!g.isPrivate);
            QVERIFY(std::isinf(g.epsilon));
        }
        // What the form will do is known before preparing (the guarantee box while editing).
        QCOMPARE(plannedLeaks(preparation.preprocess).empty(), !standardise && norm == int(NormPolicy::ClipRows));
    }

    void choseEpsAndDrawsSayWhatTheyAre() {
        const PrivacyGuarantee one = objPert(0.5);
        const PrivacyGuarantee shown = withDrawsShown(one, 8);
        QCOMPARE(shown.epsilon, 0.5); // the guarantee of one draw, with the picture's condition
        QCOMPARE(shown.conditions.size(), std::size_t(1));
        QVERIFY(shown.conditions[0].find("8 draws shown together (4, 8e-05)") != std::string::npos);
        const PrivacyGuarantee all = composedDraws(one, 8);
        QCOMPARE(all.epsilon, 4.0);
        QCOMPARE(all.delta, 8e-5);
        QCOMPARE(all.parameter("eps_per_draw"), 0.5);
        const PrivacyGuarantee chosen = withDataChosenEps(one);
        QCOMPARE(chosen.conditions.size(), std::size_t(1));
        QVERIFY(chosen.conditions[0].find("chosen by looking at non-private utilities") != std::string::npos);
        QVERIFY(guaranteeJson(chosen)["conditions"].size() == 1);
    }

    void ptrStatesItsRange() {
        const PrivacyGuarantee below = ptrGuarantee(0.5, 1e-6);
        QVERIFY(below.isPrivate);
        QCOMPARE(below.epsilon, 1.0);
        QVERIFY(std::isnan(below.delta)); // not established numerically: null in JSON
        QVERIFY(guaranteeJson(below)["delta"].is_null());
        const PrivacyGuarantee above = ptrGuarantee(1.0, 1e-6);
        QVERIFY(above.voided());
    }

    void seedModeIsACondition() {
        const PrivacyGuarantee reproducible = withSeedMode(objPert(1.0), SeedMode::Reproducible);
        QVERIFY(reproducible.isPrivate);
        QCOMPARE(reproducible.conditions.size(), std::size_t(1));
        QVERIFY(reproducible.conditions[0].find("secret randomness") != std::string::npos);
        const PrivacyGuarantee secret = withSeedMode(objPert(1.0), SeedMode::SecretRelease);
        QVERIFY(secret.conditions[0].find("not written") != std::string::npos);
        QCOMPARE(std::string(toString(SeedMode::SecretRelease)), std::string("private-release"));
    }
};

QTEST_APPLESS_MAIN(TestPipelineGuarantee)
#include "test_pipeline_guarantee.moc"
