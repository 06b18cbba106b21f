#include "ui/shell/job_indicator.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace elab::ui {

JobIndicator::JobIndicator(QWidget* parent) : QWidget(parent) {
    m_label = new QLabel(this);
    m_bar = new QProgressBar(this);
    m_bar->setRange(0, 1000);
    m_bar->setTextVisible(false);
    m_bar->setFixedWidth(160);
    m_bar->setMaximumHeight(fontMetrics().height() + 4);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setToolTip(tr("Stop loading; the current dataset stays"));
    connect(m_cancel, &QPushButton::clicked, this, &JobIndicator::cancelRequested);
    m_clear = new QTimer(this);
    m_clear->setSingleShot(true);
    m_clear->setInterval(6000);
    connect(m_clear, &QTimer::timeout, m_label, &QLabel::clear);

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(6);
    layout->addWidget(m_label);
    layout->addWidget(m_bar);
    layout->addWidget(m_cancel);
    finish();
}

void JobIndicator::start(const QString& what) {
    m_clear->stop();
    m_what = what;
    m_running = true;
    m_label->setText(tr("%1…").arg(what));
    m_bar->setValue(0);
    m_bar->setRange(0, 0); // busy until the first progress report
    m_bar->show();
    m_cancel->show();
}

void JobIndicator::setProgress(double fraction, const QString& stage) {
    if (!m_running)
        return;
    m_bar->setRange(0, 1000);
    m_bar->setValue(static_cast<int>(std::lround(std::clamp(fraction, 0.0, 1.0) * 1000.0)));
    const QString percent = QString::number(std::lround(fraction * 100.0)) + QLatin1Char('%');
    m_label->setText(stage.isEmpty() ? tr("%1… %2").arg(m_what, percent) : tr("%1: %2 %3").arg(m_what, stage, percent));
}

void JobIndicator::finish(const QString& message) {
    m_running = false;
    m_bar->hide();
    m_cancel->hide();
    m_label->setText(message);
    if (!message.isEmpty())
        m_clear->start();
}

QString JobIndicator::text() const { return m_label->text(); }

} // namespace elab::ui
