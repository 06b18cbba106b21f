// Decision regions settings: validation, what needs a new prepared problem, the teaching
// defaults per dataset, the session block's JSON round trip (and errors naming the field),
// and a session carrying the block from one window to another.

#include "ui/views/regions/regions_settings.h"
#include "ui/views/regions/regions_settings_json.h"

#include "tests/ui/gui_test_support.h"
#include "ui/session/session.h"
#include "ui/session/session_actions.h"
#include "ui/shell/main_window.h"
#include "ui/views/regions/regions_tab.h"
#include "ui/views/regions/regions_view.h"

#include "core/data/dataset_loader.h"
#include "core/data/generators.h"
#include "resources/builtin_resources.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QtTest>

using namespace elab;
using namespace elab::ui;

namespace {

RegionsSettings unusual() {
    RegionsSettings s;
    s.plane = core::PlaneKind::Pca;
    s.quadratic = true;
    s.preprocess.standardise = true;
    s.preprocess.positiveClass = "setosa";
    s.testFraction = 0.25;
    s.mechanism.kind = core::MechanismKind::ObjPertPure;
    s.mechanism.model.loss = core::Loss(core::LossKind::HuberSvm, 0.2);
    s.mechanism.model.lambda = 0.5;
    s.draws = 7;
    s.gridSize = 128;
    s.seed = 12345678901234ULL;
    s.currentEps = RegionsSettings::nonPrivateEps();
    s.fill = RegionsFill::Draw;
    s.fillDraw = 6;
    return s;
}

core::Dataset builtin(const char* name) {
    return core::loadDataset(std::string("builtin:") + name, {}, resources::builtinBytesProvider());
}

} // namespace

class TestRegionsSettings : public QObject {
    Q_OBJECT

private slots:
    void validateNamesTheProblem() {
        RegionsSettings s;
        QCOMPARE(QString::fromStdString(s.validate()), QString());
        s.draws = 21;
        QVERIFY(QString::fromStdString(s.validate()).contains(QStringLiteral("draws")));
        s = {};
        s.featureB = s.featureA;
        QVERIFY(QString::fromStdString(s.validate()).contains(QStringLiteral("two different features")));
        s.plane = core::PlaneKind::Pca; // the features do not matter then
        QCOMPARE(QString::fromStdString(s.validate()), QString());
        s = {};
        s.fillDraw = s.draws;
        QVERIFY(!s.validate().empty());
    }

    void onlyPlaneDataMechanismDrawsGridAndSeedNeedANewProblem() {
        const RegionsSettings a;
        RegionsSettings b = a;
        b.currentEps = 0.1;
        b.fill = RegionsFill::Agreement;
        QVERIFY(a.sameProblem(b));
        QVERIFY(!(a == b));
        for (auto change : std::initializer_list<void (*)(RegionsSettings&)>{
                 [](RegionsSettings& s) { s.quadratic = true; }, [](RegionsSettings& s) { s.featureB = 3; },
                 [](RegionsSettings& s) { s.draws = 3; }, [](RegionsSettings& s) { s.gridSize = 64; },
                 [](RegionsSettings& s) { s.seed = 2; }, [](RegionsSettings& s) { s.mechanism.model.lambda = 1.0; },
                 [](RegionsSettings& s) { s.preprocess.intercept = false; },
                 [](RegionsSettings& s) { s.testFraction = 0.5; }}) {
            RegionsSettings c = a;
            change(c);
            QVERIFY(!a.sameProblem(c));
        }
        const core::RegionsSpec spec = unusual().toSpec();
        QCOMPARE(spec.plane.kind, core::PlaneKind::Pca);
        QVERIFY(spec.plane.quadratic);
        QCOMPARE(spec.draws, 7);
        QCOMPARE(spec.gridSize, 128);
        QCOMPARE(spec.preparation.testFraction, 0.25);
        QVERIFY(spec.preparation.preprocess.standardise);
        QCOMPARE(spec.mechanism.kind, core::MechanismKind::ObjPertPure);
    }

    void teachingDefaultsPerDataset() {
        core::GeneratorOptions options;
        options.rows = 40;
        for (const char* name : {"moons", "blobs", "xor", "circles"}) {
            RegionsSettings s;
            s.featureA = 5;
            adaptRegionsToDataset(s, core::generateDataset(name, options));
            QCOMPARE(s.plane, core::PlaneKind::Features);
            QCOMPARE(s.featureA, 0);
            QCOMPARE(s.featureB, 1);
            QCOMPARE(s.quadratic, std::string(name) == "xor" || std::string(name) == "circles");
            QVERIFY(s.preprocess.intercept);
            QVERIFY(!s.preprocess.standardise);
        }
        const std::pair<const char*, std::pair<const char*, const char*>> pairs[] = {
            {"iris", {"petal_length_cm", "petal_width_cm"}},
            {"penguins", {"bill_length_mm", "bill_depth_mm"}},
            {"wine", {"flavanoids", "proline"}}};
        for (const auto& [name, features] : pairs) {
            const core::Dataset d = builtin(name);
            RegionsSettings s;
            adaptRegionsToDataset(s, d);
            QCOMPARE(d.featureName(s.featureA), std::string(features.first));
            QCOMPARE(d.featureName(s.featureB), std::string(features.second));
            QVERIFY(!s.quadratic);
            // Physical units: clipping alone squashes the rows, so the plane's columns are mapped
            // by documented public ranges (standardising would read the private rows).
            QVERIFY(!s.preprocess.standardise);
            QVERIFY(s.preprocess.bounds.find(features.first) && s.preprocess.bounds.find(features.second));
        }
    }

    // docs/MATH.md §7: every built-in's default picture is private — no step of its default
    // pipeline reads the rows outside the mechanism — and says what its R draws are together.
    void everyBuiltinDefaultPictureIsPrivate() {
        for (const char* name :
             {"iris", "penguins", "wine", "breast_cancer", "digits", "moons", "blobs", "xor", "circles", "sparse"}) {
            const core::Dataset d = builtin(name);
            RegionsSettings s;
            adaptRegionsToDataset(s, d);
            const core::RegionsProblem problem(d, std::nullopt, s.toSpec());
            const core::RegionsResult r = core::evaluateRegions(problem, 1.0);
            QVERIFY2(r.guarantee.isPrivate || std::string(name) == "sparse", name); // sparse: its PCA plane leaks, said
            if (std::string(name) == "sparse") {
                QVERIFY(r.guarantee.voided());
                continue;
            }
            QVERIFY2(r.guarantee.assumptionsNotMet.empty(), name);
            QVERIFY2(!r.guarantee.conditions.empty() &&
                         r.guarantee.conditions.front().find("draws shown together") != std::string::npos,
                     name);
        }
    }

    void jsonRoundTrip() {
        for (const RegionsSettings& s : {RegionsSettings{}, unusual()}) {
            const nlohmann::ordered_json j = detail::toJson(s);
            const RegionsSettings back = detail::regionsSettingsFromJson(nlohmann::json::parse(j.dump()));
            QVERIFY(back == s);
            QCOMPARE(detail::toJson(back).dump(), j.dump());
        }
        QCOMPARE(detail::toJson(unusual())["current_eps"].get<std::string>(), std::string("inf"));
    }

    void jsonErrorsNameTheField() {
        const auto broken = [](const char* pointer, const nlohmann::json& v) {
            nlohmann::json j = nlohmann::json::parse(detail::toJson(RegionsSettings{}).dump());
            j[nlohmann::json::json_pointer(pointer)] = v;
            try {
                detail::regionsSettingsFromJson(j);
            } catch (const std::runtime_error& e) {
                return QString::fromUtf8(e.what());
            }
            return QString();
        };
        QCOMPARE(broken("/draws", "ten"), QStringLiteral("regions.draws: expected an integer"));
        QVERIFY(broken("/plane/kind", "tsne").startsWith(QStringLiteral("regions.plane.kind: unknown value 'tsne'")));
        QVERIFY(broken("/fill", "all").startsWith(QStringLiteral("regions.fill: unknown value 'all'")));
        QVERIFY(broken("/mechanism/kind", "magic").startsWith(QStringLiteral("regions.mechanism.kind")));
        QVERIFY(broken("/draws", 99).startsWith(QStringLiteral("regions: draws must be")));
    }

    void sessionCarriesTheBlock() {
        QStandardPaths::setTestModeEnabled(true);
        RegionsSettings s;
        s.draws = 3;
        s.gridSize = 64;
        s.currentEps = 0.25;
        s.fill = RegionsFill::Agreement;
        s.seed = 99;
        Session a;
        a.dataset.spec = QStringLiteral("builtin:moons?rows=120&seed=4");
        a.view = QStringLiteral("regions");
        storeRegionsSettings(a, s);
        QString error;
        const auto file = sessionFromJson(sessionToJson(a), &error);
        QVERIFY2(file.has_value(), qPrintable(error));
        QCOMPARE(file->viewSettings.value(QStringLiteral("regions")), a.viewSettings.value(QStringLiteral("regions")));
        QVERIFY(*regionsSettingsOf(*file) == s);
        QVERIFY(!regionsSettingsOf(Session{})); // none: the dataset's teaching defaults stay

        // Opened in a window: the view takes the settings and saves them back unchanged.
        MainWindow w;
        w.setErrorDialogsEnabled(false);
        QSignalSpy applied(w.sessionActions(), &SessionActions::applied);
        QVERIFY(w.sessionActions()->openSession(*file, QStringLiteral("test")));
        QVERIFY(applied.wait(60000));
        QCOMPARE(w.currentView(), QStringLiteral("regions"));
        QVERIFY(w.view<RegionsTab>()->view()->composedSettings() == s);
        const Session saved = w.sessionActions()->currentSession();
        QCOMPARE(saved.viewSettings.value(QStringLiteral("regions")), a.viewSettings.value(QStringLiteral("regions")));

        // A bad block rejects the whole session, naming the field.
        nlohmann::json bad = nlohmann::json::parse(sessionToJson(a).toStdString());
        bad["regions"]["grid"] = 5000;
        QVERIFY(!sessionFromJson(QByteArray::fromStdString(bad.dump()), &error));
        QVERIFY2(error.startsWith(QStringLiteral("regions")), qPrintable(error));
    }
};

QTEST_MAIN(TestRegionsSettings)
#include "test_regions_settings.moc"
