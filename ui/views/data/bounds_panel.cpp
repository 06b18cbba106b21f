#include "ui/views/data/bounds_panel.h"
#include "ui/widgets/note_label.h"

#include "core/data/bounds_file.h"
#include "core/data/builtin_catalog.h"
#include "core/data/load_error.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace elab::ui {

namespace {

QString builtinName(const QString& spec) {
    return spec.startsWith(QLatin1String("builtin:")) ? spec.mid(8).section(QLatin1Char('?'), 0, 0) : QString();
}

} // namespace

BoundsPanel::BoundsPanel(QWidget* parent) : QWidget(parent) {
    m_hint = new NoteLabel(this);
    m_hint->setObjectName(QStringLiteral("boundsHint"));
    m_hint->setStyleSheet(QStringLiteral("QLabel { color: #8a4b00; }"));
    m_summary = new NoteLabel(this);
    m_summary->setObjectName(QStringLiteral("boundsSummary"));

    m_file = new QPushButton(tr("Bounds file…"), this);
    m_file->setToolTip(tr("A CSV (column,lo,hi) or JSON file of public ranges"));
    m_documented = new QPushButton(tr("Documented ranges"), this);
    m_documented->setObjectName(QStringLiteral("documentedBoundsButton"));
    m_documented->setToolTip(tr("The ranges this built-in dataset's documentation gives"));
    m_clear = new QPushButton(tr("Clear"), this);
    m_estimate = new QCheckBox(tr("Estimate the others privately, ε ="), this);
    m_estimate->setObjectName(QStringLiteral("privateBoundsCheck"));
    m_estimate->setToolTip(tr("Numeric columns without a public range get one from the data: the tightest round "
                              "values holding all but 1 % of the rows at each end, by the sparse vector technique. "
                              "This spends ε, which every view adds to its guarantee."));
    m_estimateEps = new QDoubleSpinBox(this);
    m_estimateEps->setRange(0.01, 10.0);
    m_estimateEps->setDecimals(2);
    m_estimateEps->setSingleStep(0.05);
    m_estimateEps->setValue(core::PrivateBoundsOptions{}.epsilon);
    m_estimateEps->setKeyboardTracking(false);

    auto* buttons = new QHBoxLayout;
    buttons->setContentsMargins(0, 0, 0, 0);
    buttons->addWidget(m_file);
    buttons->addWidget(m_documented);
    buttons->addWidget(m_clear);
    buttons->addStretch(1);
    auto* estimateRow = new QHBoxLayout; // a row of its own: one row of both was 610 px, too wide for a laptop
    estimateRow->setContentsMargins(0, 0, 0, 0);
    estimateRow->addWidget(m_estimate);
    estimateRow->addWidget(m_estimateEps);
    estimateRow->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 2, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_summary);
    layout->addWidget(m_hint);
    layout->addLayout(buttons);
    layout->addLayout(estimateRow);

    connect(m_file, &QPushButton::clicked, this, &BoundsPanel::loadFile);
    connect(m_documented, &QPushButton::clicked, this, [this] {
        core::PublicBounds b = core::documentedBounds(builtinName(m_spec).toStdString());
        b.target = m_bounds.target;
        emit changed(b, estimate());
    });
    connect(m_clear, &QPushButton::clicked, this, [this] { emit changed(core::PublicBounds{}, std::nullopt); });
    connect(m_estimate, &QCheckBox::toggled, this, [this] {
        if (!m_updating)
            emit changed(m_bounds, estimate());
    });
    connect(m_estimateEps, &QDoubleSpinBox::valueChanged, this, [this] {
        if (!m_updating && m_estimate->isChecked())
            emit changed(m_bounds, estimate());
    });
    clear();
}

std::optional<core::PrivateBoundsOptions> BoundsPanel::estimate() const {
    if (!m_estimate->isChecked())
        return std::nullopt;
    core::PrivateBoundsOptions o;
    o.epsilon = m_estimateEps->value();
    return o;
}

void BoundsPanel::loadFile() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Public bounds"), QString(),
                                                      tr("Bounds (*.csv *.json *.txt);;All files (*)"));
    if (path.isEmpty())
        return;
    try {
        emit changed(core::loadBoundsFile(path.toStdString()), estimate());
    } catch (const std::exception& e) {
        emit failed(QString::fromUtf8(e.what()));
    }
}

void BoundsPanel::setState(const core::PublicBounds& bounds, const std::optional<core::PrivateBoundsOptions>& estimate,
                           const QString& spec, const QString& hint, double preparationEpsilon) {
    m_updating = true;
    m_bounds = bounds;
    m_spec = spec;
    m_estimate->setChecked(estimate.has_value());
    if (estimate)
        m_estimateEps->setValue(estimate->epsilon);
    m_updating = false;
    m_hint->setText(hint);
    m_hint->setVisible(!hint.isEmpty());
    QString summary;
    if (bounds.empty())
        summary = tr("Public bounds: none. Type ranges in the Public lo / hi columns, or:");
    else {
        const QString columns =
            bounds.columns.size() == 1 ? tr("1 numeric column") : tr("%1 numeric columns").arg(bounds.columns.size());
        const QString range =
            bounds.target == core::BoundsTarget::Unit ? QStringLiteral("[0, 1]") : QStringLiteral("[−1, 1]");
        summary = tr("Public bounds: %1 mapped to %2 (%3); privacy-safe.")
                      .arg(columns, range, QString::fromStdString(bounds.source));
    }
    if (preparationEpsilon > 0.0)
        summary += QLatin1Char(' ') + tr("The other numeric columns' ranges were estimated privately with ε = %1, "
                                         "which every view adds to its guarantee.")
                                          .arg(preparationEpsilon);
    m_summary->setText(summary);
    m_documented->setEnabled(!core::documentedBounds(builtinName(spec).toStdString()).empty());
    m_clear->setEnabled(!bounds.empty() || estimate.has_value());
    m_file->setEnabled(!spec.isEmpty());
    m_estimate->setEnabled(!spec.isEmpty());
    m_estimateEps->setEnabled(!spec.isEmpty());
}

void BoundsPanel::clear() { setState({}, std::nullopt, QString(), QString(), 0.0); }

} // namespace elab::ui
