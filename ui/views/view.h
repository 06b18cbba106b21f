#pragma once
// One tab of the main window, as the shell, sessions, exports and batch mode see it. Each
// view folder (ui/views/<id>/) has a class implementing View and one line in
// view_catalog.cpp; nothing else names the view. GUI thread only.

#include "ui/charts/chart_data.h"

#include "core/learner/mechanism.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <functional>
#include <optional>
#include <vector>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace elab::core {
struct DecisionInputs;
}

namespace elab::ui {

class ComputeControllerBase;
class SharedState;
struct LoadedDataset;
struct LoadRequest;
struct Session;
class View;

/// One figure a view exports: the chart (PNG/SVG/PDF + CSV) and its JSON sidecar.
struct ViewFigure {
    /// Added to the export's base name when a view has several figures ("-test-error").
    QString suffix;
    charts::ChartData chart;
    /// The sidecar for the figure written to figureFile: the session plus what was exported.
    std::function<QByteArray(const Session& session, const QString& figureFile)> sidecar;
    /// The CSV beside the figure; empty: the chart's series (charts::chartCsv). A view whose
    /// figure shows more than its series (a raster's cells) writes its own.
    std::function<QByteArray()> csv = {};
};

/// What the command line sets before the first dataset loads (--mechanism, --eps, --target);
/// each view applies what it has.
struct StartOptions {
    std::optional<core::MechanismKind> mechanism;
    std::optional<double> eps; ///< the slider's ε (+∞: the non-private stop)
    std::optional<double> target;
    std::vector<core::MechanismKind> compareWith; ///< --compare: the Utility view's compare set
};

/// What a view may ask of the window that hosts it.
class ViewHost {
public:
    virtual ~ViewHost() = default;
    /// A transient message in the status bar.
    virtual void showStatusMessage(const QString& text, int milliseconds) = 0;
    /// What views publish for each other (ui/views/shared_state.h), owned by the host; views
    /// read it when they are created. Null: the view stands alone (nothing to read or publish).
    virtual SharedState* sharedState() const { return nullptr; }
    /// Load a dataset (the Data tab reloads the shown one with new public bounds).
    virtual void requestLoad(const LoadRequest& request) { (void)request; }
};

class View {
public:
    virtual ~View() = default;

    /// The tab's page (owned by the window once added).
    virtual QWidget* widget() = 0;
    /// A form shown in the left column under the dataset panel while this view is shown
    /// (and while a view without a form of its own is shown after it); null: none.
    virtual QWidget* sidePanel() { return nullptr; }
    /// True if the view brings its own form in its page: other views' side panels are
    /// hidden while it is shown.
    virtual bool hidesSidePanels() const { return false; }
    /// The view's computations (busy/idle, failures, Cancel, status-bar progress); null: none.
    virtual ComputeControllerBase* controller() { return nullptr; }

    /// A new dataset, before a session's settings are applied (names, shapes, tables).
    virtual void prepareDataset(const LoadedDataset& loaded) { (void)loaded; }
    /// The same dataset, after a session's settings: start computing (or wait until shown).
    virtual void setDataset(const LoadedDataset& loaded) { (void)loaded; }
    /// The view's tab became the current one (a costly view may start its work only now).
    virtual void becameCurrent() {}

    /// The command line's settings (before the first dataset; sessions come later and win).
    virtual void applyStartOptions(const StartOptions& options) { (void)options; }

    /// Settings to and from a session (Session's typed members or its viewSettings block).
    virtual void saveSettings(Session& session) const { (void)session; }
    virtual void restoreSettings(const Session& session) { (void)session; }

    /// The figures of the view as shown now (exports, batch mode, copy); empty: none.
    virtual QList<ViewFigure> figures() const { return {}; }
    /// Batch mode: the computation has run to completion (with controller() idle).
    virtual bool complete() const { return true; }
    /// File ▸ Decision report…: what this view adds to the report (core/report/decision_report.h) —
    /// the Utility view its data, curves, chosen ε and target, the Audit view its verdicts.
    virtual void addToReport(core::DecisionInputs& report) const { (void)report; }
};

} // namespace elab::ui
