#include "ui/views/stability/stability_controller.h"

#include "ui/jobs/background_release.h"

#include <stdexcept>
#include <utility>

namespace elab::ui {

namespace {

/// Prepares the data as the CLI does and checks that the model can be fitted on it.
std::shared_ptr<const core::PreparedData> prepare(const core::Dataset& dataset,
                                                  const std::shared_ptr<const core::Dataset>& test,
                                                  const StabilitySettings& s, core::StabilityModel model) {
    if (const std::string problem = s.checkTask(dataset.targets.kind); !problem.empty())
        throw std::invalid_argument(problem);
    auto prepared = std::make_shared<const core::PreparedData>(core::prepareExperimentData(
        dataset, testCopy(test), s.toPreparation(model, dataset.features.isSparse()), s.seed));
    if (!prepared->test || prepared->test->rows() < 1)
        throw std::invalid_argument(test ? "the test file has no rows"
                                         : "the held-out test fraction left no test rows");
    const core::TaskKind task = prepared->train.targets.kind;
    if (model == core::StabilityModel::Logistic && task != core::TaskKind::Binary)
        throw std::invalid_argument("logistic regression needs a binary label");
    return prepared;
}

} // namespace

StabilityController::StabilityController(QObject* parent)
    : ComputeController(parent), m_sweep(addJobSlot(QStringLiteral("stability"), true)) {
    connect(m_sweep, &JobSlot::finished, this, [this](bool cancelled) {
        if (cancelled && !m_state.complete) { // keeps the cells that finished
            m_state.cancelled = true;
            emit stateChanged();
        }
    });
    connect(m_sweep, &JobSlot::progress, this, [this](double fraction, const QString&) { m_progress = fraction; });
}

StabilityController::~StabilityController() {
    cancel();
    waitForIdle();
}

void StabilityController::reportFailure(const QString& message) {
    setLastError(message);
    emit stateChanged();
    emit failed(message);
}

void StabilityController::applySettings(const StabilitySettings& next) {
    if (const std::string problem = next.validate(); !problem.empty()) {
        setLastError(QString::fromStdString(problem)); // shown inline; nothing to compute
        emit stateChanged();
        updateBusy();
        return;
    }
    const bool sweep = rerunRequested() || !(next == m_applied) || !lastError().isEmpty() || m_state.cancelled;
    m_applied = next;
    if (!sweep || !hasDataset()) {
        updateBusy();
        return;
    }
    clearRerun();
    startSweep();
    updateBusy();
}

void StabilityController::startSweep() {
    auto dataset = this->dataset();
    StabilitySettings s = m_applied;
    if (dataset->targets.kind != core::TaskKind::Multiclass)
        s.positiveClass.reset(); // binarising applies to multiclass labels only
    const core::StabilityModel model = s.resolvedModel(dataset->targets.kind);
    releaseInBackground(std::exchange(m_state, StabilityState{}));
    m_state.model = model;
    m_state.rho = s.rhoGrid();
    m_state.methods = s.methods;
    m_state.removal = s.removal;
    m_state.cells.assign(m_state.rho.size() * m_state.methods.size(), std::nullopt);
    setLastError({});
    m_progress = 0.0;
    emit stateChanged();
    m_sweep->start(tr("Stability study"),
                   [this, dataset, test = testDataset(), s, model](JobContext& job) -> std::function<void()> {
                       auto prepared = prepare(*dataset, test, s, model);
                       job.post([this, prepared] {
                           m_state.data = prepared;
                           emit stateChanged();
                       });
                       job.run().throwIfStopped();
                       const core::StabilitySpec spec = s.toSpec(model, prepared->train.features.isSparse());
                       const core::StabilityData data{prepared->train.features, prepared->train.targets.values,
                                                      prepared->test->features, prepared->test->targets.values};
                       auto sink = [&job, this](const core::StabilityCell& cell) {
                           job.post([this, cell] {
                               const std::size_t k = cell.rhoIndex * m_state.methods.size() + cell.methodIndex;
                               if (k < m_state.cells.size())
                                   m_state.cells[k] = cell;
                               emit stateChanged();
                           });
                       };
                       core::StabilityResult result = core::runStabilitySweep(data, spec, &job.run(), sink);
                       return [this, result = std::move(result)] {
                           for (const auto& cell : result.cells) // also the ones whose post was still queued
                               m_state.cells[cell.rhoIndex * m_state.methods.size() + cell.methodIndex] = cell;
                           m_state.baselines = result.baselines;
                           m_state.stability = result.stability;
                           m_state.cancelled = result.cancelled;
                           m_state.complete = !result.cancelled;
                           m_state.fits = result.fits;
                           m_state.seconds = result.secondsBaseline + result.secondsSweep + result.secondsStability;
                           emit stateChanged();
                       };
                   });
}

} // namespace elab::ui
