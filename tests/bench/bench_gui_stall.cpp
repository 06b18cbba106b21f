// Benchmark (PRODUCT.md: start to first frame ≤ 1 s; the event loop never blocks > 50 ms;
// issue 4 item 4): the GUI event loop's responsiveness, offscreen, with the real MainWindow.
//
// Two probes run side by side on the GUI thread:
//  - a 1 ms repeating precise QTimer recording the gap between consecutive firings (what a
//    user's input would wait at most), reported as worst / p99 / median gap;
//  - QApplication::notify() timing every top-level (not nested) event dispatch, so that the
//    slowest events can be named (type and receiver) when a stall shows up.
//  - the pixels painted in the window and the layout requests that reached it (each one lays
//    out the whole window again, and a QTabWidget then repaints its page): a change that should
//    repaint a readout but repaints the window shows here. -v adds the pixels per widget class.
// Scenarios, per dataset: load (request → dataset shown), full sweep (dataset shown → the
// controller idle), a drag of the ε slider across its range for ~3 s (QSlider::setSliderDown
// and setSliderPosition every 16 ms, as a mouse drag does, then release and wait until idle;
// also the synchronous cost of each drag step: the instant estimate and the chart update),
// and the same drag while a sweep runs (a new seed). Start to first frame is measured once
// (main() → first paint of the window completed). On the Decision regions tab (issue 11): the
// same drag of its ε slider, each step re-evaluating the regions on a worker and redrawing the
// raster, boundaries, points and readout on the GUI thread; reported with the pictures drawn
// during the drag and the evaluation time per step. Then the Privacy accounting tab's slider (each step
// calibrates σ on a worker and redraws both charts; the redraws are counted) and the Privacy audit
// tab's (its drag only updates a status line; the audit that release starts is cancelled), and
// the Private dropout (PTR) tab's (each step one release and the test's runs on a worker).
// Last, the play button of the Utility, Decision regions, Privacy accounting and PTR tabs at its
// fast speed, once from the smallest grid ε to the largest (each step waits for the view's result).
//
// Each scenario is one function (utilityScenarios, regionsScenario, accountingScenario,
// ptrScenario, auditScenario, playScenario), run in the order of kScenarios; report() prints the
// summary.
//
// Usage: bench_gui_stall [--reps N] [SPEC ...]   (SPEC: builtin:NAME or a file path;
// default builtin:breast_cancer and Adult a9a from ../shared/datasets/adult if present; the
// environment variable EPSILONLAB_STALL_DATA, comma-separated, replaces the default). The
// regions tab is dragged on builtin:moons?rows=5000 and builtin:penguins
// (EPSILONLAB_STALL_REGIONS_DATA, comma-separated, replaces them).
// Writes bench_gui_stall.json in the working directory and appends JSON lines to
// EPSILONLAB_BENCH_OUT. QT_QPA_PLATFORM defaults to offscreen.

#include "app/gui/application.h"
#include "core/data/feature_matrix.h"
#include "core/util/memory_policy.h"
#include "core/util/vector_state.h"
#include "ui/dataset/load_request.h"
#include "ui/shell/main_window.h"
#include "ui/views/accounting/accounting_controller.h"
#include "ui/views/accounting/accounting_tab.h"
#include "ui/views/accounting/accounting_view.h"
#include "ui/views/audit/audit_controller.h"
#include "ui/views/audit/audit_tab.h"
#include "ui/views/audit/audit_view.h"
#include "ui/views/ptr/ptr_controller.h"
#include "ui/views/ptr/ptr_tab.h"
#include "ui/views/ptr/ptr_view.h"
#include "ui/views/regions/regions_controller.h"
#include "ui/views/regions/regions_tab.h"
#include "ui/views/regions/regions_view.h"
#include "ui/views/utility/utility_controller.h"
#include "ui/views/utility/utility_view.h"
#include "ui/views/view_eps.h"
#include "ui/widgets/eps_player.h"
#include "ui/widgets/eps_slider.h"

#include <QApplication>
#include <QDateTime>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMetaEnum>
#include <QPaintEvent>
#include <QSlider>
#include <QTimer>

#include <algorithm>
#include <chrono>
#include <ctime>

#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <malloc.h>
#include <map>
#include <string>
#include <tuple>
#include <unistd.h>
#include <vector>

using namespace elab::ui;
using Clock = std::chrono::steady_clock;

namespace {

/// From /proc/self/status, MiB: the resident set (VmRSS), its peak (VmHWM), and its anonymous
/// part (RssAnon: heap, thread stacks, anonymous mappings). VmRSS also counts the pages of
/// libraries' code and fonts read in on first use (the charts, the solver), which a sweep
/// touches once and which are not the data's.
struct Resident {
    double rss = 0.0, peak = 0.0, anonymous = 0.0;
};
Resident residentMiB() {
    std::ifstream status("/proc/self/status");
    std::string line;
    Resident r;
    const auto field = [&line](const char* name, double& out) {
        const std::size_t length = std::char_traits<char>::length(name);
        if (line.rfind(name, 0) == 0)
            out = std::stod(line.substr(length)) / 1024.0;
    };
    while (std::getline(status, line)) {
        field("VmRSS:", r.rss);
        field("VmHWM:", r.peak);
        field("RssAnon:", r.anonymous);
    }
    return r;
}

/// Resets VmHWM to the current resident set (Linux ≥ 4.0: "5" to clear_refs), so that a peak
/// read later is that of what ran since.
void resetPeakResident() {
    std::ofstream clear("/proc/self/clear_refs");
    clear << "5";
}

/// The benchmark's own per-event records grow with a scenario's length (a 40 s sweep: ≈ 10⁵
/// dispatches and 4·10⁴ probe firings), not with the data. They are reserved up front (untouched
/// pages are not resident, and no reallocation doubles them mid-run), and the memory figures
/// subtract the bytes they have written: their largest size so far times their element's size.
constexpr std::size_t kReservedRecords = std::size_t{1} << 21;
template <class T>
struct Records {
    std::vector<T> v;
    std::size_t mostHeld = 0;
    Records() { v.reserve(kReservedRecords); }
    void clear() {
        mostHeld = std::max(mostHeld, v.size());
        v.clear();
    }
    std::size_t bytesWritten() const { return std::max(mostHeld, v.size()) * sizeof(T); }
    bool outgrewReserve() const { return v.capacity() > kReservedRecords; }
};

/// CPU time of the calling thread: an event whose wall time is much longer than its CPU time
/// waited (for a lock, or for a core taken by the workers) rather than computed.
double threadCpuMs() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

/// Time the calling thread has spent runnable but waiting for a core (Linux schedstat), ms;
/// 0 where unavailable.
double threadRunDelayMs() {
    static thread_local int fd = ::open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0.0;
    char buffer[128];
    const ssize_t n = ::pread(fd, buffer, sizeof buffer - 1, 0);
    if (n <= 0)
        return 0.0;
    buffer[n] = '\0';
    unsigned long long run = 0, wait = 0;
    if (std::sscanf(buffer, "%llu %llu", &run, &wait) != 2)
        return 0.0;
    return static_cast<double>(wait) * 1e-6;
}

double msBetween(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}

struct Stats {
    double worst = 0.0, p99 = 0.0, median = 0.0;
    int count = 0;
    int over50 = 0;
};

Stats statsOf(std::vector<double> v) {
    Stats s;
    s.count = static_cast<int>(v.size());
    if (v.empty())
        return s;
    std::sort(v.begin(), v.end());
    auto at = [&](double q) {
        return v[std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5))];
    };
    s.worst = v.back();
    s.p99 = at(0.99);
    s.median = at(0.5);
    s.over50 = static_cast<int>(std::count_if(v.begin(), v.end(), [](double x) { return x > 50.0; }));
    return s;
}

struct SlowEvent {
    double ms = 0.0;
    QString what;
};

/// Times every top-level event dispatch while recording; remembers the slowest.
class TimedApplication : public QApplication {
public:
    using QApplication::QApplication;

    bool notify(QObject* receiver, QEvent* event) override {
        if (m_recording && event && event->type() == QEvent::Paint) {
            Painted& p = m_painted[receiver->metaObject()->className()];
            double pixels = 0.0;
            for (const QRect& r : static_cast<QPaintEvent*>(event)->region())
                pixels += static_cast<double>(r.width()) * r.height();
            p.pixels += pixels;
            p.count += 1;
            if (receiver->isWidgetType() && static_cast<QWidget*>(receiver)->isWindow())
                m_windowPixels += pixels;
        }
        if (m_recording && event && event->type() == QEvent::LayoutRequest && receiver->isWidgetType() &&
            static_cast<QWidget*>(receiver)->isWindow())
            ++m_windowLayouts;
        if (m_depth > 0 || !m_recording) {
            ++m_depth;
            const bool r = QApplication::notify(receiver, event);
            --m_depth;
            if (event && event->type() == QEvent::Paint && !m_firstPaintSeen)
                m_paintInThisDispatch = true;
            return r;
        }
        const QEvent::Type type = event->type();
        const char* cls = receiver->metaObject()->className();
        const QString name = receiver->objectName();
        const QObject* parent = receiver->parent();
        const char* parentCls = parent ? parent->metaObject()->className() : "";
        m_paintInThisDispatch = type == QEvent::Paint;
        ++m_depth;
        const double cpuStart = threadCpuMs();
        const auto start = Clock::now();
        const bool r = QApplication::notify(receiver, event);
        const auto end = Clock::now();
        const double cpu = threadCpuMs() - cpuStart;
        --m_depth;
        if (m_paintInThisDispatch && !m_firstPaintSeen) {
            m_firstPaintSeen = true;
            m_firstFrame = end;
        }
        const double ms = msBetween(start, end);
        m_eventMs.v.push_back(ms);
        m_timeline.v.push_back({start, end, cls, type});
        {
            Category& c = m_categories[std::string(cls) + " " + std::to_string(static_cast<int>(type))];
            if (c.name.isEmpty())
                c.name = QStringLiteral("%1 → %2 (in %3)")
                             .arg(QString::fromLatin1(QMetaEnum::fromType<QEvent::Type>().valueToKey(type)),
                                  QString::fromLatin1(cls), QString::fromLatin1(parentCls));
            c.ms += ms;
            c.cpu += cpu;
            c.count += 1;
        }
        if (ms >= 5.0) {
            const QString what =
                QStringLiteral("(cpu %5 ms) %1 → %2%3%4")
                    .arg(QString::fromLatin1(QMetaEnum::fromType<QEvent::Type>().valueToKey(type)),
                         QString::fromLatin1(cls), name.isEmpty() ? QString() : QStringLiteral(" '%1'").arg(name),
                         *parentCls ? QStringLiteral(" (in %1)").arg(QString::fromLatin1(parentCls)) : QString())
                    .arg(cpu, 0, 'f', 1);
            m_slow.push_back({ms, what});
        }
        return r;
    }

    struct Category {
        QString name;
        double ms = 0.0, cpu = 0.0;
        int count = 0;
    };
    std::vector<Category> topCategories(std::size_t n) const {
        std::vector<Category> v;
        for (const auto& [key, c] : m_categories)
            v.push_back(c);
        std::sort(v.begin(), v.end(), [](const Category& a, const Category& b) { return a.cpu > b.cpu; });
        if (v.size() > n)
            v.resize(n);
        return v;
    }

    /// Pixels painted per widget class (the regions of their paint events): what a change
    /// repaints besides itself.
    struct Painted {
        QString widget;
        double pixels = 0.0;
        int count = 0;
    };
    std::vector<Painted> mostPainted(std::size_t n) const {
        std::vector<Painted> v;
        for (const auto& [cls, p] : m_painted)
            v.push_back({QString::fromStdString(cls), p.pixels, p.count});
        std::sort(v.begin(), v.end(), [](const Painted& a, const Painted& b) { return a.pixels > b.pixels; });
        if (v.size() > n)
            v.resize(n);
        return v;
    }

    /// One top-level event dispatch: when, and to what.
    struct Dispatch {
        Clock::time_point start, end;
        const char* receiver;
        QEvent::Type type;
    };
    /// The dispatches that overlap [from, to]: what a gap was made of.
    std::vector<Dispatch> dispatchesWithin(Clock::time_point from, Clock::time_point to) const {
        std::vector<Dispatch> v;
        for (const Dispatch& d : m_timeline.v)
            if (d.end > from && d.start < to)
                v.push_back(d);
        return v;
    }

    void startRecording() {
        m_timeline.clear();
        m_eventMs.clear();
        m_slow.clear();
        m_categories.clear();
        m_painted.clear();
        m_windowPixels = 0.0;
        m_windowLayouts = 0;
        m_recording = true;
    }
    void stopRecording() { m_recording = false; }
    double windowPixels() const { return m_windowPixels; }
    int windowLayouts() const { return m_windowLayouts; }
    const std::vector<double>& eventMs() const { return m_eventMs.v; }
    /// Bytes the per-dispatch records have written (Records), and whether they outgrew their reserve.
    std::size_t recordBytes() const { return m_eventMs.bytesWritten() + m_timeline.bytesWritten(); }
    bool recordsOutgrewReserve() const { return m_eventMs.outgrewReserve() || m_timeline.outgrewReserve(); }
    std::vector<SlowEvent> slowest(std::size_t n) const {
        std::vector<SlowEvent> s = m_slow;
        std::sort(s.begin(), s.end(), [](const SlowEvent& a, const SlowEvent& b) { return a.ms > b.ms; });
        if (s.size() > n)
            s.resize(n);
        return s;
    }
    bool firstPaintSeen() const { return m_firstPaintSeen; }
    Clock::time_point firstFrame() const { return m_firstFrame; }

private:
    int m_depth = 0;
    bool m_recording = true; // on from the start: the first frame
    bool m_paintInThisDispatch = false;
    bool m_firstPaintSeen = false;
    Clock::time_point m_firstFrame;
    Records<double> m_eventMs;
    Records<Dispatch> m_timeline;
    std::vector<SlowEvent> m_slow;
    std::map<std::string, Category> m_categories;
    std::map<std::string, Painted> m_painted;
    double m_windowPixels = 0.0; // painted in top-level windows (each paint of the window once)
    int m_windowLayouts = 0;     // layout requests that reached a window: every layout in it run again
};

/// A 1 ms repeating timer; the gaps between firings while recording.
class StallProbe : public QObject {
public:
    StallProbe() {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(1);
        QObject::connect(&m_timer, &QTimer::timeout, this, [this] {
            const auto now = Clock::now();
            const double cpu = threadCpuMs();
            const double wait = threadRunDelayMs();
            if (m_recording) {
                // Between events: does the GUI thread run its next events with the upper vector
                // state in use (core/util/vector_state.h)?
                if (const auto inUse = elab::core::upperVectorStateInUse()) {
                    ++m_stateReads;
                    m_dirtyReads += *inUse ? 1 : 0;
                }
                m_gaps.v.push_back(msBetween(m_last, now));
                m_gapStarts.v.push_back(m_last);
                m_cpu.v.push_back(cpu - m_lastCpu);
                m_wait.v.push_back(wait - m_lastWait);
            }
            m_last = now;
            m_lastCpu = cpu;
            m_lastWait = wait;
        });
        m_timer.start();
    }
    void startRecording() {
        m_gaps.clear();
        m_gapStarts.clear();
        m_cpu.clear();
        m_wait.clear();
        m_last = Clock::now();
        m_lastCpu = threadCpuMs();
        m_lastWait = threadRunDelayMs();
        m_stateReads = m_dirtyReads = 0;
        m_recording = true;
    }
    void stopRecording() {
        // The time since the last firing counts too (a stall running up to the end).
        m_gaps.v.push_back(msBetween(m_last, Clock::now()));
        m_gapStarts.v.push_back(m_last);
        m_cpu.v.push_back(threadCpuMs() - m_lastCpu);
        m_wait.v.push_back(threadRunDelayMs() - m_lastWait);
        m_recording = false;
    }
    const std::vector<double>& gaps() const { return m_gaps.v; }
    /// Bytes the per-firing records have written (Records), and whether they outgrew their reserve.
    std::size_t recordBytes() const {
        return m_gaps.bytesWritten() + m_gapStarts.bytesWritten() + m_cpu.bytesWritten() + m_wait.bytesWritten();
    }
    bool recordsOutgrewReserve() const {
        return m_gaps.outgrewReserve() || m_gapStarts.outgrewReserve() || m_cpu.outgrewReserve() ||
               m_wait.outgrewReserve();
    }
    /// Share of the firings that found the upper vector state in use; −1 where it cannot be read.
    double dirtyShare() const {
        return m_stateReads > 0 ? static_cast<double>(m_dirtyReads) / static_cast<double>(m_stateReads) : -1.0;
    }
    /// The GUI thread's CPU time within each gap: what the gap would be on an idle machine
    /// (the rest is the thread waiting for a core).
    const std::vector<double>& gapCpu() const { return m_cpu.v; }
    /// CPU time within the longest gap.
    double cpuOfWorstGap() const { return ofWorstGap(m_cpu.v); }
    /// Time the GUI thread waited for a core (runnable, not running) within the longest gap.
    double waitOfWorstGap() const { return ofWorstGap(m_wait.v); }
    /// When the longest gap began (the firing before it).
    Clock::time_point startOfWorstGap() const {
        return m_gapStarts.v.empty() ? Clock::time_point{}
                                     : m_gapStarts.v[static_cast<std::size_t>(
                                           std::max_element(m_gaps.v.begin(), m_gaps.v.end()) - m_gaps.v.begin())];
    }

private:
    QTimer m_timer;
    long m_stateReads = 0, m_dirtyReads = 0;
    Records<double> m_gaps;
    Records<Clock::time_point> m_gapStarts;
    double ofWorstGap(const std::vector<double>& v) const {
        if (m_gaps.v.empty())
            return 0.0;
        return v[static_cast<std::size_t>(std::max_element(m_gaps.v.begin(), m_gaps.v.end()) - m_gaps.v.begin())];
    }
    Records<double> m_cpu;
    Records<double> m_wait;
    double m_lastCpu = 0.0;
    double m_lastWait = 0.0;
    Clock::time_point m_last = Clock::now();
    bool m_recording = false;
};

struct Result {
    QString scenario;
    QString dataset;
    int rep = 0;
    double seconds = 0.0;
    Stats gaps;
    Stats events;
    Stats steps; // drag scenarios only
    Stats gapCpu;
    double worstGapCpu = 0.0;
    double worstGapWait = 0.0;
    double guiCpuMs = 0.0;
    std::vector<SlowEvent> slowest;
    bool timedOut = false;
};

/// Runs the event loop until done() (checked on every signal of the given kind) or timeout.
template <typename Sender, typename Signal>
bool waitFor(Sender* sender, Signal signal, int timeoutMs, const std::function<bool()>& done = {}) {
    if (done && done())
        return true;
    QEventLoop loop;
    bool ok = false;
    QObject::connect(sender, signal, &loop, [&] {
        if (!done || done()) {
            ok = true;
            loop.quit();
        }
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    return ok;
}

void spin(int ms) {
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

/// Drags the slider from position `from` to `to` over `durationMs`, a step every 16 ms, then
/// releases it. Returns the synchronous cost of each step (ms).
std::vector<double> drag(QSlider* slider, int from, int to, int durationMs) {
    std::vector<double> costs;
    const int steps = std::max(1, durationMs / 16);
    int k = 0;
    QEventLoop loop;
    QTimer timer;
    timer.setTimerType(Qt::PreciseTimer);
    timer.setInterval(16);
    slider->setSliderDown(true);
    QObject::connect(&timer, &QTimer::timeout, &loop, [&] {
        ++k;
        const int position = from + (to - from) * k / steps;
        const auto start = Clock::now();
        slider->setSliderPosition(position); // sliderMoved + valueChanged, as a mouse move
        costs.push_back(msBetween(start, Clock::now()));
        if (k >= steps) {
            timer.stop();
            loop.quit();
        }
    });
    timer.start();
    loop.exec();
    const auto start = Clock::now();
    slider->setSliderDown(false); // sliderReleased → full-fidelity probe
    costs.push_back(msBetween(start, Clock::now()));
    return costs;
}

QString shortName(const QString& spec) {
    return spec.startsWith(QLatin1String("builtin:")) ? spec.mid(8) : QFileInfo(spec).fileName();
}

QString loadAverage() {
    QFile f(QStringLiteral("/proc/loadavg"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromLatin1(f.readAll()).section(QLatin1Char(' '), 0, 2);
}

QJsonObject statsJson(const Stats& s) {
    return QJsonObject{
        {"worst_ms", s.worst}, {"p99_ms", s.p99}, {"median_ms", s.median}, {"count", s.count}, {"over_50ms", s.over50}};
}

constexpr int kTimeout = 300000;                // ms: a scenario that takes longer failed
constexpr int kSweepEnd = EpsSlider::kLogSteps; // the slider's last finite stop

/// The command line and the environment: repetitions, -v, the datasets of the Utility
/// scenarios and those of the Decision regions tab (the last one also serves the tabs after it).
struct Options {
    int reps = 3;
    bool verbose = false;
    QStringList specs;
    QStringList regionSpecs;
};

Options parseOptions() {
    Options o;
    const QStringList args = QCoreApplication::arguments().mid(1);
    for (int i = 0; i < args.size(); ++i) {
        if (args[i] == QLatin1String("-v"))
            o.verbose = true;
        else if (args[i] == QLatin1String("--reps") && i + 1 < args.size())
            o.reps = std::max(1, args[++i].toInt());
        else
            o.specs << args[i];
    }
    if (o.specs.isEmpty()) {
        const QString env = qEnvironmentVariable("EPSILONLAB_STALL_DATA");
        if (!env.isEmpty()) {
            o.specs = env.split(QLatin1Char(','), Qt::SkipEmptyParts);
        } else {
            o.specs << QStringLiteral("builtin:breast_cancer");
            const QString adult = QStringLiteral(EPSILONLAB_SHARED_DIR "/datasets/adult/a9a_train.libsvm");
            if (QFileInfo::exists(adult))
                o.specs << adult;
        }
    }
    o.regionSpecs = qEnvironmentVariable("EPSILONLAB_STALL_REGIONS_DATA").split(QLatin1Char(','), Qt::SkipEmptyParts);
    if (o.regionSpecs.isEmpty())
        o.regionSpecs << QStringLiteral("builtin:moons?rows=5000") << QStringLiteral("builtin:penguins");
    return o;
}

/// Start to first frame, ms (−1: no frame within 10 s).
struct FirstFrame {
    double fromMain = -1.0;
    double fromWindow = -1.0;
};

/// Shows the window built between windowStart and windowBuilt and waits for its first paint;
/// prints the start-up figures. Then lets what the window queued for itself at start-up run.
FirstFrame showFirstFrame(TimedApplication& app, MainWindow& window, Clock::time_point mainStart,
                          Clock::time_point appReady, Clock::time_point windowStart, Clock::time_point windowBuilt) {
    window.show();
    window.showView(QStringLiteral("utility"));
    while (!app.firstPaintSeen() && msBetween(windowStart, Clock::now()) < 10000)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    FirstFrame f;
    f.fromMain = app.firstPaintSeen() ? msBetween(mainStart, app.firstFrame()) : -1.0;
    f.fromWindow = app.firstPaintSeen() ? msBetween(windowStart, app.firstFrame()) : -1.0;
    std::printf("bench_gui_stall start to first frame: %.1f ms from main() (QApplication %.1f ms, MainWindow "
                "constructor %.1f ms, show → first frame painted %.1f ms); target <= 1000 ms\n",
                f.fromMain, msBetween(mainStart, appReady), msBetween(windowStart, windowBuilt),
                app.firstPaintSeen() ? msBetween(windowBuilt, app.firstFrame()) : -1.0);
    std::fflush(stdout);
    // What the window queued for itself at start-up (e.g. QStatusBar's size grip showing itself,
    // 14 ms, posted from its constructor) runs now, not inside the first scenario's gaps: the
    // scenarios measure the user's actions on a window that is up, as a user sees it.
    for (const auto settle = Clock::now(); msBetween(settle, Clock::now()) < 300.0;)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 20);
    return f;
}

/// What every scenario uses: the application and its probe, the window and its Utility tab,
/// the options, and the results so far. begin() starts recording a run, end() stops it, prints
/// it and keeps its Result.
struct Bench {
    Bench(TimedApplication& a, MainWindow& w, const Options& o) : app(a), window(w), options(o) {}

    TimedApplication& app;
    MainWindow& window;
    const Options& options;
    StallProbe probe;
    UtilityController* utility = window.utilityController();
    UtilityView* utilityView = window.utilityView();
    std::vector<Result> results;

    Clock::time_point begin() {
        app.startRecording();
        probe.startRecording();
        return Clock::now();
    }

    void end(const QString& scenario, const QString& dataset, int rep, Clock::time_point start, bool ok,
             std::vector<double> steps = {}) {
        probe.stopRecording();
        app.stopRecording();
        Result r;
        r.scenario = scenario;
        r.dataset = dataset;
        r.rep = rep;
        r.seconds = msBetween(start, Clock::now()) / 1e3;
        r.gaps = statsOf(probe.gaps());
        r.gapCpu = statsOf(probe.gapCpu());
        r.worstGapCpu = probe.cpuOfWorstGap();
        r.worstGapWait = probe.waitOfWorstGap();
        for (double c : probe.gapCpu())
            r.guiCpuMs += c;
        r.events = statsOf(app.eventMs());
        r.steps = statsOf(std::move(steps));
        r.slowest = app.slowest(5);
        r.timedOut = !ok;
        std::printf("  %-16s %-22s rep %d: %6.2f s, worst gap %7.1f ms, p99 %5.1f ms, worst event %7.1f ms",
                    qPrintable(scenario), qPrintable(dataset), rep, r.seconds, r.gaps.worst, r.gaps.p99,
                    r.events.worst);
        if (r.steps.count > 0)
            std::printf(", drag step worst %.1f / median %.2f ms", r.steps.worst, r.steps.median);
        std::printf("%s\n", ok ? "" : "  TIMED OUT");
        std::printf("      GUI thread CPU: %.0f ms in %.2f s; within the worst gap %.1f ms CPU and %.1f ms waiting "
                    "for a core; largest CPU time within one gap %.1f ms\n",
                    r.guiCpuMs, r.seconds, r.worstGapCpu, r.worstGapWait, r.gapCpu.worst);
        if (probe.dirtyShare() >= 0.0)
            std::printf("      GUI thread's upper vector state in use at %.1f %% of the probe's firings\n",
                        100.0 * probe.dirtyShare());
        std::printf("      window: %.1f Mpx painted, %d layouts of the whole window\n", app.windowPixels() / 1e6,
                    app.windowLayouts());
        for (const auto& e : r.slowest)
            std::printf("      %7.1f ms  %s\n", e.ms, qPrintable(e.what));
        if (options.verbose)
            printDetails(r);
        std::fflush(stdout);
        results.push_back(r);
    }

    /// -v: the event categories that took longest, the worst gap dispatch by dispatch, and the
    /// pixels painted per widget class.
    void printDetails(const Result& r) const {
        for (const auto& c : app.topCategories(6))
            std::printf("      total %7.1f ms (cpu %6.1f) in %5d × %s\n", c.ms, c.cpu, c.count, qPrintable(c.name));
        // The worst gap as a timeline: each dispatch in it, and the time outside any dispatch
        // (the scenario's own calls, or the event loop between sources).
        const Clock::time_point from = probe.startOfWorstGap();
        const Clock::time_point to = from + std::chrono::microseconds(static_cast<long>(r.gaps.worst * 1e3));
        double inside = 0.0;
        std::printf("      the worst gap (%.1f ms), dispatch by dispatch (ms from its start: duration):", r.gaps.worst);
        int shown = 0;
        for (const auto& d : app.dispatchesWithin(from, to)) {
            const double ms = msBetween(d.start, d.end);
            inside += ms;
            if (ms < 0.5)
                continue;
            std::printf("%s %.1f: %.1f %s %s", shown++ % 4 == 0 ? "\n       " : ";", msBetween(from, d.start), ms,
                        QMetaEnum::fromType<QEvent::Type>().valueToKey(d.type), d.receiver);
        }
        std::printf("\n      in dispatches %.1f ms, outside them %.1f ms\n", inside, r.gaps.worst - inside);
        for (const auto& p : app.mostPainted(8))
            std::printf("      painted %8.2f Mpx in %5d paints of %s\n", p.pixels / 1e6, p.count, qPrintable(p.widget));
    }

    bool utilityIdle() const { return !utility->isBusy(); }
    bool waitUtilityIdle() {
        return waitFor(utility, &UtilityController::idle, kTimeout, [this] { return utilityIdle(); });
    }
    /// MiB the benchmark's own per-event records have written (Records).
    double recordMiB() const {
        return static_cast<double>(app.recordBytes() + probe.recordBytes()) / (1024.0 * 1024.0);
    }
};

/// The measured values a Utility drag shows: each new probe result, at the ε then applied or,
/// while the handle is held, at its own ε (the view shows it there, marked as such).
struct ProbesShown {
    int count = 0;
    double lastEps = 0.0;
    QMetaObject::Connection connection;
    void reset(UtilityController* c) {
        QObject::disconnect(connection);
        count = 0;
        lastEps = c->state().probe ? c->state().probe->eps : 0.0; // the one shown before the drag
        connection = QObject::connect(c, &UtilityController::stateChanged, c, [this, c] {
            const auto& probe = c->state().probe;
            if (probe && (c->dragging() || probe->eps == c->settings().currentEps) && probe->eps != lastEps) {
                lastEps = probe->eps;
                ++count;
            }
        });
    }
    void print(int whileHeld) {
        std::printf("      measured probe values shown: %d while the handle was held, %d in all\n", whileHeld, count);
        std::fflush(stdout);
        QObject::disconnect(connection);
    }
};

/// Utility tab, one dataset: (1) load (request → dataset shown) and (2) the full sweep (dataset
/// shown → idle), with the memory they hold. False if the load timed out.
bool utilityLoadAndSweep(Bench& b, const QString& spec) {
    const QString name = shortName(spec);
    LoadRequest request;
    request.spec = spec;
    resetPeakResident(); // the peak below is this load's and sweep's
    const Resident before = residentMiB();
    const double recordsBefore = b.recordMiB();
    const struct mallinfo2 heapAtStart = mallinfo2();
    const double heapBefore = static_cast<double>(heapAtStart.uordblks + heapAtStart.hblkhd) / (1024.0 * 1024.0);
    const long viewCopiesBefore = elab::core::FeatureMatrix::viewsMaterialised();
    auto start = b.begin();
    b.window.load(request);
    bool ok = waitFor(&b.window, &MainWindow::datasetShown, kTimeout);
    b.end(QStringLiteral("load"), name, 0, start, ok);
    if (!ok)
        return false;
    const double matrixMiB = static_cast<double>(b.window.current().data->features.memoryBytes()) / (1024.0 * 1024.0);
    const Resident loaded = residentMiB();
    const double recordsLoaded = b.recordMiB() - recordsBefore;

    start = b.begin();
    ok = b.waitUtilityIdle();
    b.end(QStringLiteral("sweep"), name, 0, start, ok);
    // Memory (issue 15: ≤ 2× the matrix): what the process holds beyond its state before the
    // load, less what the benchmark's own records wrote meanwhile (Records).
    const Resident swept = residentMiB();
    const double recordsSwept = b.recordMiB() - recordsBefore;
    malloc_trim(0); // glibc keeps freed blocks mapped: what is still in use
    const Resident trimmed = residentMiB();
    const struct mallinfo2 heap = mallinfo2(); // in use now: the arenas' and the mapped blocks'
    const double heapInUse = static_cast<double>(heap.uordblks + heap.hblkhd) / (1024.0 * 1024.0);
    const auto times = [matrixMiB](double mib) { return mib / matrixMiB; };
    const double rssLoaded = loaded.rss - before.rss - recordsLoaded, rssSwept = swept.rss - before.rss - recordsSwept,
                 rssTrimmed = trimmed.rss - before.rss - recordsSwept, peak = swept.peak - before.rss;
    std::printf("      memory: feature matrix %.1f MiB; resident above the state before the load, less the "
                "benchmark's records (%.1f MiB by the sweep's end): %.1f MiB loaded (%.2f× the matrix), %.1f MiB "
                "after the sweep (%.2f×), after malloc_trim %.1f MiB (%.2f×); peak %.1f MiB above that state "
                "(%.2f×; without the records, between %.2f× and that); prepared views copied: %ld%s\n",
                matrixMiB, recordsSwept, rssLoaded, times(rssLoaded), rssSwept, times(rssSwept), rssTrimmed,
                times(rssTrimmed), peak, times(peak), times(peak - recordsSwept),
                elab::core::FeatureMatrix::viewsMaterialised() - viewCopiesBefore,
                b.app.recordsOutgrewReserve() || b.probe.recordsOutgrewReserve()
                    ? " (the records outgrew their reserve: a reallocation is in these figures)"
                    : "");
    const double anonLoaded = loaded.anonymous - before.anonymous - recordsLoaded,
                 anonSwept = swept.anonymous - before.anonymous - recordsSwept,
                 anonTrimmed = trimmed.anonymous - before.anonymous - recordsSwept;
    std::printf("      anonymous memory (RssAnon) above the state before the load, less the records: %.1f MiB loaded "
                "(%.2f×), %.1f MiB after the sweep (%.2f×), %.1f MiB after malloc_trim (%.2f×); heap in use "
                "(mallinfo2, records' reserve included) %.1f MiB in all, %.1f MiB of it before the load\n",
                anonLoaded, times(anonLoaded), anonSwept, times(anonSwept), anonTrimmed, times(anonTrimmed), heapInUse,
                heapBefore);
    std::fflush(stdout);
    return true;
}

/// Utility tab, one repetition on the loaded dataset: the sweep again with a new seed (from the
/// second repetition on), (3) a drag across the slider's range for ~3 s, release, until idle,
/// and (4) the same drag while a sweep runs (a new seed), until idle.
void utilityDrags(Bench& b, const QString& name, int rep, ProbesShown& probesShown) {
    QSlider* slider = b.utilityView->slider()->slider();
    Clock::time_point start;
    bool ok = true;
    if (rep > 1) { // a new seed: the whole sweep again
        UtilitySettings s = b.utilityView->composedSettings();
        s.seed += 1;
        start = b.begin();
        b.utilityView->applySettings(s);
        ok = b.waitUtilityIdle();
        b.end(QStringLiteral("sweep"), name, rep - 1, start, ok);
    }
    spin(200);

    start = b.begin();
    probesShown.reset(b.utility);
    std::vector<double> steps = drag(slider, 0, kSweepEnd, 3000);
    const int shownWhileHeld = probesShown.count;
    ok = b.waitUtilityIdle();
    b.end(QStringLiteral("drag"), name, rep, start, ok, steps);
    probesShown.print(shownWhileHeld);
    spin(200);

    UtilitySettings s = b.utilityView->composedSettings();
    s.seed += 1000;
    start = b.begin();
    b.utilityView->applySettings(s);
    spin(50); // the coalescing frame: the sweep has started
    probesShown.reset(b.utility);
    steps = drag(slider, kSweepEnd, 0, 3000);
    const int shownDuringSweep = probesShown.count;
    ok = b.waitUtilityIdle();
    b.end(QStringLiteral("sweep+drag"), name, rep, start, ok, steps);
    probesShown.print(shownDuringSweep);
    spin(200);
}

/// The Utility tab on every dataset of the options: load, sweep, then the drags per repetition.
bool utilityScenarios(Bench& b) {
    ProbesShown probesShown;
    for (const QString& spec : b.options.specs) {
        if (!utilityLoadAndSweep(b, spec))
            return false;
        for (int rep = 1; rep <= b.options.reps; ++rep)
            utilityDrags(b, shortName(spec), rep, probesShown);
    }
    return true;
}

/// (5) The Decision regions tab: per dataset, open (load until the regions are drawn), then per
/// repetition a drag of its slider across the range, release, until idle; the pictures drawn
/// and the evaluation time per step.
bool regionsScenario(Bench& b) {
    RegionsTab* regions = b.window.view<RegionsTab>();
    RegionsController* rc = regions->regionsController();
    QSlider* regionsSlider = regions->view()->slider()->slider();
    auto regionsIdle = [&] { return !rc->isBusy() && rc->upToDate(); };
    int pictures = 0;
    std::vector<double> evaluationMs;
    struct Counting {
        QMetaObject::Connection connection;
        ~Counting() { QObject::disconnect(connection); } // the counters are this function's
    } counting{QObject::connect(regions->view(), &RegionsView::redrawn, &b.app, [&] {
        ++pictures;
        evaluationMs.push_back(rc->state().evaluationMs);
    })};
    b.window.showView(QStringLiteral("regions"));
    for (const QString& spec : b.options.regionSpecs) {
        const QString name = shortName(spec);
        LoadRequest request;
        request.spec = spec;
        auto start = b.begin();
        b.window.load(request);
        bool ok = waitFor(&b.window, &MainWindow::datasetShown, kTimeout);
        ok = ok && waitFor(rc, &RegionsController::idle, kTimeout, regionsIdle);
        b.end(QStringLiteral("regions open"), name, 0, start, ok);
        // The utility view computes its sweep for every dataset: let it finish first.
        ok = ok && b.waitUtilityIdle();
        if (!ok)
            return false;
        for (int rep = 1; rep <= b.options.reps; ++rep) {
            spin(200);
            pictures = 0;
            evaluationMs.clear();
            start = b.begin();
            const bool up = rep % 2 == 1;
            std::vector<double> steps = drag(regionsSlider, up ? 0 : kSweepEnd, up ? kSweepEnd : 0, 3000);
            ok = waitFor(rc, &RegionsController::idle, kTimeout, regionsIdle);
            b.end(QStringLiteral("regions drag"), name, rep, start, ok, steps);
            const Stats eval = statsOf(evaluationMs);
            std::printf("      regions: %d pictures drawn during the drag and after release; evaluation at the full "
                        "grid %.1f ms median, %.1f ms worst (%s)\n",
                        pictures, eval.median, eval.worst,
                        rc->state().evaluationMs > RegionsController::kLiveBudgetMs ? "drag steps on the coarse grid"
                                                                                    : "every step on the full grid");
            std::fflush(stdout);
        }
    }
    return true;
}

/// A view's slider dragged across its finite stops (∞ stands for ε = 100 in accounting) and
/// released, until its controller is idle, per repetition; the redraws counted (on the
/// dataset the regions scenario loaded last).
template <class Page, class Redrawn>
void dragView(Bench& b, const QString& scenario, QSlider* viewSlider, ComputeControllerBase* vc, Page* page,
              Redrawn redrawn, const std::function<QString()>& shown) {
    const QString name = shortName(b.options.regionSpecs.back());
    auto viewIdle = [&] { return !vc->isBusy(); };
    int redraws = 0;
    const QMetaObject::Connection counting = QObject::connect(page, redrawn, &b.app, [&] { ++redraws; });
    bool ok = waitFor(vc, &ComputeControllerBase::idle, kTimeout, viewIdle);
    for (int rep = 1; ok && rep <= b.options.reps; ++rep) {
        spin(200);
        redraws = 0;
        const bool up = rep % 2 == 1;
        auto start = b.begin();
        std::vector<double> steps = drag(viewSlider, up ? 0 : kSweepEnd - 1, up ? kSweepEnd - 1 : 0, 3000);
        ok = waitFor(vc, &ComputeControllerBase::idle, kTimeout, viewIdle);
        b.end(scenario, name, rep, start, ok, steps);
        std::printf("      %s: %d redraws during the drag and after release%s\n", qPrintable(scenario), redraws,
                    qPrintable(shown()));
        std::fflush(stdout);
    }
    QObject::disconnect(counting);
}

/// (6) The Privacy accounting tab: a drag of its ε slider (each step calibrates σ under every
/// accountant on a worker and redraws both charts, the table and the readout), until idle.
bool accountingScenario(Bench& b) {
    AccountingTab* accounting = b.window.view<AccountingTab>();
    AccountingController* ac = accounting->accountingController();
    b.window.showView(QStringLiteral("accounting"));
    dragView(b, QStringLiteral("accounting drag"), accounting->view()->slider()->slider(), ac, accounting->view(),
             &AccountingView::redrawn, [ac] {
                 const auto curves = ac->curves();
                 return QStringLiteral("; shown: ε = %1, σ = %2%3")
                     .arg(curves ? curves->inputs.eps : 0.0)
                     .arg(curves ? curves->currentSigma : 0.0)
                     .arg(ac->lastError().isEmpty() ? QString() : QStringLiteral("; problem: ") + ac->lastError());
             });
    return true;
}

/// The Private dropout (PTR) tab: each step one release and the test's runs on a worker.
bool ptrScenario(Bench& b) {
    PtrTab* ptr = b.window.view<PtrTab>();
    b.window.showView(QStringLiteral("ptr"));
    dragView(b, QStringLiteral("ptr drag"), ptr->view()->slider()->slider(), ptr->ptrController(), ptr->view(),
             &PtrView::redrawn, [] { return QString(); });
    return true;
}

/// The Privacy audit tab: the same drag (the audit starts on release; the drag itself only
/// updates the status line), the audit release starts cancelled.
bool auditScenario(Bench& b) {
    const QString name = shortName(b.options.regionSpecs.back());
    AuditTab* audit = b.window.view<AuditTab>();
    AuditController* auc = audit->auditController();
    QSlider* auditSlider = audit->view()->slider()->slider();
    b.window.showView(QStringLiteral("audit"));
    spin(300);
    auc->cancel();
    waitFor(auc, &AuditController::idle, kTimeout, [&] { return !auc->isBusy(); });
    for (int rep = 1; rep <= b.options.reps; ++rep) {
        spin(200);
        const bool up = rep % 2 == 1;
        auto start = b.begin();
        std::vector<double> steps = drag(auditSlider, up ? 0 : kSweepEnd - 1, up ? kSweepEnd - 1 : 0, 3000);
        b.end(QStringLiteral("audit drag"), name, rep, start, true, steps);
        auc->cancel(); // release started an audit of hundreds of fits: not part of the drag
        waitFor(auc, &AuditController::idle, kTimeout, [&] { return !auc->isBusy(); });
    }
    return true;
}

/// (7) Play ε: in each tab that plays it cheaply (the audit's steps are full audits), the play
/// button at its fast speed from the smallest grid ε to the largest, once, until the view is idle
/// (on the dataset the regions scenario loaded last); the time between steps (the speed, or
/// longer when a step's result takes longer).
bool playScenario(Bench& b) {
    const QString name = shortName(b.options.regionSpecs.back());
    for (const QString& id :
         {QStringLiteral("utility"), QStringLiteral("regions"), QStringLiteral("accounting"), QStringLiteral("ptr")}) {
        View* view = b.window.view(id);
        EpsSlider* slider = view ? epsSliderOf(*view) : nullptr;
        if (!slider)
            continue;
        b.window.showView(id);
        ComputeControllerBase* vc = view->controller();
        auto shown = [view] { return showsCurrentResult(*view); };
        for (int rep = 1; rep <= b.options.reps; ++rep) {
            slider->stepTo(slider->grid().front());
            if (!waitFor(vc, &ComputeControllerBase::idle, kTimeout, shown))
                return false;
            spin(200);
            std::vector<double> between;
            Clock::time_point last = Clock::now();
            const QMetaObject::Connection stepping =
                QObject::connect(slider->player(), &EpsPlayer::stepped, &b.app, [&](double) {
                    between.push_back(msBetween(last, Clock::now()));
                    last = Clock::now();
                });
            slider->player()->setMode(EpsPlayer::Mode::Once);
            slider->player()->setInterval(EpsPlayer::kFastMs);
            auto start = b.begin();
            slider->player()->play();
            bool ok = waitFor(slider->player(), &EpsPlayer::playingChanged, kTimeout,
                              [slider] { return !slider->player()->isPlaying(); });
            ok = ok && waitFor(vc, &ComputeControllerBase::idle, kTimeout, shown);
            QObject::disconnect(stepping);
            b.end(QStringLiteral("%1 play").arg(id), name, rep, start, ok);
            const Stats s = statsOf(between);
            std::printf("      %s play: %zu steps of the grid's %zu, %.0f ms between steps (median), %.0f ms worst "
                        "(the speed: %d ms)\n",
                        qPrintable(id), between.size(), slider->grid().size(), s.median, s.worst, EpsPlayer::kFastMs);
            std::fflush(stdout);
        }
    }
    return true;
}

/// The scenarios in the order they run; one returning false (a load that timed out) ends the
/// benchmark with status 1 and no summary.
struct Scenario {
    const char* name;
    bool (*run)(Bench&);
};
constexpr Scenario kScenarios[] = {
    {"utility", utilityScenarios}, {"regions", regionsScenario}, {"accounting", accountingScenario},
    {"ptr", ptrScenario},          {"audit", auditScenario},     {"play", playScenario},
};

/// Summary: per scenario and dataset, the median over repetitions of each figure (and the
/// largest worst gap seen), printed as a table and appended to out as JSON lines; returns the
/// rows.
QJsonArray summarise(const std::vector<Result>& results, const QString& load, std::ofstream& out) {
    struct Key {
        QString scenario, dataset;
        bool operator<(const Key& o) const { return std::tie(scenario, dataset) < std::tie(o.scenario, o.dataset); }
    };
    std::map<Key, std::vector<const Result*>> groups;
    std::vector<Key> order;
    for (const Result& r : results) {
        const Key key{r.scenario, r.dataset};
        if (!groups.count(key))
            order.push_back(key);
        groups[key].push_back(&r);
    }
    auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v.empty() ? 0.0 : v[v.size() / 2];
    };
    std::printf("\nbench_gui_stall (load average %s; medians over repetitions; gap = 1 ms probe timer)\n",
                qPrintable(load));
    std::printf("%-11s %-18s %4s %9s %9s %7s %7s %6s %5s %9s %9s %9s %8s %10s\n", "scenario", "dataset", "runs",
                "worst ms", "max worst", "p99 ms", "median", "count", ">50", "cpu in", "wait in", "max cpu", "worst",
                "drag step");
    std::printf("%-11s %-18s %4s %9s %9s %7s %7s %6s %5s %9s %9s %9s %8s %10s\n", "", "", "", "(gap)", "(gap)", "(gap)",
                "(gap)", "(gaps)", "", "worst gap", "worst gap", "in a gap", "event", "worst/med");
    QJsonArray rows;
    for (const Key& key : order) {
        const auto& g = groups[key];
        std::vector<double> worst, p99, med, count, over, ev, stepWorst, stepMed, cpuWorst, cpuMax, waitWorst;
        double maxWorst = 0.0;
        for (const Result* r : g) {
            worst.push_back(r->gaps.worst);
            maxWorst = std::max(maxWorst, r->gaps.worst);
            p99.push_back(r->gaps.p99);
            med.push_back(r->gaps.median);
            count.push_back(r->gaps.count);
            over.push_back(r->gaps.over50);
            ev.push_back(r->events.worst);
            cpuWorst.push_back(r->worstGapCpu);
            cpuMax.push_back(r->gapCpu.worst);
            waitWorst.push_back(r->worstGapWait);
            if (r->steps.count > 0) {
                stepWorst.push_back(r->steps.worst);
                stepMed.push_back(r->steps.median);
            }
        }
        char step[32] = "-";
        if (!stepWorst.empty())
            std::snprintf(step, sizeof step, "%.1f/%.2f", median(stepWorst), median(stepMed));
        std::printf("%-11s %-18s %4zu %9.1f %9.1f %7.2f %7.2f %6.0f %5.0f %9.1f %9.1f %9.1f %8.1f %10s\n",
                    qPrintable(key.scenario), qPrintable(key.dataset.left(18)), g.size(), median(worst), maxWorst,
                    median(p99), median(med), median(count), median(over), median(cpuWorst), median(waitWorst),
                    median(cpuMax), median(ev), step);
        QJsonObject row{{"scenario", key.scenario},
                        {"dataset", key.dataset},
                        {"runs", static_cast<int>(g.size())},
                        {"worst_gap_ms", median(worst)},
                        {"max_worst_gap_ms", maxWorst},
                        {"p99_gap_ms", median(p99)},
                        {"median_gap_ms", median(med)},
                        {"gaps", median(count)},
                        {"gaps_over_50ms", median(over)},
                        {"worst_event_ms", median(ev)},
                        {"gui_cpu_in_worst_gap_ms", median(cpuWorst)},
                        {"max_gui_cpu_in_a_gap_ms", median(cpuMax)},
                        {"gui_runqueue_wait_in_worst_gap_ms", median(waitWorst)}};
        if (!stepWorst.empty()) {
            row.insert("drag_step_worst_ms", median(stepWorst));
            row.insert("drag_step_median_ms", median(stepMed));
        }
        rows.append(row);
        QJsonObject line = row;
        line.insert("bench", "gui_stall");
        out << QJsonDocument(line).toJson(QJsonDocument::Compact).toStdString() << '\n';
    }
    return rows;
}

/// Every run as JSON.
QJsonArray runsJson(const std::vector<Result>& results) {
    QJsonArray runs;
    for (const Result& r : results) {
        QJsonArray slow;
        for (const auto& e : r.slowest)
            slow.append(QJsonObject{{"ms", e.ms}, {"event", e.what}});
        QJsonObject o{{"scenario", r.scenario},
                      {"dataset", r.dataset},
                      {"rep", r.rep},
                      {"seconds", r.seconds},
                      {"gap", statsJson(r.gaps)},
                      {"gap_gui_cpu", statsJson(r.gapCpu)},
                      {"gui_cpu_in_worst_gap_ms", r.worstGapCpu},
                      {"gui_runqueue_wait_in_worst_gap_ms", r.worstGapWait},
                      {"gui_cpu_ms", r.guiCpuMs},
                      {"event", statsJson(r.events)},
                      {"slowest_events", slow},
                      {"timed_out", r.timedOut}};
        if (r.steps.count > 0)
            o.insert("drag_step", statsJson(r.steps));
        runs.append(o);
    }
    return runs;
}

/// The summary table, the first frame, the JSON lines appended to EPSILONLAB_BENCH_OUT and
/// bench_gui_stall.json.
void report(const std::vector<Result>& results, const FirstFrame& firstFrame) {
    const QString load = loadAverage();
    std::ofstream out(EPSILONLAB_BENCH_OUT, std::ios::app);
    const QJsonArray rows = summarise(results, load, out);
    const QJsonArray runs = runsJson(results);
    std::printf("first frame: %.1f ms from main(), %.1f ms from the MainWindow constructor (target <= 1000 ms)\n",
                firstFrame.fromMain, firstFrame.fromWindow);
    const QJsonObject doc{{"bench", "gui_stall"},
                          {"date", QDateTime::currentDateTimeUtc().toString(Qt::ISODate)},
                          {"load_average", load},
                          {"platform", QGuiApplication::platformName()},
                          {"first_frame_ms", firstFrame.fromMain},
                          {"window_to_first_frame_ms", firstFrame.fromWindow},
                          {"summary", rows},
                          {"runs", runs}};
    out << QJsonDocument(QJsonObject{{"bench", "gui_stall_first_frame"}, {"ms", firstFrame.fromMain}})
               .toJson(QJsonDocument::Compact)
               .toStdString()
        << '\n';
    QFile file(QStringLiteral("bench_gui_stall.json"));
    if (file.open(QIODevice::WriteOnly))
        file.write(QJsonDocument(doc).toJson());
    std::printf("wrote %s\n", qPrintable(QFileInfo(file).absoluteFilePath()));
}

} // namespace

int main(int argc, char** argv) {
    const auto mainStart = Clock::now();
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    elab::core::configureAllocatorForLongRuns(); // as the application's main() does
    TimedApplication app(argc, argv);
    initialiseApplication();
    const auto appReady = Clock::now();
    qRegisterMetaType<LoadedDataset>();
    qRegisterMetaType<LoadRequest>();
    const Options options = parseOptions();

    // (1) Start to first frame.
    const auto windowStart = Clock::now();
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    const auto windowBuilt = Clock::now();
    const FirstFrame firstFrame = showFirstFrame(app, window, mainStart, appReady, windowStart, windowBuilt);

    Bench bench(app, window, options);
    for (const Scenario& scenario : kScenarios)
        if (!scenario.run(bench))
            return 1;
    report(bench.results, firstFrame);
    return 0;
}
