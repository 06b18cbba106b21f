#pragma once
// The DP-SGD settings of the mechanism form (issue 12; docs/MATH.md §3.6): model (H hidden units,
// 0: linear), epochs, expected batch size S, clip C and clip mode, learning rate η₀ and its
// decay γ, dropout and its rate, weight decay, accountant. Shown only for the dpsgd mechanism.
// objectNames: "sgdGroup", "hiddenSpin", "epochsSpin", "batchSizeSpin", "clipSpin",
// "clipModeCombo", "learningRateSpin", "lrDecaySpin", "dropoutCombo", "dropoutRateSpin",
// "weightDecaySpin", "accountantCombo", "publicRowsCheck" ("N is public") and "publicRowsSpin"
// (the public N; checked, the guarantee is add/remove with that N, else replace-one at the
// training rows). GUI thread only.

#include "core/learner/sgd_spec.h"

#include <QGroupBox>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QSpinBox;
QT_END_NAMESPACE

namespace elab::ui {

class SgdForm : public QGroupBox {
    Q_OBJECT
public:
    explicit SgdForm(QWidget* parent = nullptr);

    /// Shows spec; emits nothing.
    void setSpec(const core::SgdSpec& spec);
    /// The spec as edited (threads kept from the last setSpec).
    core::SgdSpec spec() const;
    /// The training rows of the loaded data: suggested as N when the user declares N public
    /// (the user confirms it by checking "N is public"); emits nothing.
    void setDatasetRows(long long rows);

signals:
    void edited();

private:
    void refreshRows();

    core::SgdSpec m_base;
    long long m_datasetRows = 0;
    bool m_applying = false;
    QFormLayout* m_form = nullptr;
    QSpinBox* m_hidden = nullptr;
    QSpinBox* m_epochs = nullptr;
    QSpinBox* m_batch = nullptr;
    QDoubleSpinBox* m_clip = nullptr;
    QComboBox* m_clipMode = nullptr;
    QDoubleSpinBox* m_learningRate = nullptr;
    QDoubleSpinBox* m_decay = nullptr;
    QComboBox* m_dropout = nullptr;
    QDoubleSpinBox* m_dropoutRate = nullptr;
    QDoubleSpinBox* m_weightDecay = nullptr;
    QComboBox* m_accountant = nullptr;
    QCheckBox* m_publicRows = nullptr;
    QSpinBox* m_rows = nullptr;
};

} // namespace elab::ui
