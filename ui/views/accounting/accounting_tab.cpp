#include "ui/views/accounting/accounting_tab.h"

#include "ui/dataset/loaded_dataset.h"
#include "ui/session/session.h"
#include "ui/session/session_json.h"
#include "ui/views/accounting/accounting_chart_model.h"
#include "ui/views/accounting/accounting_controller.h"
#include "ui/views/accounting/accounting_view.h"
#include "ui/views/shared_state.h"
#include "ui/widgets/settings_text.h"

#include "core/mechanisms/mechanism_catalog.h"
#include "core/report/result_json.h"

#include <QPointer>

#include <cmath>

namespace elab::ui {

namespace {

using Ordered = nlohmann::ordered_json;

/// The Utility view's measured DP-SGD sweep (at least two points), or nullopt.
std::optional<SweepForCost> sweepOf(const UtilitySweepSnapshot& utility) {
    const UtilitySettings& s = utility.settings;
    if (!core::mechanismInfo(s.mechanism.kind).trainsInEpochs || !utility.prepared)
        return std::nullopt;
    SweepForCost sweep;
    for (std::size_t i = 0; i < utility.eps.size() && i < utility.mean.size(); ++i)
        if (std::isfinite(utility.eps[i]) && std::isfinite(utility.mean[i])) {
            sweep.curve.eps.push_back(utility.eps[i]);
            sweep.curve.value.push_back(utility.mean[i]);
        }
    if (sweep.curve.eps.size() < 2)
        return std::nullopt;
    const long long n = utility.trainRows;
    const core::SgdSpec& g = s.mechanism.sgd;
    sweep.accountant = g.accountant;
    sweep.schedule = {1.0, g.samplingRate(n), g.totalSteps(n), s.mechanism.privacy.delta};
    sweep.nPublic = g.publicRows > 0;
    sweep.higherIsBetter = !core::isLossMetric(s.metric);
    sweep.metric = metricName(s.metric).toLower();
    sweep.description = QObject::tr("N = %1, S = %2, %3 epochs, δ = %4, σ by %5")
                            .arg(g.publicRows > 0 ? QObject::tr("%1 (public, add/remove)").arg(g.publicRows)
                                                  : QObject::tr("%1 (replace-one)").arg(n))
                            .arg(g.batchSize)
                            .arg(g.epochs)
                            .arg(s.mechanism.privacy.delta, 0, 'g', 3)
                            .arg(QString::fromLatin1(core::toString(g.accountant)));
    return sweep;
}

/// The schedule the Utility tab's DP-SGD settings stand for (s's slider ε and follow flag kept),
/// or nullopt when its mechanism does not train in epochs.
std::optional<AccountingSettings> scheduleOf(const UtilitySweepSnapshot& utility, AccountingSettings s) {
    const UtilitySettings& u = utility.settings;
    if (!core::mechanismInfo(u.mechanism.kind).trainsInEpochs)
        return std::nullopt;
    const core::SgdSpec& g = u.mechanism.sgd;
    s.nPublic = g.publicRows > 0;
    s.rows = g.publicRows > 0 ? g.publicRows : (utility.prepared ? utility.trainRows : 0);
    s.batchSize = g.batchSize;
    s.epochs = g.epochs;
    s.delta = u.mechanism.privacy.delta;
    s.accountant = g.accountant;
    return s;
}

/// Applies the Utility tab's DP-SGD schedule when the form follows it, and says which it shows.
void followUtility(const SharedState& shared, AccountingView& view, AccountingPanel& panel) {
    const AccountingSettings now = view.composedSettings();
    if (!now.followUtility) {
        panel.setSourceText(QObject::tr("The tab's own schedule (tick “Follow the Utility tab” to take its DP-SGD "
                                        "settings)."));
        return;
    }
    const std::optional<AccountingSettings> schedule = scheduleOf(shared.utilitySweep(), now);
    if (!schedule) {
        panel.setSourceText(QObject::tr("The Utility tab's mechanism does not train in epochs: the tab's own "
                                        "schedule until DP-SGD is chosen there."));
        return;
    }
    panel.setSourceText(QObject::tr("The Utility tab's DP-SGD settings."));
    if (!(*schedule == now))
        view.applySettings(*schedule);
}

Ordered curvesJson(const core::AccountingCurves& c) {
    Ordered j;
    j["q"] = c.inputs.q();
    j["steps"] = c.inputs.steps();
    j["rows"] = c.inputs.rows;
    j["batch_size"] = c.inputs.batchSize;
    j["epochs"] = c.inputs.epochs;
    j["delta"] = c.inputs.delta;
    j["eps"] = c.inputs.eps;
    j["adjacency"] = c.inputs.nPublic
                         ? "add/remove one row (N declared public); replace-one: (2ε, (1 + e^ε)δ)"
                         : "replace one row at the fixed N (not declared public): by group privacy from the "
                           "add/remove accountant at (ε/2, δ/(1 + e^{ε/2})); PLD: from the replace pair's loss "
                           "distribution directly";
    j["n_public"] = c.inputs.nPublic;
    j["calibrating_accountant"] = core::toString(c.inputs.accountant);
    j["current_sigma"] = core::numberOrNull(c.currentSigma); // null: no σ ≤ 1e6 reaches ε
    Ordered accountants = Ordered::array();
    for (std::size_t k = 0; k < core::kAccountants.size(); ++k) {
        Ordered eps = Ordered::array();
        for (double e : c.epsBySigma[k])
            eps.push_back(core::numberOrNull(e));
        Ordered spent = Ordered::array();
        for (double e : c.epsByEpoch[k])
            spent.push_back(core::numberOrNull(e));
        accountants.push_back({{"accountant", core::toString(core::kAccountants[k])},
                               {"title", core::accountantTitle(core::kAccountants[k])},
                               {"proven", c.needed[k].result.proven},
                               {"sigma_for_eps", core::numberOrNull(c.needed[k].sigma)},
                               {"eps_at_that_sigma", core::numberOrNull(c.needed[k].result.epsilon)},
                               {"reached_target", c.needed[k].reachedTarget},
                               {"rdp_eps_at_that_sigma", core::numberOrNull(c.rdpOfNeeded[k])},
                               {"eps_by_sigma", eps},
                               {"eps_by_epoch", spent}});
    }
    j["sigmas"] = c.sigmas;
    j["epochs_axis"] = c.epochs;
    j["accountants"] = accountants;
    return j;
}

} // namespace

AccountingTab::AccountingTab(QWidget* parent, ViewHost& host)
    : m_shared(host.sharedState()), m_controller(new AccountingController(parent)),
      m_panel(new AccountingPanel(parent)), m_view(new AccountingView(m_controller, m_panel, parent)) {
    QObject::connect(m_controller, &AccountingController::failed, m_view, [&host](const QString& message) {
        host.showStatusMessage(QObject::tr("Privacy accounting: %1").arg(message), 8000);
    });
    m_view->applySettings(m_view->composedSettings()); // the defaults, computed once N is known
    if (SharedState* shared = m_shared) {
        // The view is the context: the connections end with it. Neither the tab nor the panel is
        // captured by reference to the tab (the Utility view publishes while the window is torn down).
        AccountingView* view = m_view;
        QPointer<AccountingPanel> panel = m_panel;
        auto follow = [shared, view, panel] {
            if (panel)
                followUtility(*shared, *view, *panel);
        };
        QObject::connect(shared, &SharedState::utilitySweepChanged, view, follow);
        QObject::connect(m_panel, &AccountingPanel::settingsChanged, view, follow);
        follow();
    }
}

QWidget* AccountingTab::widget() { return m_view; }
QWidget* AccountingTab::sidePanel() { return m_panel; }
ComputeControllerBase* AccountingTab::controller() { return m_controller; }

void AccountingTab::setDataset(const LoadedDataset& loaded) { m_controller->setDataset(loaded.data); }

void AccountingTab::becameCurrent() { syncSweep(); }

void AccountingTab::syncSweep() {
    SharedState* shared = m_shared;
    if (!shared)
        return;
    AccountingController* controller = m_controller;
    if (!m_followingUtility) { // from now on, each new measured point updates the cost column
        m_followingUtility = true;
        // Neither the tab nor the view is captured: the utility view publishes while the window is
        // torn down, and only the shared state and the controller (the context) are certain to
        // exist then.
        QObject::connect(shared, &SharedState::utilitySweepChanged, controller,
                         [shared, controller] { controller->setSweep(sweepOf(shared->utilitySweep())); });
    }
    controller->setSweep(sweepOf(shared->utilitySweep()));
}

void AccountingTab::applyStartOptions(const StartOptions& options) {
    AccountingSettings s = m_view->composedSettings();
    if (options.eps) // ∞ too: the view shows why it has nothing to compute there
        s.currentEps = *options.eps;
    m_view->applySettings(s);
}

void AccountingTab::saveSettings(Session& session) const {
    storeAccountingSettings(session, m_view->composedSettings());
}

void AccountingTab::restoreSettings(const Session& session) {
    if (const auto s = accountingSettingsOf(session)) {
        m_view->applySettings(*s);
        if (m_shared)
            followUtility(*m_shared, *m_view, *m_panel);
    }
}

QList<ViewFigure> AccountingTab::figures() const {
    const AccountingController* controller = m_controller;
    auto sidecar = [controller](const Session& session, const QString& file) {
        Ordered j = detail::sessionJson(session);
        Ordered e = detail::exportHeader(file);
        if (const auto c = controller->curves())
            e["accounting"] = curvesJson(*c);
        j["export"] = e;
        return QByteArray::fromStdString(j.dump(2) + "\n");
    };
    return {ViewFigure{QStringLiteral("-eps-vs-sigma"), m_view->sigmaChart(), sidecar},
            ViewFigure{QStringLiteral("-eps-vs-epoch"), m_view->epochChart(), sidecar}};
}

bool AccountingTab::complete() const { return m_controller->upToDate(); }

ViewType accountingViewType() {
    ViewType type;
    type.id = QStringLiteral("accounting");
    type.title = QObject::tr("Privacy accounting");
    type.hasFigures = true;
    type.create = [](QWidget* parent, ViewHost& host) { return std::make_unique<AccountingTab>(parent, host); };
    keepSettingsInSession(type, [](const nlohmann::json& block) { (void)detail::accountingSettingsFromJson(block); });
    type.readSettings = [](const nlohmann::json& j, Session& s) {
        storeAccountingSettings(s, detail::accountingSettingsFromJson(j));
    };
    return type;
}

} // namespace elab::ui
