#pragma once
// Under the Data tab's column table: the public-bounds controls (issue 13). The hint says why
// bounds would help when unbounded numeric columns dominate the row norms; buttons load a
// bounds file, take a built-in dataset's documented ranges, or clear them; a check box
// estimates the remaining columns' ranges privately with a stated ε (added to every view's
// guarantee). Every change asks for the dataset to be loaded again with the new bounds
// (changed()). GUI thread only.

#include "core/data/feature_bounds.h"
#include "core/data/private_bounds.h"

#include <QWidget>

#include <optional>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
QT_END_NAMESPACE

namespace elab::ui {

class BoundsPanel : public QWidget {
    Q_OBJECT
public:
    explicit BoundsPanel(QWidget* parent = nullptr);

    /// What the shown dataset was loaded with, its spec (for documented ranges) and the hint.
    void setState(const core::PublicBounds& bounds, const std::optional<core::PrivateBoundsOptions>& estimate,
                  const QString& spec, const QString& hint, double preparationEpsilon);
    void clear();

    QLabel* hintLabel() const { return m_hint; }
    QLabel* summaryLabel() const { return m_summary; }
    QCheckBox* estimateCheck() const { return m_estimate; }

signals:
    /// Load the dataset again with these bounds.
    void changed(const elab::core::PublicBounds& bounds,
                 const std::optional<elab::core::PrivateBoundsOptions>& estimate);
    /// A file could not be read (the message names file, line and what).
    void failed(const QString& message);

private:
    void loadFile();
    std::optional<core::PrivateBoundsOptions> estimate() const;

    QLabel* m_hint = nullptr;
    QLabel* m_summary = nullptr;
    QPushButton* m_file = nullptr;
    QPushButton* m_documented = nullptr;
    QPushButton* m_clear = nullptr;
    QCheckBox* m_estimate = nullptr;
    QDoubleSpinBox* m_estimateEps = nullptr;
    core::PublicBounds m_bounds;
    QString m_spec;
    bool m_updating = false;
};

} // namespace elab::ui
