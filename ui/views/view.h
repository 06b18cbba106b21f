#pragma once
// One tab of the main window, as the shell, sessions, exports and batch mode see it. Each
// view folder (ui/views/<id>/) has a class implementing View and one line in
// view_catalog.cpp; nothing else names the view. GUI thread only.

#include "ui/charts/chart_data.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <functional>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace elab::ui {

class ComputeControllerBase;
struct LoadedDataset;
struct Session;

/// One figure a view exports: the chart (PNG/SVG/PDF + CSV) and its JSON sidecar.
struct ViewFigure {
    /// Added to the export's base name when a view has several figures ("-test-error").
    QString suffix;
    charts::ChartData chart;
    /// The sidecar for the figure written to figureFile: the session plus what was exported.
    std::function<QByteArray(const Session& session, const QString& figureFile)> sidecar;
};

/// What a view may ask of the window that hosts it.
class ViewHost {
public:
    virtual ~ViewHost() = default;
    /// A transient message in the status bar.
    virtual void showStatusMessage(const QString& text, int milliseconds) = 0;
};

class View {
public:
    virtual ~View() = default;

    /// The tab's page (owned by the window once added).
    virtual QWidget* widget() = 0;
    /// A form shown in the left column under the dataset panel while this view is shown
    /// (and while a view without a form of its own is shown); null: none.
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

    /// Settings to and from a session (Session's typed members or its viewSettings block).
    virtual void saveSettings(Session& session) const { (void)session; }
    virtual void restoreSettings(const Session& session) { (void)session; }

    /// The figures of the view as shown now (exports, batch mode, copy); empty: none.
    virtual QList<ViewFigure> figures() const { return {}; }
    /// Batch mode: the computation has run to completion (with controller() idle).
    virtual bool complete() const { return true; }
};

} // namespace elab::ui
