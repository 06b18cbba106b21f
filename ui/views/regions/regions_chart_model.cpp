#include "ui/views/regions/regions_chart_model.h"

#include "ui/charts/chart_geometry.h"
#include "ui/charts/palettes.h"
#include "ui/views/regions/regions_text.h"
#include "ui/widgets/settings_text.h"

#include <QLocale>
#include <QStringList>

#include <algorithm>
#include <array>
#include <cmath>

namespace elab::ui {

using charts::SeriesData;
using charts::SeriesKind;

namespace {

constexpr double kFullOpacity = 0.55;  // a cell all draws agree on: points stay readable on it
constexpr double kFaintOpacity = 0.05; // the draws split evenly
constexpr double kMapOpacity = 0.8;    // the agreement map: the grid shows through faintly
constexpr double kPointSize = 7.0;
constexpr double kRingSize = 15.0;
// Points drawn per set at most: every k-th row beyond (each is an image drawn at every repaint).
constexpr Eigen::Index kMaxDrawnTrain = 600;
constexpr Eigen::Index kMaxDrawnTest = 200;
const QColor kDrawLine(60, 60, 60, 110);
const QColor kShownDrawLine(30, 30, 30, 230);
const QColor kNonPrivateLine(0, 0, 0);

QRgb withOpacity(const QColor& c, double opacity) {
    return qRgba(c.red(), c.green(), c.blue(), static_cast<int>(std::lround(255.0 * std::clamp(opacity, 0.0, 1.0))));
}

/// Agreement a among K classes as t in [0, 1]: 0 when the draws split evenly, 1 when unanimous.
double agreementLevel(double a, int classes) {
    const double floor = 1.0 / std::max(2, classes);
    return std::clamp((a - floor) / (1.0 - floor), 0.0, 1.0);
}

/// Room for `most` series: at least four (three-class boundaries, and the built-in sets' two or
/// three classes), rounded up to a power of two, so that the keys (and the Qt series) stay the
/// same while the slider moves, across datasets of as many classes, and on the empty chart
/// shown while a plane is prepared: each is then an update of the Qt chart, not a rebuild.
int capacityFor(std::size_t most) {
    int capacity = 4;
    while (static_cast<std::size_t>(capacity) < most)
        capacity *= 2;
    return capacity;
}

/// Series per draw: enough for the most chains any model has had on this plane (state.chainsSeen)
/// and has now.
int chainCapacity(const core::RegionsResult* r, std::size_t seen) {
    std::size_t most = seen;
    if (r) {
        for (const core::RegionsModel& m : r->draws)
            most = std::max(most, m.boundaries.size());
        most = std::max(most, r->nonPrivate.boundaries.size());
    }
    return capacityFor(most);
}

QVector<QPointF> polyline(const core::Polyline& line) {
    QVector<QPointF> points;
    points.reserve(static_cast<qsizetype>(line.size()));
    for (const auto& p : line)
        points.append(QPointF(p[0], p[1]));
    return points;
}

/// The chains of one model as series boundary:<prefix>:<c>, c < capacity.
void addBoundaries(charts::ChartData& chart, const QString& prefix, const core::RegionsModel* model, int capacity,
                   const QColor& colour, double width, Qt::PenStyle style, const QString& name) {
    for (int c = 0; c < capacity; ++c) {
        SeriesData s = charts::makeSeries(QStringLiteral("boundary:%1:%2").arg(prefix).arg(c),
                                          c == 0 ? name : QString(), SeriesKind::Line, colour);
        s.width = width;
        s.style = style;
        if (model && static_cast<std::size_t>(c) < model->boundaries.size())
            s.points = polyline(model->boundaries[static_cast<std::size_t>(c)]);
        chart.series << s;
    }
}

/// One Points series per class slot: key prefix:k, k < capacity (the slots beyond the classes stay
/// empty and unnamed). points may be null (nothing prepared yet).
void addPoints(charts::ChartData& chart, const QString& prefix, const Eigen::MatrixX2d* points,
               const Eigen::VectorXi* classes, const std::vector<std::string>& names, int capacity, bool hollow,
               Eigen::Index stride) {
    const int k = static_cast<int>(names.size());
    QVector<SeriesData> series;
    for (int c = 0; c < capacity; ++c) {
        SeriesData s = charts::makeSeries(QStringLiteral("%1:%2").arg(prefix).arg(c),
                                          hollow || c >= k ? QString()
                                                           : QString::fromStdString(names[static_cast<std::size_t>(c)]),
                                          SeriesKind::Points, regionsClassColor(c, k));
        s.width = kPointSize;
        s.hollow = hollow;
        series << s;
    }
    if (points && classes)
        for (Eigen::Index i = 0; i < points->rows(); i += stride)
            if ((*classes)(i) >= 0 && (*classes)(i) < std::min(k, capacity))
                series[(*classes)(i)].points.append(QPointF((*points)(i, 0), (*points)(i, 1)));
    chart.series << series;
}

void addMisclassified(QVector<QPointF>& out, const Eigen::MatrixX2d& points, const Eigen::VectorXd& fractions,
                      Eigen::Index stride) {
    if (fractions.size() != points.rows())
        return;
    for (Eigen::Index i = 0; i < points.rows(); i += stride)
        if (fractions(i) > 0.5)
            out.append(QPointF(points(i, 0), points(i, 1)));
}

Eigen::Index drawnStride(Eigen::Index rows, Eigen::Index most) { return rows > most ? (rows + most - 1) / most : 1; }

/// "training rows" or "1 in 5 of the 14,000 training rows".
QString drawnRows(Eigen::Index rows, Eigen::Index most, const QString& which) {
    const Eigen::Index stride = drawnStride(rows, most);
    return stride == 1
               ? which
               : QStringLiteral("1 in %1 of the %2 %3").arg(stride).arg(QLocale::c().toString(qlonglong(rows)), which);
}

QString footnote(const RegionsSettings& s, const RegionsState& state, const QString& datasetName) {
    QStringList parts;
    const core::RegionsProblem* problem = state.resultProblem.get();
    parts << QStringLiteral("Dots: %1; small rings: %2; large red rings: misclassified by most "
                            "draws; thin grey lines: each draw's boundary; dashed: the non-private boundary.")
                 .arg(problem
                          ? drawnRows(problem->trainPoints().rows(), kMaxDrawnTrain, QStringLiteral("training rows"))
                          : QStringLiteral("training rows"),
                      problem ? drawnRows(problem->testPoints().rows(), kMaxDrawnTest, QStringLiteral("test rows"))
                              : QStringLiteral("test rows"));
    parts << QStringLiteral("%1, %2: %3, %4 draws, seed %5, grid %6 × %6.")
                 .arg(datasetName, mechanismName(s.mechanism.kind), regionsFillTitle(s.fill).toLower())
                 .arg(s.draws)
                 .arg(s.seed)
                 .arg(state.shownGrid() > 0 ? state.shownGrid() : s.gridSize);
    const GuaranteeText guarantee = regionsGuarantee(s, state);
    if (!guarantee.plain.isEmpty())
        parts << guarantee.plain.section(QLatin1Char('\n'), 0, 0) + QLatin1Char('.');
    return parts.join(QLatin1Char(' '));
}

} // namespace

QColor regionsClassColor(int k, int classes) {
    if (classes <= 8)
        return charts::paletteColor(k);
    return QColor::fromRgb(charts::palette::kTolMuted[static_cast<std::size_t>(((k % 10) + 10) % 10)]);
}
QColor misclassifiedColor() { return QColor::fromRgb(charts::palette::kMisclassified); }

double agreementOpacity(double agreement, int classes) {
    const double t = agreementLevel(agreement, classes);
    return kFaintOpacity + (kFullOpacity - kFaintOpacity) * t * t;
}

QImage regionsImage(const core::RegionsResult& r, int gridSize, int classes, RegionsFill fill, int fillDraw) {
    const auto cells = static_cast<std::size_t>(gridSize) * static_cast<std::size_t>(gridSize);
    const bool noDraws = r.draws.empty(); // ε = ∞: the non-private model alone, unanimous
    const std::vector<std::uint8_t>* cls = &r.nonPrivate.cellClass;
    if (!noDraws && fill == RegionsFill::Draw)
        cls =
            &r.draws[static_cast<std::size_t>(std::clamp(fillDraw, 0, static_cast<int>(r.draws.size()) - 1))].cellClass;
    else if (!noDraws)
        cls = &r.majority;
    const std::vector<float>* agreement = noDraws || fill == RegionsFill::Draw ? nullptr : &r.agreement;
    if (gridSize <= 0 || cls->size() != cells || (agreement && agreement->size() != cells))
        return {};
    QVector<QColor> colours;
    for (int k = 0; k < std::max(2, classes); ++k)
        colours << regionsClassColor(k, classes);
    QImage image(gridSize, gridSize, QImage::Format_ARGB32);
    for (int iy = 0; iy < gridSize; ++iy) {
        auto* row = reinterpret_cast<QRgb*>(image.scanLine(gridSize - 1 - iy)); // y grows upwards
        for (int ix = 0; ix < gridSize; ++ix) {
            const std::size_t cell =
                static_cast<std::size_t>(iy) * static_cast<std::size_t>(gridSize) + static_cast<std::size_t>(ix);
            const double a = agreement ? (*agreement)[cell] : 1.0;
            if (fill == RegionsFill::Agreement) {
                row[ix] = withOpacity(charts::sequentialColor(agreementLevel(a, classes)), kMapOpacity);
                continue;
            }
            const int k = std::min<int>((*cls)[cell], static_cast<int>(colours.size()) - 1);
            row[ix] = withOpacity(colours[k], agreementOpacity(a, classes));
        }
    }
    return image;
}

charts::ChartData buildRegionsChart(const RegionsSettings& s, const RegionsState& state, const QString& datasetName,
                                    bool dragging) {
    charts::ChartData chart;
    chart.logX = false;
    const core::RegionsProblem* problem = state.resultProblem.get();
    const core::RegionsResult* r = state.result.get();
    if (!problem || !r) { // the same series, empty: the Qt chart is updated, not rebuilt
        problem = nullptr;
        r = nullptr;
    }
    if (!r)
        chart.title = QStringLiteral("Decision regions");
    else if (dragging)
        chart.title = QStringLiteral("Decision regions — %1").arg(mechanismName(s.mechanism.kind));
    else
        chart.title =
            QStringLiteral("Decision regions at %1 — %2").arg(regionsEpsText(r->eps), mechanismName(s.mechanism.kind));
    chart.footnote = footnote(s, state, datasetName);
    const int classes = problem ? problem->classes() : 2;
    if (problem) {
        chart.xTitle = QString::fromStdString(problem->axisName(0));
        chart.yTitle = QString::fromStdString(problem->axisName(1));
        chart.xMin = problem->x0();
        chart.xMax = problem->x1();
        chart.yMin = problem->y0();
        chart.yMax = problem->y1();
        chart.raster = {regionsImage(*r, problem->spec().gridSize, classes, s.fill, s.fillDraw), chart.xMin, chart.xMax,
                        chart.yMin, chart.yMax};
    } else {
        chart.xMin = 0.0;
        chart.xMax = 1.0;
        chart.yMin = 0.0;
        chart.yMax = 1.0;
    }
    if (s.fill == RegionsFill::Agreement) {
        chart.colorScale.title = QStringLiteral("agreement: share of draws voting with the majority");
        for (int i = 0; i <= 8; ++i)
            chart.colorScale.colors << charts::sequentialColor(i / 8.0);
        chart.colorScale.min = 1.0 / std::max(2, classes);
        chart.colorScale.max = 1.0;
    }

    const int capacity = chainCapacity(r, state.chainsSeen);
    for (int d = 0; d < s.draws; ++d) {
        const bool shown = s.fill == RegionsFill::Draw && d == s.fillDraw;
        const core::RegionsModel* model =
            r && static_cast<std::size_t>(d) < r->draws.size() ? &r->draws[static_cast<std::size_t>(d)] : nullptr;
        addBoundaries(chart, QString::number(d), model, capacity, shown ? kShownDrawLine : kDrawLine, shown ? 2.0 : 1.0,
                      Qt::SolidLine, QString());
    }
    addBoundaries(chart, QStringLiteral("nonprivate"), r ? &r->nonPrivate : nullptr, capacity, kNonPrivateLine, 2.0,
                  Qt::DashLine, QStringLiteral("non-private boundary"));
    const std::vector<std::string> noNames;
    const std::vector<std::string>& names = problem ? problem->classNames() : noNames;
    const int classSlots = capacityFor(names.size());
    const Eigen::Index trainStride = problem ? drawnStride(problem->trainPoints().rows(), kMaxDrawnTrain) : 1;
    const Eigen::Index testStride = problem ? drawnStride(problem->testPoints().rows(), kMaxDrawnTest) : 1;
    addPoints(chart, QStringLiteral("train"), problem ? &problem->trainPoints() : nullptr,
              problem ? &problem->trainClass() : nullptr, names, classSlots, false, trainStride);
    addPoints(chart, QStringLiteral("test"), problem ? &problem->testPoints() : nullptr,
              problem ? &problem->testClass() : nullptr, names, classSlots, true, testStride);
    // At ε = ∞ the fractions are the non-private model's own mistakes (0 or 1).
    SeriesData wrong = charts::makeSeries(QStringLiteral("misclassified"),
                                          r && r->draws.empty() ? QStringLiteral("misclassified (non-private)")
                                                                : QStringLiteral("misclassified by most draws"),
                                          SeriesKind::Points, misclassifiedColor());
    wrong.width = kRingSize;
    wrong.hollow = true;
    if (problem) {
        addMisclassified(wrong.points, problem->trainPoints(), r->trainMisclassified, trainStride);
        addMisclassified(wrong.points, problem->testPoints(), r->testMisclassified, testStride);
    }
    chart.series << wrong;
    return chart;
}

} // namespace elab::ui
