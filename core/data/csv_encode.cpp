#include "core/data/csv_encode.h"

#include "core/data/csv_tokenizer.h"
#include "core/data/load_error.h"

#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include <algorithm>

namespace elab::core::detail {

namespace {

// Dense column-major: every numeric entry of a kept row is written; one-hot blocks are zeroed
// up front so only the 1s need writing.
class DenseSink {
public:
    explicit DenseSink(const EncodePlan& plan) : m_matrix(plan.rows, plan.features) {
        for (std::size_t c = 0; c < plan.columns.size(); ++c) {
            const EncodedColumn& col = plan.columns[c];
            if (col.kind == EncodedColumn::Kind::Categorical)
                m_matrix.middleCols(col.firstFeature, col.levelCount).setZero();
        }
        m_data = m_matrix.data();
        m_rows = m_matrix.rows();
    }
    void startRow(Index) {}
    void put(Index row, Index feature, double value) { m_data[feature * m_rows + row] = value; }
    FeatureMatrix finish() { return FeatureMatrix(std::move(m_matrix)); }

private:
    DenseMatrix m_matrix;
    double* m_data = nullptr;
    Index m_rows = 0;
};

// CSR filled in order with Eigen's low-level API: rows one after another, ascending columns.
class SparseSink {
public:
    explicit SparseSink(const EncodePlan& plan) : m_matrix(plan.rows, plan.features) {
        m_matrix.reserve(static_cast<Index>(plan.nonZeros));
    }
    void startRow(Index row) { m_matrix.startVec(row); }
    void put(Index row, Index feature, double value) {
        if (value != 0.0)
            m_matrix.insertBack(row, feature) = value;
    }
    FeatureMatrix finish() {
        m_matrix.finalize();
        return FeatureMatrix(std::move(m_matrix));
    }

private:
    SparseMatrix m_matrix;
};

constexpr std::size_t kAllRecords = static_cast<std::size_t>(-1); ///< a stretch to the end of the text

[[noreturn]] void inconsistent(const std::string& source, std::size_t line, std::size_t column) {
    throw LoadError(source, line, column, "internal error: the second pass disagrees with the first");
}

/// The records of one stretch of the text: [first.record, endRecord) from first.offset, the
/// first of them written to row firstRow. progress: report on this thread (the whole text's
/// share of this stretch).
struct Stretch {
    RecordMark first;
    std::size_t endRecord = 0;
    Index firstRow = 0;
    Index endRow = 0;
    bool progress = false;
};

template <class Sink>
void encodeStretch(Sink& sink, std::string_view text, const std::string& source, const EncodePlan& plan,
                   const Stretch& stretch, RunContext* ctx, double progressBase, double progressSpan) {
    CsvTokenizer tokenizer(text.substr(stretch.first.offset), plan.delimiter, source, stretch.first.line);
    std::vector<CsvField> fields;
    const std::vector<std::uint8_t>& keep = *plan.keep;
    const std::size_t n = plan.columns.size();
    std::size_t record = stretch.first.record;
    Index row = stretch.firstRow;
    while (record < stretch.endRecord && tokenizer.next(fields)) {
        if ((record & 4095) == 0 && ctx) {
            ctx->throwIfStopped();
            if (stretch.progress)
                ctx->progress(progressBase + progressSpan *
                                                 static_cast<double>(stretch.first.offset + tokenizer.position()) /
                                                 static_cast<double>(text.size()),
                              "parsing");
        }
        if (record >= keep.size() || fields.size() != n || row > stretch.endRow)
            inconsistent(source, tokenizer.recordLine(), 0);
        if (!keep[record++])
            continue;
        if (row == stretch.endRow)
            inconsistent(source, tokenizer.recordLine(), 0);
        sink.startRow(row);
        for (std::size_t c = 0; c < n; ++c) {
            const EncodedColumn& col = plan.columns[c];
            if (col.kind == EncodedColumn::Kind::Skip)
                continue;
            const CsvField& field = fields[c];
            if (col.kind == EncodedColumn::Kind::Numeric) {
                double value = 0;
                if (parseNumber(field.text, value) != NumberKind::Finite) {
                    if (!isMissingCell(field.text))
                        inconsistent(source, field.line, c + 1);
                    value = col.fill;
                }
                sink.put(row, col.firstFeature, value);
                continue;
            }
            int level = col.fillLevel;
            if (!isMissingCell(field.text)) {
                const Level* found = col.levels->find(trimBlanks(field.text));
                level = found ? found->index : -1;
                if (level < 0 && found && col.unseenAsZero)
                    continue; // outside the public schema: no indicator set
            }
            if (level < 0)
                inconsistent(source, field.line, c + 1);
            sink.put(row, col.firstFeature + level, 1.0);
        }
        ++row;
    }
    if (row != stretch.endRow || (record != stretch.endRecord && stretch.endRecord != kAllRecords))
        inconsistent(source, 0, 0);
}

/// The text after the header as one stretch (one thread).
Stretch wholeText(std::string_view text, const std::string& source, const EncodePlan& plan) {
    CsvTokenizer tokenizer(text, plan.delimiter, source);
    std::vector<CsvField> fields;
    tokenizer.next(fields); // the header
    return {{0, tokenizer.position(), tokenizer.line()}, kAllRecords, 0, plan.rows, true};
}

/// The dense matrix in stretches of whole groups of marks, one per thread of the arena: the
/// calling thread takes the first (and reports progress), the others are spawned.
template <class Sink>
void encodeDenseInStretches(Sink& sink, std::string_view text, const std::string& source, const EncodePlan& plan,
                            RunContext* ctx, double progressBase, double progressSpan) {
    const std::vector<RecordMark>& marks = *plan.marks;
    const std::vector<std::uint8_t>& keep = *plan.keep;
    const auto threads = static_cast<std::size_t>(std::max(1, tbb::this_task_arena::max_concurrency()));
    const std::size_t parts = std::min(threads, marks.size());
    std::vector<Stretch> stretches(parts);
    std::size_t kept = 0, record = 0;
    for (std::size_t s = 0; s < parts; ++s) {
        const RecordMark& first = marks[s * marks.size() / parts];
        const std::size_t end = s + 1 < parts ? marks[(s + 1) * marks.size() / parts].record : keep.size();
        for (; record < first.record; ++record)
            kept += keep[record];
        stretches[s].first = first;
        stretches[s].firstRow = static_cast<Index>(kept);
        stretches[s].endRecord = end;
        stretches[s].progress = s == 0;
    }
    for (std::size_t s = 0; s < parts; ++s)
        stretches[s].endRow = s + 1 < parts ? stretches[s + 1].firstRow : plan.rows;
    tbb::task_group group;
    for (std::size_t s = 1; s < parts; ++s)
        group.run([&, s] { encodeStretch(sink, text, source, plan, stretches[s], ctx, progressBase, progressSpan); });
    try {
        encodeStretch(sink, text, source, plan, stretches[0], ctx, progressBase, progressSpan);
    } catch (...) {
        group.cancel();
        group.wait();
        throw;
    }
    group.wait();
}

} // namespace

FeatureMatrix encodeCsv(std::string_view text, const std::string& source, const EncodePlan& plan, RunContext* ctx,
                        double progressBase, double progressSpan) {
    if (plan.sparse) { // CSR is filled row after row: one thread
        SparseSink sink(plan);
        encodeStretch(sink, text, source, plan, wholeText(text, source, plan), ctx, progressBase, progressSpan);
        return sink.finish();
    }
    DenseSink sink(plan);
    if (plan.marks && plan.marks->size() > 1 && plan.marks->front().record == 0)
        encodeDenseInStretches(sink, text, source, plan, ctx, progressBase, progressSpan);
    else
        encodeStretch(sink, text, source, plan, wholeText(text, source, plan), ctx, progressBase, progressSpan);
    return sink.finish();
}

} // namespace elab::core::detail
