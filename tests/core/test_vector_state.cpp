// The upper vector state (core/util/vector_state.h), read back through XINUSE: dirtied, it reads
// in use; cleared by clearUpperVectorState, by a Newton-CG solve and by a ParallelGrid task, it
// reads free again. Skips where the CPU cannot report it (no AVX or no XGETBV with ECX = 1).
// The speed it costs is a benchmark (tests/bench/bench_vector_state.cpp), not a test.

#include "core/model/linear_objective.h"
#include "core/optim/newton_cg.h"
#include "core/util/parallel_grid.h"
#include "core/util/vector_state.h"

#include <QtTest>

#include <atomic>
#include <vector>

using namespace elab::core;

class TestVectorState : public QObject {
    Q_OBJECT

    static void requireReadable() {
        if (!upperVectorStateInUse())
            QSKIP("this CPU cannot report its upper vector state (no AVX or no XGETBV with ECX = 1)");
    }

private slots:
    void dirtyThenCleared() {
        requireReadable();
        QVERIFY(dirtyUpperVectorState());
        QCOMPARE(upperVectorStateInUse(), std::optional<bool>(true));
        clearUpperVectorState();
        QCOMPARE(upperVectorStateInUse(), std::optional<bool>(false));
    }

    void aSolveStartsClean() {
        requireReadable();
        FeatureMatrix X(Eigen::MatrixXd::Random(200, 3));
        Eigen::VectorXd y(200);
        for (Eigen::Index i = 0; i < y.size(); ++i)
            y[i] = X.dense()(i, 0) > 0.0 ? 1.0 : -1.0;
        LinearObjective objective(X, y, Loss(LossKind::Logistic), 0.1);
        QVERIFY(dirtyUpperVectorState());
        std::optional<bool> inUse;
        minimizeNewtonCg(objective, Eigen::VectorXd::Zero(3), {}, {}, [&](int, double, double) {
            inUse = upperVectorStateInUse(); // in the solver's loop, after its first iteration
            return true;
        });
        QCOMPARE(inUse, std::optional<bool>(false));
    }

    void everyGridTaskStartsClean() {
        requireReadable();
        ParallelGrid grid(2, nullptr, "test");
        std::vector<int> inUse(16, -1);
        QVERIFY(dirtyUpperVectorState()); // this thread runs tasks too
        grid.run(inUse.size(), [&](std::size_t i) {
            inUse[i] = *upperVectorStateInUse() ? 1 : 0;
            dirtyUpperVectorState(); // the next task on this thread must start clean again
        });
        clearUpperVectorState();
        for (int v : inUse)
            QCOMPARE(v, 0);
    }
};

QTEST_APPLESS_MAIN(TestVectorState)
#include "test_vector_state.moc"
