// A view's old state is destroyed on the release thread, not the GUI thread
// (ui/jobs/background_release.h): freeing a million-row state there was a 35 ms stall.

#include "ui/jobs/background_release.h"

#include <QtTest>

#include <atomic>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

namespace {

struct Record {
    std::atomic<int> destroyed{0};
    std::thread::id where;
};

// Records the thread of its destruction (moved-from copies record nothing).
struct Tracked {
    std::shared_ptr<Record> record;
    std::vector<double> payload;
    explicit Tracked(std::shared_ptr<Record> r) : record(std::move(r)), payload(1000, 1.0) {}
    Tracked(Tracked&&) noexcept = default;
    Tracked& operator=(Tracked&&) noexcept = default;
    ~Tracked() {
        if (record) {
            record->where = std::this_thread::get_id();
            record->destroyed.fetch_add(1);
        }
    }
};

} // namespace

class TestBackgroundRelease : public QObject {
    Q_OBJECT

private slots:
    void destroyedOnTheReleaseThreadOnce() {
        auto record = std::make_shared<Record>();
        Tracked state(record);
        elab::ui::releaseInBackground(std::exchange(state, Tracked(nullptr)));
        QVERIFY(state.record == nullptr); // the caller keeps an empty state
        elab::ui::waitForBackgroundReleases();
        QCOMPARE(record->destroyed.load(), 1);
        QVERIFY(record->where != std::this_thread::get_id());
    }

    void oneReleaseThread() {
        std::vector<std::shared_ptr<Record>> records;
        for (int i = 0; i < 20; ++i) {
            records.push_back(std::make_shared<Record>());
            elab::ui::releaseInBackground(Tracked(records.back()));
        }
        elab::ui::waitForBackgroundReleases();
        for (const auto& r : records) {
            QCOMPARE(r->destroyed.load(), 1);
            QCOMPARE(r->where, records.front()->where); // one release thread
        }
    }
};

QTEST_GUILESS_MAIN(TestBackgroundRelease)
#include "test_background_release.moc"
