#include "ui/views/regions/regions_export.h"

#include "ui/charts/chart_csv.h"
#include "ui/session/session_json.h"

#include "core/report/result_json.h"

namespace elab::ui {

namespace {

using Ordered = nlohmann::ordered_json;
using charts::csvField;
using charts::csvNumber;
using detail::jsonNumber;

Ordered accuracyJson(double mean, double sd, const std::vector<core::RegionsModel>& draws, bool train) {
    Ordered values = Ordered::array();
    for (const core::RegionsModel& m : draws)
        values.push_back(jsonNumber(train ? m.trainAccuracy : m.testAccuracy));
    return {{"mean", jsonNumber(mean)}, {"sd", jsonNumber(sd)}, {"draws", values}};
}

int mostlyWrong(const Eigen::VectorXd& fractions) { return static_cast<int>((fractions.array() > 0.5).count()); }

Ordered resultsJson(const RegionsSettings& settings, const RegionsState& state) {
    const core::RegionsResult& r = *state.result;
    Ordered j;
    j["eps"] = detail::epsJson(r.eps);
    j["draws"] = r.draws.size();
    j["grid"] = state.shownGrid();
    j["complete"] = !state.preview() && r.eps == settings.currentEps;
    j["train_accuracy"] = accuracyJson(r.trainAccuracyMean, r.trainAccuracySd, r.draws, true);
    j["test_accuracy"] = accuracyJson(r.testAccuracyMean, r.testAccuracySd, r.draws, false);
    j["nonprivate"] = {{"train_accuracy", jsonNumber(r.nonPrivate.trainAccuracy)},
                       {"test_accuracy", jsonNumber(r.nonPrivate.testAccuracy)}};
    j["misclassified_by_most_draws"] = {{"train", mostlyWrong(r.trainMisclassified)},
                                        {"test", mostlyWrong(r.testMisclassified)}};
    return j;
}

void appendRow(QString& out, const QStringList& fields) {
    out += fields.join(QLatin1Char(','));
    out += QLatin1Char('\n');
}

void appendPoints(QString& out, const char* kind, const Eigen::MatrixX2d& points, const Eigen::VectorXi& classes,
                  const Eigen::VectorXd& wrong, const QStringList& names) {
    for (Eigen::Index i = 0; i < points.rows(); ++i)
        appendRow(out, {QLatin1String(kind),
                        {},
                        {},
                        names.value(classes(i)),
                        csvNumber(points(i, 0)),
                        csvNumber(points(i, 1)),
                        {},
                        {},
                        wrong.size() == points.rows() ? csvNumber(wrong(i)) : QString()});
}

void appendBoundaries(QString& out, const char* kind, const QString& draw, const core::RegionsModel& model) {
    for (std::size_t c = 0; c < model.boundaries.size(); ++c)
        for (const auto& p : model.boundaries[c])
            appendRow(
                out, {QLatin1String(kind), draw, QString::number(c), {}, csvNumber(p[0]), csvNumber(p[1]), {}, {}, {}});
}

} // namespace

QByteArray regionsSidecarJson(const Session& session, const RegionsSettings& settings, const RegionsState& state,
                              const core::Dataset* dataset, const QString& figureFile) {
    Ordered j = detail::sessionJson(session);
    Ordered e = detail::exportHeader(figureFile);
    if (dataset)
        e["data"] = core::datasetJson(*dataset); // as loaded; the plane's own steps are below
    if (const core::RegionsProblem* p = state.resultProblem.get()) {
        e["plane"] = {{"axes", {p->axisName(0), p->axisName(1)}},
                      {"extent", {{"x0", p->x0()}, {"x1", p->x1()}, {"y0", p->y0()}, {"y1", p->y1()}}},
                      {"grid", p->spec().gridSize},
                      {"classes", p->classNames()},
                      {"train_rows", p->trainPoints().rows()},
                      {"test_rows", p->testPoints().rows()},
                      {"processing", core::processingLogJson(p->log())}};
    }
    if (state.result) {
        e["guarantee"] = core::guaranteeJson(state.result->guarantee);
        e["guarantee_all_draws"] = core::guaranteeJson(
            core::composedDraws(state.result->guarantee, static_cast<int>(state.result->draws.size())));
        e["results"] = resultsJson(settings, state);
    }
    j["export"] = e;
    return QByteArray::fromStdString(j.dump(2) + "\n");
}

QByteArray regionsCsv(const RegionsState& state) {
    QString out = QStringLiteral("kind,draw,chain,class,x,y,agreement,nonprivate_class,misclassified\n");
    const core::RegionsProblem* p = state.resultProblem.get();
    const core::RegionsResult* r = state.result.get();
    if (!p || !r)
        return out.toUtf8();
    QStringList names;
    for (const std::string& name : p->classNames())
        names << csvField(QString::fromStdString(name));
    const int g = p->spec().gridSize;
    const auto cells = static_cast<std::size_t>(g) * static_cast<std::size_t>(g);
    const bool draws = !r->draws.empty() && r->majority.size() == cells && r->agreement.size() == cells;
    const std::vector<std::uint8_t>& majority = draws ? r->majority : r->nonPrivate.cellClass;
    if (majority.size() == cells && r->nonPrivate.cellClass.size() == cells) {
        const double dx = (p->x1() - p->x0()) / g, dy = (p->y1() - p->y0()) / g;
        out.reserve(static_cast<qsizetype>(cells) * 60);
        for (int iy = 0; iy < g; ++iy)
            for (int ix = 0; ix < g; ++ix) {
                const std::size_t k =
                    static_cast<std::size_t>(iy) * static_cast<std::size_t>(g) + static_cast<std::size_t>(ix);
                appendRow(out, {QStringLiteral("cell"),
                                {},
                                {},
                                names.value(majority[k]),
                                csvNumber(p->x0() + (ix + 0.5) * dx),
                                csvNumber(p->y0() + (iy + 0.5) * dy),
                                csvNumber(draws ? r->agreement[k] : 1.0),
                                names.value(r->nonPrivate.cellClass[k]),
                                {}});
            }
    }
    appendPoints(out, "train", p->trainPoints(), p->trainClass(), r->trainMisclassified, names);
    appendPoints(out, "test", p->testPoints(), p->testClass(), r->testMisclassified, names);
    for (std::size_t d = 0; d < r->draws.size(); ++d)
        appendBoundaries(out, "boundary", QString::number(d), r->draws[d]);
    appendBoundaries(out, "nonprivate_boundary", QString(), r->nonPrivate);
    return out.toUtf8();
}

} // namespace elab::ui
