#include "ui/export/figure_export.h"

#include "ui/charts/chart_csv.h"
#include "ui/session/session_json.h"

#include "core/report/result_json.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

#include <cmath>

namespace elab::ui {

namespace {

using Ordered = nlohmann::ordered_json;

QString withSuffix(const QString& figurePath, const char* suffix) {
    const QFileInfo info(figurePath);
    return info.dir().filePath(info.completeBaseName() + QLatin1String(suffix));
}

/// NaN and ∞ are not JSON numbers: null.
Ordered number(double v) { return std::isfinite(v) ? Ordered(v) : Ordered(); }

Ordered describe(const core::Dataset& d) {
    return {{"name", d.name}, {"rows", d.rows()}, {"features", d.featureCount()}, {"task", core::toString(d.targets.kind)}};
}

Ordered results(const UtilitySettings& settings, const UtilityState& state) {
    Ordered r;
    Ordered grid = Ordered::array(), mean = Ordered::array(), sd = Ordered::array();
    for (std::size_t g = 0; g < state.grid.size(); ++g) {
        grid.push_back(state.grid[g]);
        const auto& p = g < state.points.size() ? state.points[g] : std::nullopt;
        mean.push_back(p ? number(p->mean) : Ordered());
        sd.push_back(p ? number(p->sd) : Ordered());
    }
    r["grid"] = grid;
    r["measured"] = {{"mean", mean}, {"std", sd}, {"complete", state.sweepComplete}};
    const bool higherIsBetter = !core::isLossMetric(settings.metric);
    r["monotonicity"] = core::monotonicityJson(state.monotonicity(settings.metric), higherIsBetter);
    r["privacy_by_eps"] = core::privacyByEpsJson(state.grid, state.guarantees, state.models);
    r["nonprivate"] = state.nonPrivate ? number(*state.nonPrivate) : Ordered();
    Ordered estimates = Ordered::array();
    if (settings.estimatesApply())
        for (const auto& fit : state.measuring)
            for (core::Estimator e : settings.estimators) {
                Ordered values = Ordered::array();
                for (double eps : state.grid)
                    values.push_back(number(core::meanEstimate(fit, e, eps)));
                estimates.push_back({{"measure_at", fit.measureAt}, {"estimator", core::toString(e)}, {"values", values}});
            }
    r["estimates"] = estimates;
    if (state.probe)
        r["current"] = {{"eps", std::isinf(state.probe->eps) ? Ordered("inf") : Ordered(state.probe->eps)},
                        {"mean", number(state.probe->mean)},
                        {"std", number(state.probe->sd)},
                        {"repeats", state.probe->repeats}};
    if (state.verification) {
        Ordered steps = Ordered::array();
        for (const auto& s : state.verification->steps)
            steps.push_back({{"eps", s.eps}, {"measured", number(s.measured)}, {"meets", s.meets}, {"trainings", s.trainings}});
        r["verification"] = {{"target", state.verifiedTarget}, {"steps", steps},
                             {"chosen_eps", number(state.verification->chosenEps)}};
    }
    return r;
}

} // namespace

QString csvPathFor(const QString& figurePath) { return withSuffix(figurePath, ".csv"); }
QString sidecarPathFor(const QString& figurePath) { return withSuffix(figurePath, ".json"); }

QByteArray sidecarJson(const Session& session, const UtilityState& state, const QString& figureFile) {
    Ordered j = detail::sessionJson(session);
    Ordered e;
    e["figure"] = QFileInfo(figureFile).fileName().toStdString();
    e["created_utc"] = QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
    if (state.data) {
        Ordered data = {{"train", describe(state.data->train)}};
        if (state.data->test)
            data["test"] = describe(*state.data->test);
        Ordered log = Ordered::array();
        for (const auto& step : state.data->train.log)
            log.push_back({{"step", step.name}, {"detail", step.detail}, {"leaks_privacy", step.leaksPrivacy}});
        data["processing"] = log;
        e["data"] = data;
    }
    e["guarantee_at_max_eps"] = core::guaranteeJson(state.guaranteeAtMax);
    e["results"] = results(session.utility, state);
    j["export"] = e;
    return QByteArray::fromStdString(j.dump(2) + "\n");
}

namespace {

QStringList writeFigure(const charts::ChartData& chart, const FigureExport& request, const QByteArray& sidecar,
                        QString* error) {
    QStringList written;
    QString problem;
    if (!charts::exportChart(chart, request.path, request.options, &problem)) {
        if (error)
            *error = problem;
        return written;
    }
    written << request.path;
    if (request.withCsv) {
        const QString csv = csvPathFor(request.path);
        if (!charts::writeChartCsv(chart, csv, &problem)) {
            if (error)
                *error = problem;
            return written;
        }
        written << csv;
    }
    if (request.withSidecar) {
        const QString json = sidecarPathFor(request.path);
        QSaveFile file(json);
        const QByteArray& bytes = sidecar;
        if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
            if (error)
                *error = QStringLiteral("%1: %2").arg(json, file.errorString());
            return written;
        }
        written << json;
    }
    return written;
}

} // namespace

QStringList exportFigure(const charts::ChartData& chart, const Session& session, const UtilityState& state,
                         const FigureExport& request, QString* error) {
    return writeFigure(chart, request, request.withSidecar ? sidecarJson(session, state, request.path) : QByteArray(),
                       error);
}

QByteArray stabilitySidecarJson(const Session& session, const StabilityState& state, const QString& figureFile) {
    Ordered j = detail::sessionJson(session);
    Ordered e;
    e["figure"] = QFileInfo(figureFile).fileName().toStdString();
    e["created_utc"] = QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
    e["removal"] = core::toString(state.removal);
    e["rho"] = state.rho;
    Ordered methods = Ordered::array();
    for (std::size_t m = 0; m < state.methods.size(); ++m) {
        Ordered te = Ordered::array(), ts = Ordered::array(), me = Ordered::array(), ms = Ordered::array();
        for (std::size_t g = 0; g < state.rho.size(); ++g) {
            const core::StabilityCell* c = state.cell(g, m);
            te.push_back(c ? number(c->testError.mean) : Ordered());
            ts.push_back(c ? number(c->testError.sd) : Ordered());
            me.push_back(c ? number(c->marginalError.mean) : Ordered());
            ms.push_back(c ? number(c->marginalError.sd) : Ordered());
        }
        Ordered method = {{"method", core::toString(state.methods[m])},
                          {"test_error", {{"mean", te}, {"sd", ts}}},
                          {"marginal_error", {{"mean", me}, {"sd", ms}}}};
        if (const core::MethodBaseline* b = state.baseline(state.methods[m]))
            method["chosen_mu"] = b->method == core::StabilityMethod::L2 ? number(b->mu) : Ordered();
        methods.push_back(method);
    }
    e["methods"] = methods;
    e["complete"] = state.complete;
    j["export"] = e;
    return QByteArray::fromStdString(j.dump(2) + "\n");
}

QStringList exportStabilityFigure(const charts::ChartData& chart, const Session& session,
                                  const StabilityState& state, const FigureExport& request, QString* error) {
    return writeFigure(chart, request,
                       request.withSidecar ? stabilitySidecarJson(session, state, request.path) : QByteArray(), error);
}

} // namespace elab::ui
