#include "ui/widgets/sgd_form.h"

#include "core/privacy/accountant.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QSpinBox>

#include <algorithm>
#include <cmath>

namespace elab::ui {

namespace {

template <typename Spin>
Spin* spin(QWidget* parent, const char* name, const QString& toolTip) {
    auto* s = new Spin(parent);
    s->setObjectName(QString::fromLatin1(name));
    s->setKeyboardTracking(false);
    s->setToolTip(toolTip);
    return s;
}

QComboBox* combo(QWidget* parent, const char* name, const QString& toolTip) {
    auto* c = new QComboBox(parent);
    c->setObjectName(QString::fromLatin1(name));
    c->setToolTip(toolTip);
    c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    c->setMinimumContentsLength(8);
    return c;
}

} // namespace

SgdForm::SgdForm(QWidget* parent) : QGroupBox(tr("DP-SGD"), parent) {
    setObjectName(QStringLiteral("sgdGroup"));
    m_hidden = spin<QSpinBox>(this, "hiddenSpin", tr("Hidden ReLU units H; 0: a softmax-linear model"));
    m_hidden->setRange(0, 4096);
    m_hidden->setSpecialValueText(tr("none (linear)"));
    m_epochs =
        spin<QSpinBox>(this, "epochsSpin", tr("Passes over the data, ⌈N/S⌉ steps each; more steps spend more ε"));
    m_epochs->setRange(1, 1000);
    m_batch = spin<QSpinBox>(this, "batchSizeSpin",
                             tr("Expected batch size S: each row joins each step's batch with probability q = S/N"));
    m_batch->setRange(1, 1000000);
    m_clip = spin<QDoubleSpinBox>(this, "clipSpin", tr("Clip norm C of each example's gradient: the sensitivity"));
    m_clip->setRange(0.01, 100.0);
    m_clip->setSingleStep(0.1);
    m_clipMode = combo(this, "clipModeCombo",
                       tr("Total: one norm over all parameters. Per layer (the paper's): "
                          "C for each layer, sensitivity C·√layers"));
    m_clipMode->addItem(tr("Total"), int(core::ClipMode::Total));
    m_clipMode->addItem(tr("Per layer"), int(core::ClipMode::PerLayer));
    m_learningRate = spin<QDoubleSpinBox>(this, "learningRateSpin", tr("Initial learning rate η₀"));
    m_learningRate->setRange(0.0001, 100.0);
    m_learningRate->setDecimals(4);
    m_learningRate->setSingleStep(0.05);
    m_decay = spin<QDoubleSpinBox>(this, "lrDecaySpin", tr("γ of η = η₀/t^γ, t the epoch; the paper uses 1"));
    m_decay->setRange(0.0, 2.0);
    m_decay->setSingleStep(0.1);
    m_dropout = combo(this, "dropoutCombo",
                      tr("Dropout on the hidden units (a regulariser; no effect on ε). "
                         "Gaussian is the paper's DPD."));
    m_dropout->addItem(tr("None"), int(core::DropoutKind::None));
    m_dropout->addItem(tr("Bernoulli"), int(core::DropoutKind::Bernoulli));
    m_dropout->addItem(tr("Gaussian"), int(core::DropoutKind::Gaussian));
    m_dropoutRate = spin<QDoubleSpinBox>(this, "dropoutRateSpin",
                                         tr("Bernoulli: drop probability p; Gaussian: multiplier variance p/(1−p)"));
    m_dropoutRate->setRange(0.01, 0.95);
    m_dropoutRate->setSingleStep(0.05);
    m_weightDecay = spin<QDoubleSpinBox>(this, "weightDecaySpin", tr("L2 weight decay λ (data-independent)"));
    m_weightDecay->setRange(0.0, 10.0);
    m_weightDecay->setDecimals(5);
    m_weightDecay->setSingleStep(0.0001);
    m_accountant = combo(this, "accountantCombo",
                         tr("How σ is calibrated for ε. PLD (the default) is rigorous and the tightest: the "
                            "least noise for ε; RDP is rigorous and close behind; advanced composition is the "
                            "paper's DPD-AC; the paper's zCDP procedure is shown as published and is not a proof."));
    for (const auto& [kind, name] : core::accountantKindNames()) {
        (void)name;
        m_accountant->addItem(QString::fromStdString(core::accountantTitle(kind)), int(kind));
    }
    auto* rows = new QWidget(this);
    m_publicRows = new QCheckBox(tr("N is public:"), rows);
    m_publicRows->setObjectName(QStringLiteral("publicRowsCheck"));
    m_publicRows->setToolTip(tr("Check only if the number of training rows N is public knowledge (e.g. fixed by the "
                                "study's design). N sets q = S/N and the number of steps. Checked: the guarantee is "
                                "add/remove one row, with this N for any neighbouring dataset. Unchecked: N is the "
                                "training rows, which are private, and the guarantee is replace-one at that fixed "
                                "count (more noise for the same ε)."));
    m_rows =
        spin<QSpinBox>(rows, "publicRowsSpin", tr("The public N (suggested: the training rows of the loaded data)"));
    m_rows->setRange(1, 2000000000);
    auto* rowsLayout = new QHBoxLayout(rows);
    rowsLayout->setContentsMargins(0, 0, 0, 0);
    rowsLayout->addWidget(m_publicRows);
    rowsLayout->addWidget(m_rows, 1);
    m_form = new QFormLayout(this);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_form->addRow(tr("Hidden units"), m_hidden);
    m_form->addRow(tr("Epochs"), m_epochs);
    m_form->addRow(tr("Batch size S"), m_batch);
    m_form->addRow(tr("Clip C"), m_clip);
    m_form->addRow(tr("Clipping"), m_clipMode);
    m_form->addRow(tr("Learning rate"), m_learningRate);
    m_form->addRow(tr("Decay γ"), m_decay);
    m_form->addRow(tr("Dropout"), m_dropout);
    m_form->addRow(tr("Dropout rate"), m_dropoutRate);
    m_form->addRow(tr("Weight decay"), m_weightDecay);
    m_form->addRow(tr("Accountant"), m_accountant);
    m_form->addRow(tr("Rows N"), rows);

    auto changed = [this] {
        if (m_applying)
            return;
        refreshRows();
        emit edited();
    };
    for (QSpinBox* s : {m_hidden, m_epochs, m_batch})
        connect(s, &QSpinBox::valueChanged, this, changed);
    for (QDoubleSpinBox* s : {m_clip, m_learningRate, m_decay, m_dropoutRate, m_weightDecay})
        connect(s, &QDoubleSpinBox::valueChanged, this, changed);
    for (QComboBox* c : {m_clipMode, m_dropout, m_accountant})
        connect(c, &QComboBox::currentIndexChanged, this, changed);
    connect(m_rows, &QSpinBox::valueChanged, this, [this, changed] {
        if (m_publicRows->isChecked()) // unchecked, the number is only a suggestion
            changed();
    });
    connect(m_publicRows, &QCheckBox::toggled, this, changed);
    setSpec(m_base);
}

void SgdForm::setSpec(const core::SgdSpec& s) {
    m_applying = true;
    m_base = s;
    m_hidden->setValue(s.hidden);
    m_epochs->setValue(s.epochs);
    m_batch->setValue(static_cast<int>(std::lround(s.batchSize)));
    m_clip->setValue(s.clip);
    m_clipMode->setCurrentIndex(m_clipMode->findData(int(s.clipMode)));
    m_learningRate->setValue(s.learningRate);
    m_decay->setValue(s.gamma);
    m_dropout->setCurrentIndex(m_dropout->findData(int(s.dropout)));
    m_dropoutRate->setValue(s.dropoutRate);
    m_weightDecay->setValue(s.weightDecay);
    m_accountant->setCurrentIndex(m_accountant->findData(int(s.accountant)));
    m_publicRows->setChecked(s.publicRows > 0);
    m_rows->setValue(
        static_cast<int>(std::clamp<long long>(s.publicRows > 0 ? s.publicRows : m_datasetRows, 1, 2000000000)));
    m_applying = false;
    refreshRows();
}

void SgdForm::setDatasetRows(long long rows) {
    m_datasetRows = rows;
    if (m_publicRows->isChecked())
        return; // a declared N stays as declared
    const bool applying = m_applying;
    m_applying = true;
    m_rows->setValue(static_cast<int>(std::clamp<long long>(rows, 1, 2000000000)));
    m_applying = applying;
}

core::SgdSpec SgdForm::spec() const {
    core::SgdSpec s = m_base;
    s.hidden = m_hidden->value();
    s.epochs = m_epochs->value();
    s.batchSize = m_batch->value();
    s.clip = m_clip->value();
    s.clipMode = core::ClipMode(m_clipMode->currentData().toInt());
    s.learningRate = m_learningRate->value();
    s.gamma = m_decay->value();
    s.dropout = core::DropoutKind(m_dropout->currentData().toInt());
    s.dropoutRate = m_dropoutRate->value();
    s.weightDecay = m_weightDecay->value();
    s.accountant = core::AccountantKind(m_accountant->currentData().toInt());
    s.publicRows = m_publicRows->isChecked() ? m_rows->value() : 0;
    if (s.hidden == 0)
        s.dropout = core::DropoutKind::None; // no hidden units to drop (the row is hidden)
    return s;
}

void SgdForm::refreshRows() {
    m_rows->setEnabled(m_publicRows->isChecked());
    const bool hidden = m_hidden->value() > 0;
    m_form->setRowVisible(m_clipMode, hidden); // one layer: total and per layer coincide
    m_form->setRowVisible(m_dropout, hidden);
    m_form->setRowVisible(m_dropoutRate, hidden && m_dropout->currentData().toInt() != int(core::DropoutKind::None));
}

} // namespace elab::ui
