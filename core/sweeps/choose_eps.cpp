#include "core/sweeps/choose_eps.h"

#include "core/mechanisms/mechanism_catalog.h"
#include "core/privacy/composition.h"
#include "core/util/noise.h"
#include "core/util/parallel_grid.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace elab::core {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Measurement {
    double value = 0.0;
    double derivative = 0.0;
    std::vector<double> values; ///< per repetition
};

// Mean F(ε) and F′(ε) over the repetitions; repetition r uses the learner's noise of stream
// (seed, r) (one-vs-rest: (seed, r, k) for model k, see one_vs_rest.h).
class Measurer {
public:
    Measurer(const PrivateLearner& learner, const ChooseEpsSpec& spec, RunContext* ctx, SolverSummary& solver)
        : m_learner(learner), m_spec(spec), m_solver(solver), m_runner(spec.threads, ctx, "choose-eps") {
        for (int r = 0; r < spec.repeats; ++r)
            m_noise.push_back(learner.drawNoise(spec.seed, r));
    }

    Measurement measure(double eps, bool withDerivative) {
        const auto R = static_cast<std::size_t>(m_spec.repeats);
        std::vector<double> values(R), derivatives(R);
        std::vector<SolverSummary> solverSlots(R);
        m_runner.run(R, [&](std::size_t r) {
            const auto fit = m_learner.fit(eps, *m_noise[r], nullptr, m_runner.stopToken(), m_spec.solverOptions);
            fit->record(solverSlots[r], eps, static_cast<int>(r));
            if (withDerivative) {
                const TaylorPoint point = m_learner.taylorPoint(eps, *m_noise[r], *fit, false);
                values[r] = point.value;
                derivatives[r] = point.d1;
            } else {
                values[r] = m_learner.utility(*fit);
            }
        });
        for (const SolverSummary& slot : solverSlots)
            m_solver.merge(slot);
        m_trainings += m_spec.repeats;
        Measurement m;
        for (std::size_t r = 0; r < R; ++r) {
            m.value += values[r] / static_cast<double>(R);
            m.derivative += derivatives[r] / static_cast<double>(R);
        }
        if (!withDerivative)
            m.derivative = kNaN;
        m.values = std::move(values);
        return m;
    }

    int trainings() const { return m_trainings; }
    bool stopped() const { return m_runner.stopped(); }

private:
    const PrivateLearner& m_learner;
    const ChooseEpsSpec& m_spec;
    SolverSummary& m_solver;
    ParallelGrid m_runner;
    std::vector<std::shared_ptr<const LearnerNoise>> m_noise;
    int m_trainings = 0;
};

bool done(double value, const ChooseEpsSpec& s) { return value <= s.target && value >= s.target - s.tolerance; }

double geometricMid(double lo, double hi) { return std::sqrt(lo * hi); }

// The estimator's solution of F(ε̂) = aim from (ε̄, F, F′); +∞ if its line never reaches it.
// The aim is the centre of the acceptance band [F̂ − tol, F̂]: aiming at F̂ itself, a convex
// decreasing curve is approached from one side and never enters the band.
double solveLine(const ChooseEpsSpec& s, double eps, const Measurement& m) {
    const double aim = s.target - 0.5 * s.tolerance;
    const TaylorPoint point{eps, m.value, m.derivative, 0.0, {}, 0};
    if (s.estimator == Estimator::InverseEps) {
        // F + F′ε̄(1 − ε̄/ε̂) = aim  ⇒  ε̂ = ε̄ / (1 − (aim − F)/(F′ε̄)).
        const double denominator = 1.0 - (aim - m.value) / (m.derivative * eps);
        return denominator > 0.0 ? eps / denominator : INFINITY;
    }
    const double e = epsilonForTarget(point, aim);
    return std::isnan(e) ? INFINITY : e;
}

} // namespace

std::string ChooseEpsSpec::validate() const {
    if (std::string e = mechanism.validate(); !e.empty())
        return e;
    if (const MechanismInfo& info = mechanismInfo(mechanism.kind); !info.taylor)
        return std::string("choosing ε by Taylor estimates is not available for ") + toString(mechanism.kind) + ": " +
               info.noTaylorReason;
    if (!isLossMetric(metric))
        return "choosing ε needs a loss metric (train-loss or test-loss)";
    return validateRun();
}

std::string ChooseEpsSpec::validateRun() const {
    if (estimator != Estimator::FirstOrder && estimator != Estimator::InverseEps)
        return "choose-eps uses the first-order or inverse-eps line";
    if (!std::isfinite(target) || !(tolerance > 0.0))
        return "target must be finite and tolerance > 0";
    if (!(epsMin > 0.0 && epsMax > epsMin && measureAt >= epsMin && measureAt <= epsMax))
        return "need 0 < eps-min ≤ measure-at ≤ eps-max";
    if (repeats < 1 || maxSteps < 1)
        return "repeats and max steps must be ≥ 1";
    if (std::string e = solverOptions.validate(); !e.empty())
        return e;
    return {};
}

ChooseEpsResult chooseEpsilon(const SweepData& data, const ChooseEpsSpec& spec, RunContext* ctx) {
    if (std::string e = spec.validate(); !e.empty())
        throw std::invalid_argument(e);
    return chooseEpsilon(*prepareProblem(data, spec.mechanism, spec.metric), spec, ctx);
}

ChooseEpsResult chooseEpsilon(const PreparedProblem& prepared, const ChooseEpsSpec& spec, RunContext* ctx) {
    const PrivateLearner& problem = prepared.learner();
    if (std::string e = spec.validateRun(); !e.empty())
        throw std::invalid_argument(e);
    if (!problem.capabilities().taylor || !isLossMetric(problem.metric()))
        throw std::invalid_argument("choosing ε needs a learner with Taylor estimates and a loss metric");
    const std::stop_token stop = ctx ? ctx->stopToken() : std::stop_token();
    ChooseEpsResult result;
    result.chosenEps = result.bisectionEps = kNaN;
    result.classes = problem.classes();
    result.models = problem.models();

    result.nonPrivate = problem.utility(*prepared.reference(stop, spec.solverOptions));
    if (result.nonPrivate > spec.target) {
        result.reachable = false;
        return result;
    }

    // Taylor-guided refinement.
    Measurer taylor(problem, spec, ctx, result.solver);
    double lo = spec.epsMin, hi = INFINITY; // lo misses the target (assumed), hi meets it
    double eps = spec.measureAt;
    for (int k = 0; k < spec.maxSteps && !taylor.stopped(); ++k) {
        const Measurement m = taylor.measure(eps, true);
        ChooseEpsStep step{eps, m.value, m.derivative, kNaN, m.value <= spec.target, taylor.trainings(), m.values};
        if (step.meets) {
            hi = std::min(hi, eps);
            if (std::isnan(result.chosenEps) || eps < result.chosenEps)
                result.chosenEps = eps;
        } else {
            lo = std::max(lo, eps);
        }
        const double proposal = solveLine(spec, eps, m);
        if (k == 0)
            result.firstEstimate = proposal;
        if (done(m.value, spec)) {
            result.converged = true;
            result.steps.push_back(step);
            break;
        }
        double next = proposal;
        const double upper = std::isinf(hi) ? spec.epsMax : hi;
        if (!(next > lo && next < upper))
            next = std::isinf(hi) ? std::min(spec.epsMax, 10.0 * lo) : geometricMid(lo, upper);
        step.proposed = next;
        result.steps.push_back(step);
        if (!std::isinf(hi) && hi / lo < 1.0 + 1e-6)
            break;
        eps = next;
    }

    // Baseline: bisection on log ε between epsMin and epsMax, measured utility only.
    Measurer bisect(problem, spec, ctx, result.bisectionSolver);
    double a = spec.epsMin, b = spec.epsMax;
    for (int k = 0; k < 60 && !bisect.stopped(); ++k) {
        const double mid = geometricMid(a, b);
        const Measurement m = bisect.measure(mid, false);
        ChooseEpsStep step{mid, m.value, kNaN, kNaN, m.value <= spec.target, bisect.trainings(), m.values};
        if (step.meets) {
            b = mid;
            result.bisectionEps = mid;
        } else {
            a = mid;
        }
        if (done(m.value, spec)) {
            result.bisection.push_back(step);
            break;
        }
        step.proposed = geometricMid(a, b);
        result.bisection.push_back(step);
    }
    result.cancelled = stop.stop_requested();
    if (!std::isnan(result.chosenEps))
        result.guarantee = withDataChosenEps(prepared.guarantee(result.chosenEps));
    if (ctx)
        ctx->progress(1.0, "choose-eps");
    return result;
}

} // namespace elab::core
