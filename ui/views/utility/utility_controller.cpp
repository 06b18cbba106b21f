#include "ui/views/utility/utility_controller.h"

#include "core/mechanisms/mechanism_catalog.h"
#include "ui/jobs/background_release.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace elab::ui {

namespace {

constexpr int kPreviewRepeats = 3;
// Training sets with more rows than this (a million rows, issue 15) preview with one repetition
// while the slider is dragged: one fit there takes 0.1–1 s. Not a subsample: the noise is
// scaled by n, so a smaller set would preview another, noisier model.
constexpr core::Index kLargeTrainingRows = 200'000;

bool sameData(const UtilitySettings& a, const UtilitySettings& b) {
    return core::sameFormSteps(a.preprocess, b.preprocess) && a.testFraction == b.testFraction && a.seed == b.seed;
}

bool sameSweep(const UtilitySettings& a, const UtilitySettings& b) {
    return sameData(a, b) && core::sameMechanism(a.mechanism, b.mechanism) && a.metric == b.metric &&
           a.repeats == b.repeats && a.epsMin == b.epsMin && a.epsMax == b.epsMax && a.gridPoints == b.gridPoints;
}

/// Multiclass targets train one model per class (one-vs-rest, ε and δ split across them).
core::SweepData sweepData(const core::PreparedData& d) {
    return core::sweepDataOf(d.train, d.test ? &*d.test : nullptr);
}

core::UtilitySweepSpec sweepSpec(const UtilitySettings& s) {
    core::UtilitySweepSpec spec;
    spec.mechanism = s.mechanism;
    spec.repeats = s.repeats;
    spec.metric = s.metric;
    spec.seed = s.seed;
    spec.estimators = {core::Estimator::FirstOrder, core::Estimator::SecondOrder, core::Estimator::InverseEps,
                       core::Estimator::Anchored};
    return spec;
}

/// The private mechanisms need a bounded loss gradient: classification with a margin loss.
void checkSupported(const core::PreparedData& d, const UtilitySettings& s) {
    if (d.train.targets.kind == core::TaskKind::Regression)
        throw std::invalid_argument("regression targets: the utility view needs a classification dataset "
                                    "(the squared loss has no bounded gradient, so no private mechanism here)");
    if (!s.mechanism.model.loss.isMargin())
        throw std::invalid_argument("the squared loss is for regression; choose a margin loss");
    if (core::usesTestSet(s.metric) && !d.test)
        throw std::invalid_argument("the test metrics need a held-out test fraction > 0");
}

} // namespace

UtilityController::UtilityController(QObject* parent)
    : ComputeController(parent), m_sweep(addJobSlot(QStringLiteral("sweep"), true)),
      m_measuring(addJobSlot(QStringLiteral("measuring"), false)), m_probe(addJobSlot(QStringLiteral("probe"), false)),
      m_verify(addJobSlot(QStringLiteral("verify"), true)), m_compare(addJobSlot(QStringLiteral("compare"), true)),
      m_compareProbe(addJobSlot(QStringLiteral("compare-probe"), false)) {
    connect(m_sweep, &JobSlot::finished, this, [this](bool cancelled) {
        if (cancelled) { // keeps the points that finished
            m_state.sweepCancelled = true;
            emit stateChanged();
        }
    });
    connect(m_compare, &JobSlot::finished, this, [this](bool cancelled) {
        if (cancelled) // keeps the points that finished; the cancelled ones are not complete
            emit stateChanged();
        else // the slot is idle now: the ranked readout's measurements
            requestCompareProbe();
    });
}

UtilityController::~UtilityController() {
    cancel();
    waitForIdle();
}

void UtilityController::sliderReleased() {
    requestProbe(); // in full after a preview
    requestCompareProbe();
    updateBusy();
}

bool UtilityController::probeNeeded() const {
    const double eps = m_applied.currentEps;
    if (!m_state.data || !(eps > 0.0) || std::isinf(eps))
        return false;
    const auto& probe = m_state.probe;
    return !probe || probe->eps != eps || (!probe->full && !dragging());
}

void UtilityController::requestProbe() {
    if (!m_state.data || hasPending())
        return; // the sweep starts it once the data is prepared; a pending change decides anew
    if (std::isinf(m_applied.currentEps)) { // the non-private model: nothing to measure
        m_probe->cancel();
        takeHeld();
        if (m_state.nonPrivate)
            m_state.probe = ProbeResult{m_applied.currentEps, *m_state.nonPrivate, 0.0, m_applied.repeats, true};
        return;
    }
    if (!probeNeeded() || (dragging() && holdWhileRunning(m_probe)))
        return;
    startProbe();
}

void UtilityController::applySettings(const UtilitySettings& next) {
    if (!next.validate().empty()) {
        updateBusy(); // the panel shows the problem inline; nothing to compute
        return;
    }
    const bool sweep = rerunRequested() || !sameSweep(next, m_applied);
    const bool measuring = next.measureAt != m_applied.measureAt;
    const bool compare = next.compareWith != m_applied.compareWith;
    m_applied = next;
    if (!hasDataset()) {
        updateBusy();
        return;
    }
    if (sweep) {
        clearRerun();
        startSweep();
    } else {
        if (measuring)
            startMeasuring();
        if (compare)
            startCompare();
        requestProbe(); // a new ε, or a release that joined this change (a preview shown)
        requestCompareProbe();
        emit stateChanged(); // estimators, target or ε: drawn from what is there (the instant estimate moves now)
    }
    updateBusy();
}

void UtilityController::startSweep() {
    for (JobSlot* slot : {m_measuring, m_probe, m_verify, m_compare, m_compareProbe})
        slot->cancel();
    takeHeld();
    releaseInBackground(std::exchange(m_state, UtilityState{})); // off the GUI thread: it may hold a million rows
    m_state.grid = m_applied.grid();
    m_state.points.assign(m_state.grid.size(), std::nullopt);
    setLastError({});
    emit stateChanged();
    auto dataset = this->dataset();
    auto test = testDataset();
    const UtilitySettings s = m_applied;
    m_sweep->start(tr("Utility sweep"), [this, dataset, test, s](JobContext& job) -> std::function<void()> {
        core::DataPreparation preparation;
        preparation.testFraction = s.testFraction;
        preparation.preprocess = s.preprocess;
        auto prepared = std::make_shared<const core::PreparedData>(
            core::prepareExperimentData(*dataset, testCopy(test), preparation, s.seed));
        checkSupported(*prepared, s);
        auto problem = core::prepareProblem(sweepData(*prepared), s.mechanism, s.metric, prepared);
        auto dominance = core::dominantFeature(prepared->train);
        auto majorityTrain = core::majorityClass(prepared->train);
        auto majorityTest = prepared->test ? core::majorityClass(*prepared->test) : std::nullopt;
        job.post([this, prepared, problem, dominance, majorityTrain, majorityTest] {
            m_state.data = prepared;
            m_state.dominance = dominance;
            m_state.majorityTrain = majorityTrain;
            m_state.majorityTest = majorityTest;
            m_state.problem = problem;
            emit sweepStarted();
            startMeasuring();
            requestProbe();
        });
        core::UtilitySweepSpec spec = sweepSpec(s);
        spec.grid = s.grid();
        spec.estimators.clear();
        auto sink = [&job, this](const core::SweepPoint& point) {
            job.post([this, point] {
                if (static_cast<std::size_t>(point.gridIndex) < m_state.points.size())
                    m_state.points[static_cast<std::size_t>(point.gridIndex)] = point;
                emit stateChanged();
            });
        };
        core::UtilitySweepResult result = core::runUtilitySweep(*problem, spec, &job.run(), sink);
        return [this, result = std::move(result)] {
            if (std::isfinite(result.nonPrivate))
                m_state.nonPrivate = result.nonPrivate;
            m_state.guaranteeAtMax = result.guaranteeAtMax;
            m_state.guarantees = result.guarantees;
            m_state.trainLossBound = result.trainLossBound;
            m_state.models = result.models;
            m_state.sweepCancelled = result.cancelled;
            m_state.sweepComplete = !result.cancelled;
            m_state.sweepSeconds = result.secondsMeasured;
            for (const auto& point : result.points) // also the ones whose post was still queued
                m_state.points[static_cast<std::size_t>(point.gridIndex)] = point;
            emit stateChanged();
            if (m_state.sweepComplete)
                startCompare(); // one after another: the compared mechanisms once this one is measured
        };
    });
}

void UtilityController::startCompare() {
    if (!m_state.data || !m_state.sweepComplete)
        return;               // the main sweep's delivery starts it
    m_compareProbe->cancel(); // its deliveries name compared mechanisms by index
    std::vector<ComparedState> next;
    std::vector<std::size_t> todo;
    for (core::MechanismKind kind : m_applied.compareWith) {
        const auto kept = std::find_if(m_state.compared.begin(), m_state.compared.end(),
                                       [kind](const ComparedState& c) { return c.kind == kind && c.complete; });
        if (kept != m_state.compared.end()) {
            next.push_back(*kept);
            continue;
        }
        ComparedState c;
        c.kind = kind;
        c.points.assign(m_state.grid.size(), std::nullopt);
        todo.push_back(next.size());
        next.push_back(std::move(c));
    }
    m_state.compared = std::move(next);
    m_state.targetEps.clear();
    emit stateChanged();
    if (todo.empty()) {
        m_compare->cancel();
        requestCompareProbe();
        return;
    }
    auto data = m_state.data;
    const UtilitySettings s = m_applied;
    m_compare->start(tr("Comparing mechanisms"), [this, data, s, todo](JobContext& job) -> std::function<void()> {
        for (std::size_t i : todo) { // one after another, each on every core
            const core::MechanismKind kind = s.compareWith[i];
            std::shared_ptr<const core::PreparedProblem> problem;
            try {
                checkSupported(*data, s);
                problem = core::prepareProblem(sweepData(*data), s.comparedSpec(kind), s.metric, data);
            } catch (const std::invalid_argument& e) {
                job.post([this, i, error = std::string(e.what())] {
                    m_state.compared[i].error = error;
                    emit stateChanged();
                });
                continue;
            }
            job.post([this, i, problem] { m_state.compared[i].problem = problem; });
            core::UtilitySweepSpec spec = sweepSpec(s);
            spec.mechanism = s.comparedSpec(kind);
            spec.grid = s.grid();
            spec.estimators.clear();
            auto sink = [&job, this, i](const core::SweepPoint& point) {
                job.post([this, i, point] {
                    auto& points = m_state.compared[i].points;
                    if (static_cast<std::size_t>(point.gridIndex) < points.size())
                        points[static_cast<std::size_t>(point.gridIndex)] = point;
                    emit stateChanged();
                });
            };
            core::UtilitySweepResult result = core::runUtilitySweep(*problem, spec, &job.run(), sink);
            if (result.cancelled)
                throw core::Cancelled();
            job.post([this, i, result = std::move(result)] {
                ComparedState& c = m_state.compared[i];
                for (const auto& point : result.points)
                    c.points[static_cast<std::size_t>(point.gridIndex)] = point;
                if (std::isfinite(result.nonPrivate))
                    c.nonPrivate = result.nonPrivate;
                c.complete = true;
                emit stateChanged();
            });
        }
        return [this] { emit stateChanged(); };
    });
}

void UtilityController::requestCompareProbe() {
    const double eps = m_applied.currentEps;
    if (m_state.compared.empty() || dragging() || hasPending() || m_compare->isBusy())
        return;            // a drag shows the curves; the compare job's delivery asks again
    if (std::isinf(eps)) { // the non-private models: nothing to measure
        m_compareProbe->cancel();
        for (ComparedState& c : m_state.compared)
            if (c.nonPrivate)
                c.probe = ProbeResult{eps, *c.nonPrivate, 0.0, m_applied.repeats, true};
        emit stateChanged();
        return;
    }
    std::vector<std::pair<std::size_t, std::shared_ptr<const core::PreparedProblem>>> todo;
    for (std::size_t i = 0; i < m_state.compared.size(); ++i) {
        const ComparedState& c = m_state.compared[i];
        if (c.problem && c.complete && (!c.probe || c.probe->eps != eps))
            todo.emplace_back(i, c.problem);
    }
    if (todo.empty() || !(eps > 0.0))
        return;
    const UtilitySettings s = m_applied;
    m_compareProbe->start(tr("Measuring the compared mechanisms at ε = %1").arg(eps, 0, 'g', 3),
                          [this, s, eps, todo](JobContext& job) -> std::function<void()> {
                              for (const auto& [i, problem] : todo) {
                                  core::UtilitySweepSpec spec = sweepSpec(s);
                                  spec.estimators.clear();
                                  spec.grid = {eps};
                                  spec.reference = false;
                                  const core::UtilitySweepResult r = core::runUtilitySweep(*problem, spec, &job.run());
                                  if (r.points.empty())
                                      throw core::Cancelled();
                                  const ProbeResult probe{eps, r.points[0].mean, r.points[0].sd, s.repeats, true};
                                  job.post([this, i = i, probe] {
                                      m_state.compared[i].probe = probe;
                                      emit stateChanged();
                                  });
                              }
                              return {};
                          });
}

void UtilityController::startMeasuring() {
    if (!m_state.data)
        return; // the sweep starts it once the data is prepared
    if (!m_applied.estimatesApply() || m_applied.measureAt.empty()) {
        m_measuring->cancel();
        m_state.measuring.clear();
        emit stateChanged();
        return;
    }
    auto problem = m_state.problem;
    const UtilitySettings s = m_applied;
    m_measuring->start(tr("Taylor measuring fits"), [this, problem, s](JobContext& job) -> std::function<void()> {
        core::UtilitySweepSpec spec = sweepSpec(s);
        spec.measureAt = s.measureAt; // the Taylor fits alone: the sweep and the probe measure the grid
        core::UtilitySweepResult result = core::runUtilitySweep(*problem, spec, &job.run());
        if (result.cancelled)
            throw core::Cancelled();
        return [this, result = std::move(result)] {
            m_state.measuring = result.measuring;
            if (!m_state.nonPrivate && std::isfinite(result.nonPrivate))
                m_state.nonPrivate = result.nonPrivate;
            emit stateChanged();
        };
    });
}

void UtilityController::startProbe() {
    takeHeld();
    const double eps = m_applied.currentEps;
    const bool large = m_state.data->train.rows() > kLargeTrainingRows;
    const int repeats = dragging() ? std::min(large ? 1 : kPreviewRepeats, m_applied.repeats) : m_applied.repeats;
    // A drag's probe with every repetition is the full measurement (the release need not repeat it).
    const bool preview = repeats < m_applied.repeats;
    auto problem = m_state.problem;
    const UtilitySettings s = m_applied;
    m_probe->start(tr("Measuring at ε = %1").arg(eps, 0, 'g', 3),
                   [this, problem, s, eps, repeats, preview](JobContext& job) -> std::function<void()> {
                       core::UtilitySweepSpec spec = sweepSpec(s);
                       spec.estimators.clear();
                       spec.grid = {eps};
                       spec.repeats = repeats;
                       spec.reference = false; // the sweep draws the non-private line; a probe fits at ε only
                       const core::UtilitySweepResult result = core::runUtilitySweep(*problem, spec, &job.run());
                       if (result.points.empty())
                           throw core::Cancelled();
                       const ProbeResult probe{eps, result.points[0].mean, result.points[0].sd, repeats, !preview};
                       return [this, probe] {
                           m_state.probe = probe;
                           emit stateChanged();
                           // The latest step held meanwhile, or the full measurement after a preview.
                           takeHeld();
                           if (!hasPending() && probeNeeded())
                               startProbe();
                       };
                   });
}

void UtilityController::verifyTarget() {
    const UtilitySettings& s = m_applied;
    QString problem;
    if (!m_state.data)
        problem = tr("No prepared data yet.");
    else if (!s.target)
        problem = tr("Enter a target utility first.");
    else if (!s.estimatesApply() && s.compareWith.empty())
        problem =
            tr("Verification refines Taylor estimates: it needs Gaussian objective perturbation and a loss metric.");
    else if (!s.compareWith.empty() && (!m_state.sweepComplete || !m_state.comparisonComplete()))
        problem = tr("Wait for the compared mechanisms' sweeps to finish.");
    if (!problem.isEmpty()) {
        setLastError(problem);
        emit failed(problem);
        return;
    }
    core::ChooseEpsSpec spec;
    spec.mechanism = s.mechanism;
    spec.metric = s.metric;
    spec.target = *s.target;
    spec.tolerance = 0.01 * std::abs(*s.target) + 1e-4;
    spec.measureAt = s.measureAt.empty() ? (std::isfinite(s.currentEps) ? s.currentEps : 1.0) : s.measureAt.front();
    spec.estimator =
        std::find(s.estimators.begin(), s.estimators.end(), core::Estimator::InverseEps) != s.estimators.end()
            ? core::Estimator::InverseEps
            : core::Estimator::FirstOrder;
    spec.repeats = s.repeats;
    spec.seed = s.seed;
    spec.epsMin = UtilitySettings::kSliderMin;
    spec.epsMax = UtilitySettings::kSliderMax;
    auto prepared = m_state.problem;
    const double target = *s.target;
    // With a compare set: every mechanism's verified ε (the main one first), by one rule.
    std::vector<std::pair<std::shared_ptr<const core::PreparedProblem>, std::vector<core::SweepPoint>>> compared;
    if (!s.compareWith.empty()) {
        std::vector<core::SweepPoint> main;
        for (const auto& p : m_state.points)
            if (p)
                main.push_back(*p);
        compared.emplace_back(prepared, main);
        for (const ComparedState& c : m_state.compared)
            compared.emplace_back(c.problem, c.measured());
    }
    core::TargetEpsSpec targetSpec;
    targetSpec.target = target;
    targetSpec.metric = s.metric;
    targetSpec.repeats = s.repeats;
    targetSpec.seed = s.seed;
    const bool chooseEps = s.estimatesApply();
    m_verify->start(
        tr("Verifying the target"),
        [this, prepared, spec, target, compared, targetSpec, chooseEps](JobContext& job) -> std::function<void()> {
            std::optional<core::ChooseEpsResult> result;
            if (chooseEps)
                result = core::chooseEpsilon(*prepared, spec, &job.run());
            std::vector<core::TargetEps> found;
            for (const auto& [comparedProblem, points] : compared) {
                found.push_back(comparedProblem
                                    ? core::verifyTargetEps(*comparedProblem, points, targetSpec, &job.run())
                                    : core::TargetEps{});
                if (found.back().cancelled)
                    throw core::Cancelled();
            }
            return [this, result = std::move(result), found = std::move(found), target] {
                if (result) {
                    m_state.verification = result;
                    m_state.verifiedTarget = target;
                }
                m_state.targetEps = found;
                m_state.targetEpsTarget = target;
                emit stateChanged();
            };
        });
}

double UtilityController::estimateAt(std::size_t m, core::Estimator estimator, double eps) const {
    if (m >= m_state.measuring.size())
        return NAN;
    return core::meanEstimate(m_state.measuring[m], estimator, eps);
}

bool UtilityController::estimatesAvailable() const {
    return m_applied.estimatesApply() && !m_state.measuring.empty() && !m_applied.estimators.empty();
}

bool UtilityController::proposalFromEstimate() const { return proposal().fromEstimate; }

std::optional<double> UtilityController::proposedEps() const { return proposal().eps; }

core::ProposedEps UtilityController::proposal() const {
    if (!m_applied.target)
        return {};
    std::vector<core::SweepPoint> measured;
    for (const auto& p : m_state.points)
        if (p)
            measured.push_back(*p);
    const bool estimates = estimatesAvailable();
    return core::proposeEps(measured, estimates ? &m_state.measuring.front() : nullptr,
                            estimates ? m_applied.estimators.front() : core::Estimator::InverseEps, *m_applied.target,
                            m_applied.metric, m_applied.epsMin, m_applied.epsMax);
}

} // namespace elab::ui
