// Evidence for what ThreadSanitizer reports about Qt's own synchronisation (tsan.supp,
// docs/developer.md "Sanitizers"); only Qt and the standard library, not built by CMake. Build
// and run (Debian's Qt is not instrumented):
//   g++ -std=c++20 -g -fPIC -fsanitize=thread qt_handover.cpp $(pkg-config --cflags --libs Qt6Core) -o qt_handover
//   ./qt_handover queued; ./qt_handover pool; ./qt_handover threads
// "queued": a worker posts a lambda to the main thread with QMetaObject::invokeMethod
// (Qt::QueuedConnection). The main thread runs it, then the worker, still in invokeMethodImpl,
// drops its reference to the slot object and deletes it. Qt orders the two with the slot
// object's atomic reference count inside libQt6Core, which TSan does not see: it reports the
// worker's delete (under QMetaObject::invokeMethodImpl) racing with the main thread's read.
// So JobSlot posts events instead (ui/jobs/job_slot.cpp), which only the receiver deletes.
// "pool": one pool thread runs queued tasks; each reads what the main thread wrote before
// QThreadPool::start, and the main thread reads what the tasks wrote after waitForDone().
// Qt hands queued tasks over under a futex-based QMutex: TSan reports both as races, and
// __tsan_release/__tsan_acquire inside the task cannot help (Qt reads and deletes the task's
// std::function before and after it runs). So the background release thread is a std::thread
// (ui/jobs/background_release.cpp), whose hand-over TSan sees, and tsan.supp has no entry for it.
#include <QCoreApplication>
#include <QThread>
#include <QThreadPool>
#include <QTimer>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    const std::string mode = argc > 1 ? argv[1] : "queued";
    if (mode == "queued") {
        std::unique_ptr<QThread> worker(QThread::create([&app] {
            for (int i = 0; i < 50; ++i) {
                std::vector<double> payload(100, i); // captured by value: lives in the slot object
                QMetaObject::invokeMethod(
                    &app, [payload] { (void)payload.size(); }, Qt::QueuedConnection);
                QThread::msleep(1);
            }
            QMetaObject::invokeMethod(&app, &QCoreApplication::quit, Qt::QueuedConnection);
        }));
        worker->start();
        app.exec();
        worker->wait();
        return 0;
    }
    if (mode == "threads") {
        // Two pool threads taking short tasks from one queue: now and then a report with every
        // frame in libQt6Core (two memmoves into the pool's bookkeeping), as in the job slots'
        // tests (docs/developer.md, "Sanitizers").
        std::atomic<int> n{0};
        for (int round = 0; round < 20; ++round) {
            QThreadPool two;
            two.setMaxThreadCount(2);
            for (int i = 0; i < 50; ++i)
                two.start([&n] { n.fetch_add(1); });
            two.waitForDone();
        }
        return n.load() == 1000 ? 0 : 1;
    }
    QThreadPool pool;
    pool.setMaxThreadCount(1);
    std::vector<std::shared_ptr<std::vector<double>>> results;
    for (int i = 0; i < 20; ++i) {
        auto data = std::make_shared<std::vector<double>>(100, i); // written here, read by the task
        results.push_back(data);
        pool.start([data] {
            QThread::msleep(2);
            (*data)[0] += 1.0; // read and written on the pool thread
        });
    }
    pool.waitForDone();
    double sum = 0;
    for (const auto& r : results)
        sum += (*r)[0]; // read on the main thread after waitForDone()
    return sum > 0 ? 0 : 1;
}
