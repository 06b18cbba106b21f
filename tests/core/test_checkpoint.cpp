// The scale-out pieces of core/scale (issue 15): exact cell text, the checkpoint file (round
// trip, a line cut short by a kill at every byte, a damaged line, a checkpoint of other
// settings refused with the differing settings named), the balanced split of cells over ranks,
// and a utility sweep assembled from stored cells bit-identical to one computed in place.

#include "core/scale/cell_stage.h"
#include "core/scale/cell_text.h"
#include "core/scale/checkpoint_file.h"
#include "core/scale/run_settings.h"
#include "core/sweeps/utility_sweep.h"

#include "tests/support/test_support.h"

#include <QTemporaryDir>
#include <QtTest>

#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <mutex>

using namespace elab::core;

namespace {

RunSettings settingsOf(const std::string& eps, const std::string& seed) {
    RunSettings s;
    s.add("command", "utility");
    s.add("--data", "builtin:breast_cancer");
    s.add("--eps", eps);
    s.add("--seed", seed);
    s.add("--label", "multi\nline \\ value");
    return s;
}

std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeAll(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
}

// Runs every cell here and keeps the payloads; with `replay`, computes nothing and returns them.
class RecordingExecutor : public CellExecutor {
public:
    std::map<std::string, std::vector<std::optional<std::string>>> stored;
    bool replay = false;
    int computed = 0;

    std::vector<std::optional<std::string>> run(const CellStage& stage, ParallelGrid& grid) override {
        if (replay)
            return stored.at(stage.name);
        std::vector<std::optional<std::string>> out(stage.count);
        std::mutex m;
        grid.run(stage.count, [&](std::size_t i) {
            out[i] = stage.compute(i);
            const std::lock_guard lock(m);
            ++computed;
        });
        stored[stage.name] = out;
        return out;
    }
};

} // namespace

class TestCheckpoint : public QObject {
    Q_OBJECT
private slots:
    void cellTextRoundTrip_data() {
        QTest::addColumn<double>("value");
        QTest::newRow("one third") << 1.0 / 3.0;
        QTest::newRow("negative zero") << -0.0;
        QTest::newRow("smallest subnormal") << std::numeric_limits<double>::denorm_min();
        QTest::newRow("largest") << std::numeric_limits<double>::max();
        QTest::newRow("minus infinity") << -std::numeric_limits<double>::infinity();
        QTest::newRow("NaN with payload") << std::bit_cast<double>(0xfff8000000000123ULL);
        QTest::newRow("0.1 + 0.2") << 0.1 + 0.2;
    }
    void cellTextRoundTrip() {
        QFETCH(double, value);
        const std::string text = CellWriter().real(value).integer(-42).integer(1LL << 40).real(value).text();
        QVERIFY(text.find('\n') == std::string::npos);
        CellReader in(text);
        QCOMPARE(std::bit_cast<std::uint64_t>(in.real()), std::bit_cast<std::uint64_t>(value));
        QCOMPARE(in.integer(), std::int64_t(-42));
        QCOMPARE(in.integer(), std::int64_t(1) << 40);
        QCOMPARE(std::bit_cast<std::uint64_t>(in.real()), std::bit_cast<std::uint64_t>(value));
        QVERIFY(in.atEnd());
        QVERIFY(!elab::test::errorOf([&] { in.real(); }).isEmpty()); // nothing left
    }

    void cellTextRefusesMalformed() {
        QVERIFY(elab::test::errorOf([] { CellReader("3ff00000").real(); }).contains("not a stored number"));
        QVERIFY(elab::test::errorOf([] { CellReader("12x").integer(); }).contains("not an integer"));
    }

    void settingsCanonicalRoundTrip() {
        const RunSettings s = settingsOf("0.1:10:6", "3");
        const RunSettings back = RunSettings::fromCanonicalText(s.canonicalText());
        QCOMPARE(back.entries, s.entries);
        QCOMPARE(back.fingerprint(), s.fingerprint());
        QVERIFY(s.fingerprint() != settingsOf("0.1:10:6", "4").fingerprint());
        QVERIFY(s.differences(back, "a", "b").empty());
    }

    void roundTripAndResume() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("run.ckpt").toStdString();
        const RunSettings settings = settingsOf("0.1:10:6", "3");
        const std::string payload = CellWriter().real(0.1).real(-0.0).integer(7).text();
        {
            CheckpointFile file(path, settings);
            QVERIFY(file.contents().cells.empty());
            file.append("utility", 3, payload);
            file.append("audit.dpsgd", 0, "x");
        }
        CheckpointFile again(path, settings);
        QCOMPARE(again.contents().cells.size(), std::size_t(2));
        QCOMPARE(again.contents().cells.at({"utility", 3}), payload);
        QCOMPARE(again.contents().cells.at({"audit.dpsgd", 0}), std::string("x"));
        QCOMPARE(again.contents().ignoredLines, std::size_t(0));
        QCOMPARE(again.contents().settings.entries, settings.entries);
    }

    // A kill can stop the last write anywhere: every cut of the last line leaves the earlier
    // cells readable, the cut line ignored, and later appends on a line of their own.
    void tornLastLineIgnoredAtEveryByte() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("torn.ckpt").toStdString();
        const RunSettings settings = settingsOf("1", "1");
        { CheckpointFile(path, settings).append("utility", 0, CellWriter().real(1.5).text()); }
        const std::string intact = readAll(path);
        const std::string last = CheckpointFile::cellLine("utility", 1, CellWriter().real(2.5).integer(9).text());
        for (std::size_t cut = 1; cut < last.size(); ++cut) { // cut == size: the whole line, newline included
            writeAll(path, intact + last.substr(0, cut));
            const CheckpointContents c = CheckpointFile::read(path);
            QCOMPARE(c.cells.size(), std::size_t(1));
            QCOMPARE(c.ignoredLines, std::size_t(1));
            {
                CheckpointFile file(path, settings); // cuts the torn tail off
                file.append("utility", 2, "after");
            }
            const CheckpointContents resumed = CheckpointFile::read(path);
            QCOMPARE(resumed.ignoredLines, std::size_t(0));
            QCOMPARE(resumed.cells.size(), std::size_t(2));
            QCOMPARE(resumed.cells.at({"utility", 2}), std::string("after"));
        }
    }

    void damagedLineIgnored() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("damaged.ckpt").toStdString();
        const RunSettings settings = settingsOf("1", "1");
        {
            CheckpointFile file(path, settings);
            for (std::size_t i = 0; i < 3; ++i)
                file.append("utility", i, CellWriter().real(double(i)).text());
        }
        std::string text = readAll(path);
        const auto at = text.find("utility 1 ");
        QVERIFY(at != std::string::npos);
        text[at + 10] = text[at + 10] == '0' ? '1' : '0'; // one flipped digit of the stored number
        writeAll(path, text);
        const CheckpointContents c = CheckpointFile::read(path);
        QCOMPARE(c.ignoredLines, std::size_t(1));
        QCOMPARE(c.cells.size(), std::size_t(2));
        QVERIFY(!c.cells.count({"utility", 1}));
    }

    void otherSettingsRefusedNamingThem() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("other.ckpt").toStdString();
        { CheckpointFile(path, settingsOf("0.1:10:6", "3")).append("utility", 0, "1"); }
        const QString message = elab::test::errorOf([&] { CheckpointFile(path, settingsOf("0.1:10:5", "3")); });
        QVERIFY2(message.contains("--eps: '0.1:10:5' now, '0.1:10:6' in the checkpoint"), qPrintable(message));
        QVERIFY2(!message.contains("--seed") && !message.contains("--data"), qPrintable(message));
        bool mismatch = false;
        try {
            CheckpointFile file(path, settingsOf("0.1:10:6", "4"));
        } catch (const CheckpointMismatch&) {
            mismatch = true;
        }
        QVERIFY(mismatch);
        QCOMPARE(CheckpointFile::read(path).cells.size(), std::size_t(1)); // left as it was
    }

    void notACheckpointRefused() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("report.json").toStdString();
        writeAll(path, "{\"command\": \"utility\"}\n");
        QVERIFY(elab::test::errorOf([&] {
                    CheckpointFile(path, settingsOf("1", "1"));
                }).contains("is not an EpsilonLab checkpoint"));
    }

    void cellsSplitOnceAndBalanced_data() {
        QTest::addColumn<int>("ranks");
        QTest::newRow("1 rank") << 1;
        QTest::newRow("2 ranks") << 2;
        QTest::newRow("3 ranks") << 3;
        QTest::newRow("more ranks than cells") << 40;
    }
    void cellsSplitOnceAndBalanced() {
        QFETCH(int, ranks);
        std::vector<double> cost;
        for (int i = 0; i < 30; ++i)
            cost.push_back(1.0 + (i * 7 % 11)); // uneven costs 1..11
        std::vector<std::size_t> pending;
        for (std::size_t i = 0; i < cost.size(); ++i)
            if (i % 4 != 1) // some cells already in a checkpoint
                pending.push_back(i);
        std::vector<int> owners(cost.size(), 0);
        std::vector<double> load(static_cast<std::size_t>(ranks), 0.0);
        for (int r = 0; r < ranks; ++r)
            for (std::size_t i : cellsOfRank(pending, cost, r, ranks)) {
                ++owners[i];
                load[static_cast<std::size_t>(r)] += cost[i];
            }
        for (std::size_t i = 0; i < cost.size(); ++i)
            QCOMPARE(owners[i], i % 4 != 1 ? 1 : 0);
        const double spread = *std::max_element(load.begin(), load.end()) - *std::min_element(load.begin(), load.end());
        if (ranks < int(pending.size()))
            QVERIFY2(spread <= 11.0, qPrintable(QString("load spread %1 > the largest cell cost 11").arg(spread)));
    }

    // The sweep assembled from stored cells (compute never called) equals the sweep computed here.
    void utilitySweepFromStoredCellsIsBitIdentical() {
        const auto d = elab::test::syntheticBinary(300, 5, 7, {1.0, -1.0}, 0.3, true);
        UtilitySweepSpec spec;
        spec.mechanism = {MechanismKind::ObjPertGauss, Loss(LossKind::Logistic), 1e-2, 1e-5};
        spec.grid = parseEpsGrid("0.1:10:5");
        spec.repeats = 4;
        spec.seed = 5;
        spec.solverOptions.maxIterations = 2; // some fits stop early: their solver records travel too
        RecordingExecutor executor;
        spec.executor = &executor;
        const UtilitySweepResult computed = runUtilitySweep({d.X, d.y}, spec);
        QCOMPARE(executor.computed, spec.repeats);
        executor.replay = true;
        executor.computed = 0;
        const UtilitySweepResult stored = runUtilitySweep({d.X, d.y}, spec);
        QCOMPARE(executor.computed, 0);
        QCOMPARE(stored.points.size(), spec.grid.size());
        for (std::size_t g = 0; g < spec.grid.size(); ++g) {
            QCOMPARE(std::bit_cast<std::uint64_t>(stored.points[g].mean),
                     std::bit_cast<std::uint64_t>(computed.points[g].mean));
            QCOMPARE(std::bit_cast<std::uint64_t>(stored.points[g].sd),
                     std::bit_cast<std::uint64_t>(computed.points[g].sd));
            QCOMPARE(stored.points[g].values, computed.points[g].values);
        }
        QCOMPARE(stored.solver.fits, computed.solver.fits);
        QCOMPARE(stored.solver.converged, computed.solver.converged);
        QCOMPARE(stored.solver.maxIterations, computed.solver.maxIterations);
        QCOMPARE(stored.solver.notConverged.size(), computed.solver.notConverged.size());
        QVERIFY(!computed.solver.notConverged.empty());
        for (std::size_t k = 0; k < computed.solver.notConverged.size(); ++k) {
            QCOMPARE(stored.solver.notConverged[k].repetition, computed.solver.notConverged[k].repetition);
            QCOMPARE(stored.solver.notConverged[k].eps, computed.solver.notConverged[k].eps);
            QCOMPARE(stored.solver.notConverged[k].gradientNorm, computed.solver.notConverged[k].gradientNorm);
        }
    }
};

QTEST_GUILESS_MAIN(TestCheckpoint)
#include "test_checkpoint.moc"
