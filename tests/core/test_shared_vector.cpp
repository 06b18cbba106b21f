// SharedVector (core/util/shared_vector.h): copies share one array until one of them is
// changed; a change copies first when shared, never changes the other holders, and reads go
// to the vector. Targets hold their labels in it, so a dataset copied to be prepared keeps one
// array of labels.

#include "core/util/shared_vector.h"

#include "core/data/dataset.h"

#include <QtTest>

using namespace elab::core;

class TestSharedVector : public QObject {
    Q_OBJECT
private slots:
    void copiesShareUntilOneChanges() {
        SharedVector<Eigen::VectorXd> a(Eigen::VectorXd::LinSpaced(5, 0.0, 4.0));
        SharedVector<Eigen::VectorXd> b = a;
        QVERIFY(b.sharesWith(a));
        QCOMPARE(b.get().data(), a.get().data());

        b.mutate()[2] = 42.0;
        QVERIFY(!b.sharesWith(a));
        QVERIFY(a[2] == 2.0); // the other holder is unchanged
        QVERIFY(b(2) == 42.0);
        QVERIFY(b[4] == 4.0);

        // A holder alone changes its own array in place.
        const double* before = b.get().data();
        b.mutate()[0] = -1.0;
        QCOMPARE(b.get().data(), before);
        QVERIFY(b[0] == -1.0);
    }

    void readsAsTheVector() {
        SharedVector<Eigen::VectorXi> v = (Eigen::VectorXi(3) << 3, 1, 2).finished();
        QCOMPARE(v.size(), Eigen::Index(3));
        QCOMPARE(v->maxCoeff(), 3);
        const Eigen::VectorXi& ref = v; // where a const vector is expected, no copy
        QCOMPARE(ref.data(), v.get().data());
        SharedVector<Eigen::VectorXd> d = v->cast<double>(); // from an expression
        QVERIFY(d[0] == 3.0);
        SharedVector<Eigen::VectorXd> empty;
        QCOMPARE(empty.size(), Eigen::Index(0));
    }

    void targetCopiesShareTheirLabels() {
        Eigen::VectorXi classes(6);
        classes << 0, 1, 1, 0, 1, 0;
        const Targets t = Targets::classification(classes, {"no", "yes"});
        Targets copy = t;
        QVERIFY(copy.values.sharesWith(t.values));
        QVERIFY(copy.classIndex.sharesWith(t.classIndex));
        const Targets picked = t.selectRows({1, 3});
        QCOMPARE(picked.size(), Index(2));
        QVERIFY(picked.values[0] == 1.0 && picked.values[1] == -1.0);
        QVERIFY(picked.classIndex[0] == 1 && picked.classIndex[1] == 0);
        copy.values.mutate()[0] = 7.0;
        QVERIFY(t.values[0] == -1.0);
    }
};

QTEST_APPLESS_MAIN(TestSharedVector)
#include "test_shared_vector.moc"
