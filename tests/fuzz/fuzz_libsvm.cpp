// libFuzzer target for the LIBSVM loader. Only LoadError may escape loadLibsvm; any other
// exception, a crash, a sanitizer report or a Dataset breaking the CSR/target invariants
// is a bug.
//
// An input starting with a control byte (0x01–0x1F except tab, LF, CR) uses that byte to pick
// the options (forced task, given feature count 0–7), so those paths are fuzzed too; other
// inputs use the default options, so plain LIBSVM files work as seeds.

#include "core/data/libsvm_loader.h"
#include "core/data/load_error.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string_view>

namespace {

using namespace elab::core;

bool isSelector(std::uint8_t b) { return b >= 0x01 && b <= 0x1F && b != '\t' && b != '\n' && b != '\r'; }

LibsvmOptions optionsFrom(std::uint8_t b) {
    LibsvmOptions o;
    switch (b % 4) {
    case 1: o.task = TaskKind::Binary; break;
    case 2: o.task = TaskKind::Multiclass; break;
    case 3: o.task = TaskKind::Regression; break;
    default: break;
    }
    o.featureCount = (b >> 2) & 7;
    return o;
}

[[noreturn]] void bug(const char* what) {
    std::fprintf(stderr, "fuzz_libsvm: %s\n", what);
    std::abort();
}

void checkDataset(const Dataset& d, const LibsvmOptions& options) {
    if (const std::string problem = d.validate(); !problem.empty())
        bug(problem.c_str());
    if (!d.features.isSparse() || d.rows() == 0 || d.featureCount() == 0 ||
        static_cast<Index>(d.featureNames.size()) != d.featureCount())
        bug("shape or feature names inconsistent");
    if (options.featureCount > 0 && d.featureCount() != options.featureCount)
        bug("given feature count not used");
    if (options.task && d.targets.kind != *options.task)
        bug("forced task not honoured");
    if (d.targets.isClassification() && d.targets.classCount() < 2)
        bug("fewer than two classes accepted");
    const SparseMatrix& x = d.features.sparse();
    if (!x.isCompressed() || x.outerIndexPtr()[0] != 0 || x.outerIndexPtr()[x.rows()] != x.nonZeros())
        bug("CSR outer index broken");
    for (Index i = 0; i < x.rows(); ++i) {
        if (x.outerIndexPtr()[i] > x.outerIndexPtr()[i + 1])
            bug("CSR row pointers decrease");
        for (auto k = x.outerIndexPtr()[i]; k < x.outerIndexPtr()[i + 1]; ++k) {
            const auto col = x.innerIndexPtr()[k];
            if (col < 0 || col >= x.cols() || (k > x.outerIndexPtr()[i] && col <= x.innerIndexPtr()[k - 1]))
                bug("column index out of range or not ascending");
            if (!std::isfinite(x.valuePtr()[k]) || x.valuePtr()[k] == 0.0)
                bug("stored value not finite or zero");
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    LibsvmOptions options;
    if (!text.empty() && isSelector(data[0])) {
        options = optionsFrom(data[0]);
        text.remove_prefix(1);
    }
    double lastProgress = -1;
    RunContext ctx({}, [&](double fraction, std::string_view) {
        if (!(fraction >= 0.0 && fraction <= 1.0) || fraction < lastProgress)
            bug("progress outside [0, 1] or going back");
        lastProgress = fraction;
    });
    try {
        const Dataset d = loadLibsvm(text, "fuzz.libsvm", options, &ctx);
        checkDataset(d, options);
        if (lastProgress != 1.0)
            bug("final progress is not 1");
    } catch (const LoadError& e) {
        if (e.message().empty() || e.source() != "fuzz.libsvm")
            bug("LoadError without a message or source");
    } catch (const std::exception& e) {
        bug(e.what());
    }
    return 0;
}
