#pragma once
// The processing log of a dataset (Dataset::log): one row per step with what it did, the
// text wrapped so that every number stays readable; steps that use the private data itself
// (MATH.md §1) carry a warning icon and "leaks privacy" in red. GUI thread only.

#include "core/data/dataset.h"

#include <QTextBrowser>

#include <vector>

namespace elab::ui {

class ProcessingLogView : public QTextBrowser {
    Q_OBJECT
public:
    explicit ProcessingLogView(QWidget* parent = nullptr);

    void setLog(const std::vector<core::ProcessingStep>& log);
    int stepCount() const { return m_steps; }
    int leakingStepCount() const { return m_leaking; }

private:
    int m_steps = 0;
    int m_leaking = 0;
};

} // namespace elab::ui
