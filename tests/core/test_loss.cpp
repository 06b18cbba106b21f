// Losses of MATH.md §2: derivatives against central finite differences, overflow safety,
// and the bounds ζ and λ against the table (λ checked as the maximum over a fine grid).

#include "core/model/loss.h"

#include <QtTest>

#include <cmath>

using namespace elab::core;

Q_DECLARE_METATYPE(elab::core::LossKind)

class TestLoss : public QObject {
    Q_OBJECT

private slots:
    void derivatives_data() {
        QTest::addColumn<LossKind>("kind");
        QTest::addColumn<double>("width");
        QTest::addColumn<double>("temperature");
        QTest::addColumn<double>("y");
        QTest::newRow("logistic y=+1") << LossKind::Logistic << 0.1 << 1.0 << 1.0;
        QTest::newRow("logistic y=-1") << LossKind::Logistic << 0.1 << 1.0 << -1.0;
        QTest::newRow("huber h=0.1 y=+1") << LossKind::HuberSvm << 0.1 << 1.0 << 1.0;
        QTest::newRow("huber h=0.5 y=-1") << LossKind::HuberSvm << 0.5 << 1.0 << -1.0;
        QTest::newRow("smooth hinge t=1") << LossKind::SmoothHinge << 0.1 << 1.0 << 1.0;
        QTest::newRow("smooth hinge t=0.2 y=-1") << LossKind::SmoothHinge << 0.1 << 0.2 << -1.0;
        QTest::newRow("squared y=0.7") << LossKind::Squared << 0.1 << 1.0 << 0.7;
    }
    void derivatives() {
        QFETCH(LossKind, kind);
        QFETCH(double, width);
        QFETCH(double, temperature);
        QFETCH(double, y);
        const Loss loss(kind, width, temperature);
        const double h = 1e-5;
        for (double p = -3.0; p <= 3.0; p += 0.0731) {
            // Skip points within h of Huber's kinks at m = 1 ± width, where ℓ'' jumps.
            const double m = y * p;
            if (kind == LossKind::HuberSvm && (std::abs(m - 1.0 - width) < 2 * h || std::abs(m - 1.0 + width) < 2 * h))
                continue;
            const double fd1 = (loss.value(p + h, y) - loss.value(p - h, y)) / (2 * h);
            const double fd2 = (loss.d1(p + h, y) - loss.d1(p - h, y)) / (2 * h);
            const double fd3 = (loss.d2(p + h, y) - loss.d2(p - h, y)) / (2 * h);
            const QString where = QString("p=%1").arg(p);
            QVERIFY2(std::abs(fd1 - loss.d1(p, y)) < 1e-7,
                     qPrintable(where + QString(" d1 fd=%1 an=%2").arg(fd1).arg(loss.d1(p, y))));
            QVERIFY2(std::abs(fd2 - loss.d2(p, y)) < 1e-6,
                     qPrintable(where + QString(" d2 fd=%1 an=%2").arg(fd2).arg(loss.d2(p, y))));
            QVERIFY2(std::abs(fd3 - loss.d3(p, y)) < 1e-5,
                     qPrintable(where + QString(" d3 fd=%1 an=%2").arg(fd3).arg(loss.d3(p, y))));
        }
    }

    void bounds_data() {
        QTest::addColumn<LossKind>("kind");
        QTest::addColumn<double>("width");
        QTest::addColumn<double>("temperature");
        QTest::addColumn<double>("lambda");
        QTest::newRow("logistic: 1/4") << LossKind::Logistic << 0.1 << 1.0 << 0.25;
        QTest::newRow("huber h=0.1: 1/(2h)=5") << LossKind::HuberSvm << 0.1 << 1.0 << 5.0;
        QTest::newRow("huber h=0.25: 2") << LossKind::HuberSvm << 0.25 << 1.0 << 2.0;
        QTest::newRow("smooth hinge t=1: 1/4") << LossKind::SmoothHinge << 0.1 << 1.0 << 0.25;
        QTest::newRow("smooth hinge t=0.5: 1/2") << LossKind::SmoothHinge << 0.1 << 0.5 << 0.5;
        QTest::newRow("squared: 2") << LossKind::Squared << 0.1 << 1.0 << 2.0;
    }
    void bounds() {
        QFETCH(LossKind, kind);
        QFETCH(double, width);
        QFETCH(double, temperature);
        QFETCH(double, lambda);
        const Loss loss(kind, width, temperature);
        QCOMPARE(loss.curvatureBound(), lambda);
        double maxD2 = 0.0, maxD1 = 0.0;
        for (double p = -20.0; p <= 20.0; p += 1e-3) {
            maxD2 = std::max(maxD2, loss.d2(p, 1.0));
            maxD1 = std::max(maxD1, std::abs(loss.d1(p, 1.0)));
        }
        // The grid attains the supremum to within its spacing.
        QVERIFY2(std::abs(maxD2 - lambda) < 1e-6 * lambda + 1e-9,
                 qPrintable(QString("max d2 on grid %1, bound %2").arg(maxD2).arg(lambda)));
        if (loss.isMargin()) {
            QCOMPARE(loss.gradientBound(), 1.0);
            QVERIFY(maxD1 <= 1.0 && maxD1 > 0.99);
        } else {
            QVERIFY(std::isnan(loss.gradientBound()));
        }
    }

    void fusedDerivativesMatch() {
        for (LossKind kind : {LossKind::Logistic, LossKind::HuberSvm, LossKind::SmoothHinge, LossKind::Squared}) {
            const Loss loss(kind, 0.1, 0.3);
            for (double y : {-1.0, 1.0, 0.4})
                for (double p = -40.0; p <= 40.0; p += 0.37) {
                    if (loss.isMargin() && y == 0.4)
                        continue;
                    const Loss::Derivatives d = loss.derivatives(p, y);
                    const double tol = 1e-14 * (1.0 + std::abs(loss.value(p, y)));
                    QVERIFY2(std::abs(d.value - loss.value(p, y)) <= tol, qPrintable(QString("value at p=%1").arg(p)));
                    QVERIFY2(std::abs(d.d1 - loss.d1(p, y)) <= 1e-15, qPrintable(QString("d1 at p=%1").arg(p)));
                    QVERIFY2(std::abs(d.d2 - loss.d2(p, y)) <= 1e-15, qPrintable(QString("d2 at p=%1").arg(p)));
                }
        }
    }

    void overflowSafe() {
        for (LossKind kind : {LossKind::Logistic, LossKind::SmoothHinge}) {
            const Loss loss(kind, 0.1, 0.05);
            for (double p : {-1e6, -800.0, 800.0, 1e6}) {
                QVERIFY(std::isfinite(loss.value(p, 1.0)));
                QVERIFY(std::isfinite(loss.d1(p, 1.0)));
                QVERIFY(std::isfinite(loss.d2(p, 1.0)));
                QVERIFY(std::isfinite(loss.d3(p, 1.0)));
            }
        }
        // log(1 + e^{1000}) = 1000 to double precision; log(1 + e^{-1000}) ≈ 0.
        QCOMPARE(log1pExp(1000.0), 1000.0);
        QVERIFY(log1pExp(-1000.0) >= 0.0 && log1pExp(-1000.0) < 1e-300);
        QCOMPARE(Loss(LossKind::Logistic).value(-1000.0, 1.0), 1000.0);
    }

    void namesRoundTrip() {
        for (LossKind k : {LossKind::Logistic, LossKind::HuberSvm, LossKind::SmoothHinge, LossKind::Squared})
            QCOMPARE(lossKindFromString(toString(k)), k);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, lossKindFromString("hinge"));
        QVERIFY(!Loss(LossKind::HuberSvm, 0.0).validate().empty());
        QVERIFY(Loss(LossKind::HuberSvm, 0.1).validate().empty());
    }
};

QTEST_APPLESS_MAIN(TestLoss)
#include "test_loss.moc"
