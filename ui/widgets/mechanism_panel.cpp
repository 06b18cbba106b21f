#include "ui/widgets/mechanism_panel.h"

#include "core/mechanisms/mechanism_catalog.h"

#include "ui/widgets/eps_text.h"
#include "ui/widgets/parameter_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRandomGenerator>
#include <QSpinBox>

#include <algorithm>

namespace elab::ui {

UtilitySettings mechanismFormSettings(const TrainingChoice& training, double currentEps) {
    UtilitySettings u;
    static_cast<TrainingChoice&>(u) = training;
    u.currentEps = currentEps;
    // These views measure no utility curve (the form hides the measurement box): a metric that
    // needs no held-out rows, so that their own test fraction (the audit's 0) is never a problem.
    u.metric = core::UtilityMetric::TrainLoss;
    return u;
}

namespace {

using core::LossKind;
using core::MechanismKind;
using core::NormPolicy;
using core::UtilityMetric;

const QString kRed = QStringLiteral("#b01e1e");
const QString kGreen = QStringLiteral("#2e7d32");

void markInvalid(QLineEdit* edit, bool invalid) {
    if (!invalid) {
        edit->setPalette(QPalette()); // inherit again
        return;
    }
    QPalette palette = edit->palette();
    palette.setColor(QPalette::Text, QColor(kRed));
    edit->setPalette(palette);
}

} // namespace

MechanismPanel::MechanismPanel(QWidget* parent, MechanismFormParts parts) : QWidget(parent), m_form(this, parts) {
    connect(m_form.newSeed, &QPushButton::clicked, this, &MechanismPanel::drawNewSeed);
    connect(m_form.secretSeed, &QCheckBox::toggled, this, &MechanismPanel::setSecretSeed);
    for (QLineEdit* edit : m_form.textEdits())
        connect(edit, &QLineEdit::editingFinished, this, [this, edit] { commitText(edit); });
    connectEdits();
    showSettings();
}

// A focused text field, destroyed after this class's destructor, emits editingFinished on
// the way out: that must not reach a half-destroyed panel.
MechanismPanel::~MechanismPanel() {
    for (QLineEdit* edit : m_form.textEdits())
        edit->disconnect(this);
}

void MechanismPanel::connectEdits() {
    auto apply = [this](auto change) {
        if (m_applying)
            return;
        change(m_settings);
        edited();
    };
    connect(m_form.mechanism, &QComboBox::currentIndexChanged, this, [this, apply](int) {
        if (m_applying)
            return;
        // A mechanism defined with one loss (the Gaussian classifier: Huber) gets it, shown in the combo.
        core::selectMechanism(m_settings.mechanism, MechanismKind(m_form.mechanism->currentData().toInt()));
        showSettings();
        emit settingsChanged();
    });
    auto setLoss = [this, apply] {
        apply([&](UtilitySettings& s) {
            s.mechanism.model.loss = core::Loss(LossKind(m_form.loss->currentData().toInt()),
                                                m_form.huberWidth->value(), m_form.temperature->value());
        });
    };
    connect(m_form.loss, &QComboBox::currentIndexChanged, this, setLoss);
    for (ParameterForm* form : m_form.parameters)
        connect(form, &ParameterForm::edited, this,
                [form, apply] { apply([&](UtilitySettings& s) { s.mechanism = form->applyTo(s.mechanism); }); });
    connect(m_form.huberWidth, &QDoubleSpinBox::valueChanged, this, setLoss);
    connect(m_form.temperature, &QDoubleSpinBox::valueChanged, this, setLoss);
    connect(m_form.norm, &QComboBox::currentIndexChanged, this, [this, apply](int) {
        apply([&](UtilitySettings& s) { s.preprocess.norm = NormPolicy(m_form.norm->currentData().toInt()); });
    });
    connect(m_form.standardise, &QCheckBox::toggled, this,
            [apply](bool on) { apply([&](UtilitySettings& s) { s.preprocess.standardise = on; }); });
    connect(m_form.intercept, &QCheckBox::toggled, this,
            [apply](bool on) { apply([&](UtilitySettings& s) { s.preprocess.intercept = on; }); });
    connect(m_form.positiveClass, &QComboBox::currentIndexChanged, this, [this, apply](int index) {
        if (index >= 0)
            apply([&](UtilitySettings& s) {
                const QString name = m_form.positiveClass->currentData().toString();
                if (name.isEmpty())
                    s.preprocess.positiveClass.reset(); // all classes, one-vs-rest
                else
                    s.preprocess.positiveClass = name.toStdString();
            });
    });
    connect(m_form.testFraction, &QDoubleSpinBox::valueChanged, this,
            [apply](double f) { apply([&](UtilitySettings& s) { s.testFraction = f; }); });
    connect(m_form.metric, &QComboBox::currentIndexChanged, this, [this, apply](int) {
        apply([&](UtilitySettings& s) {
            s.metric = UtilityMetric(m_form.metric->currentData().toInt());
            if (core::usesTestSet(s.metric) && s.testFraction <= 0.0) {
                s.testFraction = 0.3; // a test metric needs held-out rows
                const QSignalBlocker blocker(m_form.testFraction);
                m_form.testFraction->setValue(s.testFraction);
            }
        });
    });
    connect(m_form.repeats, &QSpinBox::valueChanged, this,
            [apply](int n) { apply([&](UtilitySettings& s) { s.repeats = n; }); });
    connect(m_form.gridPoints, &QSpinBox::valueChanged, this,
            [apply](int n) { apply([&](UtilitySettings& s) { s.gridPoints = n; }); });
    for (QCheckBox* check : m_form.estimators)
        connect(check, &QCheckBox::toggled, this, [this, apply](bool) {
            apply([&](UtilitySettings& s) {
                s.estimators.clear();
                for (auto it = m_form.estimators.cbegin(); it != m_form.estimators.cend(); ++it)
                    if (it.value()->isChecked())
                        s.estimators.push_back(it.key());
            });
        });
}

void MechanismPanel::commitText(QLineEdit* edit) {
    if (m_applying)
        return;
    const QString text = edit->text().trimmed();
    UtilitySettings next = m_settings;
    QString problem;
    auto number = [&](double& field, const QString& name, bool positive) {
        const std::optional<double> value = positive ? parseEps(text, false) : parseNumber(text);
        if (value)
            field = *value;
        else
            problem = positive ? tr("%1: “%2” is not a number > 0").arg(name, text)
                               : tr("%1: “%2” is not a number").arg(name, text);
    };
    if (edit == m_form.lambda) {
        number(next.mechanism.model.lambda, tr("Λ"), false);
    } else if (edit == m_form.delta) {
        number(next.mechanism.privacy.delta, tr("δ"), false);
    } else if (edit == m_form.epsMin) {
        number(next.epsMin, tr("ε min"), true);
    } else if (edit == m_form.epsMax) {
        number(next.epsMax, tr("ε max"), true);
    } else if (edit == m_form.seed) {
        bool ok = false;
        next.seed = text.toULongLong(&ok);
        if (!ok)
            problem = tr("Seed: “%1” is not a whole number ≥ 0").arg(text);
    } else if (edit == m_form.measureAt) {
        if (const auto values = parseEpsList(text))
            next.measureAt = *values;
        else
            problem = tr("Measuring points: “%1” is not a list of ε > 0 such as 0.1, 1, 5").arg(text);
    }
    markInvalid(edit, !problem.isEmpty());
    if (!problem.isEmpty()) {
        m_parseProblems.insert(edit, problem);
        refresh();
        return;
    }
    const bool hadProblem = m_parseProblems.remove(edit) > 0;
    const bool changed = next.mechanism.model.lambda != m_settings.mechanism.model.lambda ||
                         next.mechanism.privacy.delta != m_settings.mechanism.privacy.delta ||
                         next.epsMin != m_settings.epsMin || next.epsMax != m_settings.epsMax ||
                         next.seed != m_settings.seed || next.measureAt != m_settings.measureAt;
    m_settings = next;
    showSettings(); // normalises the text ("1e-05" → "1e-5")
    if (changed)
        emit settingsChanged();
    else if (hadProblem)
        refresh();
}

void MechanismPanel::edited() {
    refresh();
    emit settingsChanged();
}

void MechanismPanel::drawNewSeed() {
    std::uint64_t seed = m_settings.seed;
    while (seed == m_settings.seed) // short seeds: easy to read out, exact in a JSON number
        seed = QRandomGenerator::system()->bounded(1u, 1000000000u);
    m_settings.seed = seed;
    m_parseProblems.remove(m_form.seed);
    markInvalid(m_form.seed, false);
    showSettings();
    emit settingsChanged();
}

void MechanismPanel::setSecretSeed(bool secret) {
    if (m_applying || secret == m_settings.secretSeed)
        return;
    m_settings.secretSeed = secret;
    if (secret)
        m_settings.seed = QRandomGenerator::system()->generate64(); // the OS's entropy; shown and written nowhere
    else
        m_settings.seed = QRandomGenerator::system()->bounded(1u, 1000000000u); // a fresh public seed
    m_parseProblems.remove(m_form.seed);
    markInvalid(m_form.seed, false);
    showSettings();
    emit settingsChanged();
}

void MechanismPanel::setSettings(const UtilitySettings& settings) {
    m_settings = settings;
    for (auto it = m_parseProblems.cbegin(); it != m_parseProblems.cend(); ++it)
        markInvalid(it.key(), false);
    m_parseProblems.clear();
    showSettings();
}

void MechanismPanel::setDataShape(long long trainRows, long long features, bool multiclass,
                                  const QStringList& classNames, bool regression, const core::PipelineFacts& pipeline) {
    m_shape = DataShape{trainRows, features, multiclass, regression, classNames, pipeline};
    for (ParameterForm* form : m_form.parameters)
        form->setDatasetRows(trainRows); // suggested for an optional count (DP-SGD's public N)
    std::optional<std::string>& positive = m_settings.preprocess.positiveClass;
    if (!multiclass || (positive && !classNames.contains(QString::fromStdString(*positive))))
        positive.reset(); // default for multiclass data: all classes, one-vs-rest
    const core::Loss& loss = m_settings.mechanism.model.loss;
    if (!regression && loss.kind() == LossKind::Squared)
        m_settings.mechanism.model.loss = core::Loss(LossKind::Logistic, loss.huberWidth(), loss.temperature());
    showSettings();
}

void MechanismPanel::setCurrentEps(double eps) {
    if (!(eps > 0.0))
        return;
    m_settings.currentEps = eps;
    refreshGuarantee(true);
}

QString MechanismPanel::problemText() const { return m_form.problems->text(); }

void MechanismPanel::showSettings() {
    m_applying = true;
    const UtilitySettings& s = m_settings;
    m_form.mechanism->setCurrentIndex(m_form.mechanism->findData(int(s.mechanism.kind)));
    fillLossCombo();
    m_form.huberWidth->setValue(s.mechanism.model.loss.huberWidth());
    m_form.temperature->setValue(s.mechanism.model.loss.temperature());
    m_form.lambda->setText(formatNumber(s.mechanism.model.lambda, 6));
    m_form.delta->setText(formatNumber(s.mechanism.privacy.delta, 6));
    for (ParameterForm* form : m_form.parameters)
        form->setSpec(s.mechanism);
    m_form.norm->setCurrentIndex(m_form.norm->findData(int(s.preprocess.norm)));
    m_form.standardise->setChecked(s.preprocess.standardise);
    m_form.intercept->setChecked(s.preprocess.intercept);
    fillClassCombo();
    m_form.testFraction->setValue(s.testFraction);
    m_form.metric->setCurrentIndex(m_form.metric->findData(int(s.metric)));
    m_form.repeats->setValue(s.repeats);
    for (auto it = m_form.estimators.cbegin(); it != m_form.estimators.cend(); ++it)
        it.value()->setChecked(std::find(s.estimators.begin(), s.estimators.end(), it.key()) != s.estimators.end());
    m_form.gridPoints->setValue(s.gridPoints);
    // Text fields that hold an unparsed entry keep it, with its problem shown.
    auto setText = [this](QLineEdit* edit, const QString& text) {
        if (!m_parseProblems.contains(edit))
            edit->setText(text);
    };
    m_form.secretSeed->setChecked(s.secretSeed);
    m_form.seed->setEnabled(!s.secretSeed);
    m_form.newSeed->setEnabled(!s.secretSeed);
    if (s.secretSeed)
        m_form.seed->setText(tr("secret"));
    else
        setText(m_form.seed, QString::number(s.seed));
    setText(m_form.measureAt, formatEpsList(s.measureAt));
    setText(m_form.epsMin, formatNumber(s.epsMin, 6));
    setText(m_form.epsMax, formatNumber(s.epsMax, 6));
    m_applying = false;
    refresh();
}

void MechanismPanel::fillLossCombo() {
    const LossKind current = m_settings.mechanism.model.loss.kind();
    m_form.loss->clear();
    const auto required = core::mechanismInfo(m_settings.mechanism.kind).requiredLoss;
    for (LossKind kind : {LossKind::Logistic, LossKind::HuberSvm, LossKind::SmoothHinge, LossKind::Squared})
        if ((kind != LossKind::Squared || m_shape.regression || current == LossKind::Squared) &&
            (!required || kind == *required || kind == current))
            m_form.loss->addItem(lossName(kind), int(kind));
    m_form.loss->setCurrentIndex(m_form.loss->findData(int(current)));
}

void MechanismPanel::fillClassCombo() {
    m_form.positiveClass->clear();
    m_form.positiveClass->addItem(core::mechanismInfo(m_settings.mechanism.kind).nativeMulticlass
                                      ? tr("All %1 (one multiclass model)").arg(m_shape.classNames.size())
                                      : tr("All %1 (one-vs-rest, ε split)").arg(m_shape.classNames.size()),
                                  QString());
    for (const QString& name : m_shape.classNames)
        m_form.positiveClass->addItem(tr("%1 vs rest").arg(name), name);
    const auto& positive = m_settings.preprocess.positiveClass;
    m_form.positiveClass->setCurrentIndex(positive ? m_form.positiveClass->findData(QString::fromStdString(*positive))
                                                   : 0);
}

void MechanismPanel::refresh() {
    const core::MechanismSpec& spec = m_settings.mechanism;
    m_form.mechanismForm->setRowVisible(m_form.huberWidth, spec.model.loss.kind() == LossKind::HuberSvm);
    m_form.mechanismForm->setRowVisible(m_form.temperature, spec.model.loss.kind() == LossKind::SmoothHinge);
    m_form.mechanismForm->setRowVisible(m_form.delta, spec.usesDelta());
    // Trained in epochs (DP-SGD): cross-entropy, no Λ: its own settings instead.
    const bool inEpochs = core::mechanismInfo(spec.kind).trainsInEpochs;
    m_form.mechanismForm->setRowVisible(m_form.loss, !inEpochs);
    m_form.mechanismForm->setRowVisible(m_form.lambda, !inEpochs);
    for (ParameterForm* form : m_form.parameters)
        form->setVisible(core::mechanismInfo(spec.kind).parameters == &form->schema());
    m_form.preparationForm->setRowVisible(m_form.positiveClass, m_shape.multiclass);

    QStringList notes;
    switch (m_settings.preprocess.norm) {
    case NormPolicy::ClipRows:
        notes << QStringLiteral("<span style='color:%1'>%2</span>").arg(kGreen, tr("private: data-independent"));
        break;
    case NormPolicy::ScaleByMaxNorm:
        notes << QStringLiteral("<span style='color:%1'>⚠ %2</span>")
                     .arg(kRed, tr("leaks privacy: uses the data's largest row norm"));
        break;
    case NormPolicy::None:
        notes << QStringLiteral("<span style='color:%1'>⚠ %2</span>")
                     .arg(kRed, tr("no privacy guarantee: rows may have ‖x‖ > 1"));
        break;
    }
    if (m_settings.preprocess.standardise)
        notes << QStringLiteral("<span style='color:%1'>⚠ %2</span>")
                     .arg(kRed, tr("standardising leaks privacy: uses the data's mean and sd"));
    m_form.normNote->setText(notes.join(QStringLiteral("<br>")));

    const QString reason = estimatesUnavailableReason(m_settings);
    m_form.taylorInputs->setEnabled(reason.isEmpty());
    m_form.taylorNote->setText(reason);
    m_form.taylorNote->setVisible(!reason.isEmpty());

    const QStringList problems = QStringList(m_parseProblems.values()) + settingsProblems(m_settings, m_shape);
    m_form.problems->setText(problems.join(QLatin1Char('\n')));
    m_form.problems->setVisible(!problems.isEmpty());
    refreshGuarantee();
}

void MechanismPanel::refreshGuarantee(bool throttled) {
    constexpr int kGuaranteeMs = 100;
    m_guarantee = describeGuarantee(m_settings, m_shape, m_settings.currentEps);
    if (!m_guaranteeShown)
        m_guaranteeShown = new ThrottledText(m_form.guarantee, kGuaranteeMs, this);
    m_guaranteeShown->set(m_guarantee.html, throttled);
}

} // namespace elab::ui
