// core/util/memory_policy.h: with the threshold fixed, a large block is mapped on allocation and
// unmapped on free, also after a larger block was freed (which, by glibc's default, raises the
// threshold so that the next large vectors come from the heap and stay resident once freed).
#include "core/util/memory_policy.h"

#include <QtTest>

#include <cstdlib>
#include <cstring>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace {

#if defined(__GLIBC__)
// Bytes held in mapped blocks now (mallinfo2: hblkhd).
std::size_t mappedBytes() { return mallinfo2().hblkhd; }

// A block of the given size, written so that the allocation cannot be elided.
void* touchedBlock(std::size_t bytes) {
    void* volatile block = std::malloc(bytes);
    if (block)
        std::memset(block, 1, bytes);
    return block;
}
#endif

} // namespace

class TestMemoryPolicy : public QObject {
    Q_OBJECT
private slots:
    void largeBlocksAreMappedAndSmallerOnesKept() {
#if !defined(__GLIBC__)
        QSKIP("the policy applies to glibc's allocator only");
#else
        QVERIFY(elab::core::returnLargeBlocksOnFree());
        // By default, freeing this 16 MiB mapped block would raise the threshold to 16 MiB.
        void* big = touchedBlock(16u << 20);
        QVERIFY(big);
        std::free(big);
        // Blocks at the threshold and above (8 MiB: a million doubles) are mapped while held and
        // unmapped when freed.
        for (std::size_t bytes : {elab::core::kLargeBlockBytes, std::size_t{8} << 20}) {
            const std::size_t before = mappedBytes();
            void* block = touchedBlock(bytes);
            QVERIFY(block);
            const std::size_t held = mappedBytes();
            std::free(block);
            const std::size_t after = mappedBytes();
            QVERIFY2(held >= before + bytes, qPrintable(QString("%1 B: mapped %2 → %3").arg(bytes).arg(before).arg(held)));
            QVERIFY2(after == before, qPrintable(QString("%1 B: mapped after free %2, before %3").arg(bytes).arg(after).arg(before)));
        }
        // Below the threshold, blocks come from the heap, and a freed one at its top is kept
        // there for the next (the trim threshold; its start value, 128 KiB, would return it).
        const std::size_t before = mappedBytes();
        const std::size_t smallBytes = elab::core::kLargeBlockBytes / 2;
        void* small = touchedBlock(smallBytes);
        QVERIFY(small);
        QCOMPARE(mappedBytes(), before);
        std::free(small);
        QVERIFY2(mallinfo2().keepcost >= smallBytes, qPrintable(QString("kept at the top: %1 B").arg(mallinfo2().keepcost)));
#endif
    }
};

QTEST_APPLESS_MAIN(TestMemoryPolicy)
#include "test_memory_policy.moc"
