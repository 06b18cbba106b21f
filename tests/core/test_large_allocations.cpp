// The fixed mmap threshold (core/util/large_allocations.h): after the setting, a large block
// is mapped every time, also after one of its size was freed — which glibc's dynamic threshold
// would serve from the heap, where freed space stays resident.

#include "core/util/large_allocations.h"

#include <QtTest>

#include <cstdlib>
#include <cstring>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace {

#if defined(__GLIBC__)
// Mapped blocks in use now.
std::size_t mappedBlocks() { return mallinfo2().hblks; }

// Allocates a block of `bytes`, touches it, and returns how many more mapped blocks there were
// while it was held; frees it.
std::size_t mappedWhileHeld(std::size_t bytes) {
    const std::size_t before = mappedBlocks();
    auto* p = static_cast<char*>(std::malloc(bytes));
    if (!p)
        return 0;
    std::memset(p, 1, bytes);
    asm volatile("" : : "r"(p) : "memory"); // keep the allocation
    const std::size_t during = mappedBlocks();
    std::free(p);
    return during - before;
}
#endif

} // namespace

class TestLargeAllocations : public QObject {
    Q_OBJECT

private slots:
    void largeBlocksAreMappedEveryTime() {
#if !defined(__GLIBC__)
        QSKIP("glibc only");
#else
        QVERIFY(elab::core::returnLargeAllocationsToSystem());
        const std::size_t large = 3 * static_cast<std::size_t>(elab::core::kLargeAllocationBytes);
        // The first block is mapped by either rule; the second, after the first was freed, only
        // under a fixed threshold (the dynamic one would have risen to the first block's size).
        QCOMPARE(mappedWhileHeld(large), std::size_t{1});
        QCOMPARE(mappedWhileHeld(large), std::size_t{1});
        QCOMPARE(mappedWhileHeld(large / 2), std::size_t{1});
        // Small blocks stay on the heap.
        QCOMPARE(mappedWhileHeld(static_cast<std::size_t>(elab::core::kLargeAllocationBytes) / 4), std::size_t{0});
#endif
    }
};

QTEST_APPLESS_MAIN(TestLargeAllocations)
#include "test_large_allocations.moc"
