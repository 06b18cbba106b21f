#include "core/data/csv_encode.h"

#include "core/data/csv_tokenizer.h"
#include "core/data/load_error.h"

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

[[noreturn]] void inconsistent(const std::string& source, std::size_t line, std::size_t column) {
    throw LoadError(source, line, column, "internal error: the second pass disagrees with the first");
}

template <class Sink>
FeatureMatrix encodeWith(Sink& sink, std::string_view text, const std::string& source, const EncodePlan& plan,
                         RunContext* ctx, double progressBase, double progressSpan) {
    CsvTokenizer tokenizer(text, plan.delimiter, source);
    std::vector<CsvField> fields;
    tokenizer.next(fields); // the header
    const std::vector<std::uint8_t>& keep = *plan.keep;
    const std::size_t n = plan.columns.size();
    std::size_t record = 0;
    Index row = 0;
    while (tokenizer.next(fields)) {
        if ((record & 4095) == 0 && ctx) {
            ctx->throwIfStopped();
            ctx->progress(progressBase + progressSpan * static_cast<double>(tokenizer.position()) /
                                             static_cast<double>(tokenizer.size()),
                          "parsing");
        }
        if (record >= keep.size() || fields.size() != n || row > plan.rows)
            inconsistent(source, tokenizer.recordLine(), 0);
        if (!keep[record++])
            continue;
        if (row == plan.rows)
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
    if (row != plan.rows)
        inconsistent(source, 0, 0);
    return sink.finish();
}

} // namespace

FeatureMatrix encodeCsv(std::string_view text, const std::string& source, const EncodePlan& plan, RunContext* ctx,
                        double progressBase, double progressSpan) {
    if (plan.sparse) {
        SparseSink sink(plan);
        return encodeWith(sink, text, source, plan, ctx, progressBase, progressSpan);
    }
    DenseSink sink(plan);
    return encodeWith(sink, text, source, plan, ctx, progressBase, progressSpan);
}

} // namespace elab::core::detail
