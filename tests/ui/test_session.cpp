// Sessions: every field survives a save/open round trip; bad files give a message naming
// the field (and the file), and nothing is returned to apply.

#include "ui/session/session.h"
#include "ui/views/stability/stability_settings_json.h"
#include "ui/views/utility/utility_settings_json.h"

#include "tests/ui/gui_test_support.h"

#include <QtTest>

#include <cmath>

using namespace elab;
using elab::ui::Session;

namespace {

Session sample() {
    Session s;
    s.dataset.spec = QStringLiteral("builtin:penguins");
    s.dataset.options.csv.labelColumn = "species";
    s.dataset.options.csv.missing = core::MissingPolicy::ImputeMean;
    s.dataset.options.csv.ignoredColumns = {"island", "year"};
    s.sha256 = QStringLiteral("ab12");
    s.dataset.bounds.columns = {{"bill_length_mm", 30.0, 60.0}, {"year", 2007.0, 2009.0}};
    s.dataset.bounds.source = "typed in the Data tab";
    s.dataset.bounds.target = core::BoundsTarget::Symmetric;
    s.dataset.privateBounds = core::PrivateBoundsOptions{};
    s.dataset.privateBounds->epsilon = 0.25;
    s.dataset.privateBounds->seed = 77;
    ui::UtilitySettings u;
    u.preprocess.norm = core::NormPolicy::ScaleByMaxNorm;
    u.preprocess.standardise = true;
    u.preprocess.intercept = true;
    u.preprocess.positiveClass = "Adelie";
    u.testFraction = 0.25;
    u.mechanism = {core::MechanismKind::ObjPertGauss, core::Loss(core::LossKind::HuberSvm, 0.3, 2.0), 0.5, 1e-6};
    u.mechanism.sgd.publicRows = 48842; // DP-SGD's N, declared public
    u.metric = core::UtilityMetric::TestLoss;
    u.repeats = 7;
    u.seed = 18446744073709551557ULL; // near 2^64: must survive exactly
    u.epsMin = 0.01;
    u.epsMax = 50.0;
    u.gridPoints = 13;
    u.measureAt = {0.1, 2.5};
    u.estimators = {core::Estimator::Anchored, core::Estimator::FirstOrder};
    u.currentEps = 0.1 + 0.2; // not exactly representable: must round-trip bit for bit
    u.target = 0.3333333333333333;
    ui::storeUtilitySettings(s, u);
    return s;
}

QByteArray replaced(QByteArray json, const char* from, const char* to) { return json.replace(from, to); }

} // namespace

class TestSession : public QObject {
    Q_OBJECT

private slots:
    void roundTripKeepsEveryField() {
        const Session a = sample();
        QString error;
        const auto b = ui::sessionFromJson(ui::sessionToJson(a), &error);
        QVERIFY2(b.has_value(), qPrintable(error));
        QCOMPARE(b->dataset.spec, a.dataset.spec);
        QCOMPARE(b->dataset.options.csv.labelColumn, a.dataset.options.csv.labelColumn);
        QVERIFY(b->dataset.options.csv.missing == a.dataset.options.csv.missing);
        QVERIFY(b->dataset.options.csv.ignoredColumns == a.dataset.options.csv.ignoredColumns);
        QCOMPARE(b->sha256, a.sha256);
        QVERIFY(b->dataset.bounds == a.dataset.bounds);
        QVERIFY(b->dataset.privateBounds.has_value());
        QCOMPARE(b->dataset.privateBounds->epsilon, 0.25);
        QCOMPARE(b->dataset.privateBounds->seed, std::uint64_t(77));
        QCOMPARE(b->dataset.privateBounds->tail, a.dataset.privateBounds->tail);
        const auto x = ui::utilitySettingsOf(a);
        const auto y = ui::utilitySettingsOf(*b);
        QVERIFY(y.preprocess.norm == x.preprocess.norm);
        QCOMPARE(y.preprocess.standardise, x.preprocess.standardise);
        QCOMPARE(y.preprocess.intercept, x.preprocess.intercept);
        QVERIFY(y.preprocess.positiveClass == x.preprocess.positiveClass);
        QCOMPARE(y.testFraction, x.testFraction);
        QVERIFY(y.mechanism.kind == x.mechanism.kind);
        QVERIFY(y.mechanism.model.loss.kind() == x.mechanism.model.loss.kind());
        QCOMPARE(y.mechanism.model.loss.huberWidth(), x.mechanism.model.loss.huberWidth());
        QCOMPARE(y.mechanism.model.loss.temperature(), x.mechanism.model.loss.temperature());
        QCOMPARE(y.mechanism.model.lambda, x.mechanism.model.lambda);
        QCOMPARE(y.mechanism.privacy.delta, x.mechanism.privacy.delta);
        QCOMPARE(y.mechanism.sgd.publicRows, 48842LL);
        QVERIFY(y.mechanism.sgd == x.mechanism.sgd);
        QVERIFY(y.metric == x.metric);
        QCOMPARE(y.repeats, x.repeats);
        QCOMPARE(y.seed, x.seed);
        QCOMPARE(y.epsMin, x.epsMin);
        QCOMPARE(y.epsMax, x.epsMax);
        QCOMPARE(y.gridPoints, x.gridPoints);
        QCOMPARE(y.measureAt, x.measureAt);
        QVERIFY(y.estimators == x.estimators);
        QCOMPARE(y.currentEps, x.currentEps);
        QCOMPARE(*y.target, *x.target);
    }

    void stabilitySettingsRoundTrip() {
        Session a = sample();
        ui::StabilitySettings st;
        st.model = ui::StabilityModelChoice::Linear;
        st.methods = {core::StabilityMethod::L2, core::StabilityMethod::DeterministicDropout};
        st.dropoutRate = 0.05;
        st.removal = core::RemovalKind::Adversarial;
        st.rhoMin = 0.1;
        st.rhoMax = 0.8;
        st.rhoPoints = 8;
        st.repeats = 7;
        st.seed = 99;
        st.testFraction = 0.4;
        st.positiveClass = "Gentoo";
        st.stabilitySamples = 3;
        ui::storeStabilitySettings(a, st);
        a.view = QStringLiteral("stability");
        QString error;
        const auto b = ui::sessionFromJson(ui::sessionToJson(a), &error);
        QVERIFY2(b.has_value(), qPrintable(error));
        QVERIFY(ui::stabilitySettingsOf(*b) == st);
        QCOMPARE(b->view, QStringLiteral("stability"));
        // Sessions saved before the stability view existed open with its defaults.
        const QByteArray old = ui::sessionToJson(sample()); // a utility block only
        QVERIFY(!old.contains("\"stability\""));
        const auto c = ui::sessionFromJson(old, &error);
        QVERIFY2(c.has_value(), qPrintable(error));
        QVERIFY(ui::stabilitySettingsOf(*c) == ui::StabilitySettings{});
        // A bad stability block is named.
        QByteArray bad = ui::sessionToJson(a).replace("\"adversarial\"", "\"sideways\"");
        QVERIFY(!ui::sessionFromJson(bad, &error).has_value());
        QVERIFY2(error.contains(QStringLiteral("stability.removal")), qPrintable(error));
    }

    void nonPrivateStopAndNoTarget() {
        Session a = sample();
        ui::UtilitySettings u = ui::utilitySettingsOf(a);
        u.currentEps = ui::UtilitySettings::nonPrivateEps();
        u.target.reset();
        u.preprocess.positiveClass.reset();
        ui::storeUtilitySettings(a, u);
        const QByteArray json = ui::sessionToJson(a);
        QVERIFY(json.contains("\"current_eps\": \"inf\""));
        QString error;
        const auto b = ui::sessionFromJson(json, &error);
        QVERIFY2(b.has_value(), qPrintable(error));
        const ui::UtilitySettings v = ui::utilitySettingsOf(*b);
        QVERIFY(std::isinf(v.currentEps));
        QVERIFY(!v.target.has_value());
        QVERIFY(!v.preprocess.positiveClass.has_value());
    }

    void badFilesNameTheProblem_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("expected");
        const QByteArray good = ui::sessionToJson(sample());
        QTest::newRow("not JSON") << QByteArray("{ this is not json") << "parse error";
        QTest::newRow("empty") << QByteArray() << "parse error";
        QTest::newRow("another JSON file") << QByteArray("{\"grid\": [1, 2]}") << "not an EpsilonLab session";
        QTest::newRow("future version") << replaced(good, "\"version\": 1", "\"version\": 9") << "version";
        QTest::newRow("unknown mechanism")
            << replaced(good, "\"objpert-gauss\"", "\"magic\"") << "utility.mechanism.kind: unknown value 'magic'";
        QTest::newRow("repeats not a number")
            << replaced(good, "\"repeats\": 7", "\"repeats\": \"seven\"") << "utility.repeats: expected an integer";
        QTest::newRow("invalid repeats") << replaced(good, "\"repeats\": 7", "\"repeats\": 0") << "repetitions";
        QTest::newRow("missing field") << replaced(good, "\"metric\"", "\"metrik\"") << "utility.metric: missing";
        QTest::newRow("bad missing policy") << replaced(good, "\"mean\"", "\"guess\"") << "dataset.missing";
        QTest::newRow("bounds lo >= hi") << replaced(good, "\"lo\": 30.0", "\"lo\": 70.0")
                                         << "dataset.bounds: column 'bill_length_mm': lo (70) must be below hi (60)";
        QTest::newRow("bounds lo not a number")
            << replaced(good, "\"lo\": 30.0", "\"lo\": \"thirty\"")
            << "dataset.bounds: entry 1 (column 'bill_length_mm'): lo is not a number";
        QTest::newRow("private bounds ε") << replaced(good, "\"epsilon\": 0.25", "\"epsilon\": -1")
                                          << "dataset.private_bounds: the ε of private bounds";
        QTest::newRow("ignore not a list") << replaced(good, "\"ignore\": [", "\"ignore\": 3, \"x\": [")
                                           << "dataset.ignore: expected a list of column names";
        QTest::newRow("negative lambda") << replaced(good, "\"lambda\": 0.5", "\"lambda\": -1") << "Λ";
    }
    void badFilesNameTheProblem() {
        QFETCH(QByteArray, json);
        QFETCH(QString, expected);
        QString error;
        QVERIFY(!ui::sessionFromJson(json, &error).has_value());
        QVERIFY2(error.contains(expected), qPrintable(QStringLiteral("expected '%1' in '%2'").arg(expected, error)));
    }

    // DP-SGD calibrates with PLD by default, and a session keeps the accountant it saved: one saved
    // when RDP was the default names "rdp" and opens with RDP.
    void aSessionKeepsItsAccountant() {
        const QByteArray saved = ui::sessionToJson(sample());
        QVERIFY(saved.contains("\"accountant\": \"pld\""));
        QString error;
        const auto opened =
            ui::sessionFromJson(replaced(saved, "\"accountant\": \"pld\"", "\"accountant\": \"rdp\""), &error);
        QVERIFY2(opened.has_value(), qPrintable(error));
        QCOMPARE(ui::utilitySettingsOf(*opened).mechanism.sgd.accountant, core::AccountantKind::Rdp);
        QCOMPARE(ui::utilitySettingsOf(*ui::sessionFromJson(saved, &error)).mechanism.sgd.accountant,
                 core::AccountantKind::Pld);
    }

    void fileRoundTripAndMissingFile() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s.epsilonlab.json"));
        QString error;
        QVERIFY2(ui::writeSessionFile(path, sample(), &error), qPrintable(error));
        QVERIFY(ui::readSessionFile(path, &error).has_value());
        QVERIFY(!ui::readSessionFile(dir.filePath(QStringLiteral("nope.json")), &error).has_value());
        QVERIFY2(error.contains(QStringLiteral("nope.json")), qPrintable(error));
    }
};

QTEST_MAIN(TestSession)
#include "test_session.moc"
