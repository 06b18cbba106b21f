// One home for option names (issue 10): every value of each table has a unique name that maps
// back to it, unknown names are refused, and the names are the ones the CLI documents.

#include "core/data/csv_loader.h"
#include "core/data/preprocess.h"

#include <QtTest>

#include <set>

using namespace elab::core;

namespace {

template <typename E>
void checkRoundTrip(const OptionNames<E>& table) {
    std::set<std::string> seen;
    for (const auto& [value, name] : table) {
        QVERIFY2(seen.insert(name).second, name);
        QCOMPARE(fromOptionName(table, name), std::optional<E>(value));
        QCOMPARE(optionName(table, value), std::string(name));
    }
    QVERIFY(!fromOptionName(table, "no-such-name").has_value());
    QVERIFY(!fromOptionName(table, "").has_value());
}

} // namespace

class TestOptionNames : public QObject {
    Q_OBJECT

private slots:
    void normPolicies() {
        checkRoundTrip(normPolicyNames());
        QCOMPARE(optionNameList(normPolicyNames()), (std::vector<std::string>{"clip", "max", "none"}));
        QCOMPARE(normPolicyNames().size(), std::size_t(3)); // ClipRows, ScaleByMaxNorm, None
    }
    void missingPolicies() {
        checkRoundTrip(missingPolicyNames());
        QCOMPARE(optionNameList(missingPolicyNames()), (std::vector<std::string>{"drop", "mean", "most-frequent"}));
    }
};

QTEST_APPLESS_MAIN(TestOptionNames)
#include "test_option_names.moc"
