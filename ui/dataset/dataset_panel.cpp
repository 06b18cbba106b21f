#include "ui/dataset/dataset_panel.h"
#include "ui/widgets/note_label.h"

#include "core/data/builtin_catalog.h"
#include "core/data/generators.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace elab::ui {

namespace {

QString builtinSpec(const QString& name) { return QStringLiteral("builtin:") + name; }

QString taskText(core::TaskKind task) { return QString::fromUtf8(core::toString(task)); }

/// "builtin:blobs?rows=500&seed=3" → its options, in order.
QList<QPair<QString, QString>> queryItems(const QString& spec) {
    QList<QPair<QString, QString>> items;
    const qsizetype q = spec.indexOf(QLatin1Char('?'));
    if (q < 0)
        return items;
    for (const QString& item : spec.mid(q + 1).split(QLatin1Char('&'), Qt::SkipEmptyParts))
        items.append({item.section(QLatin1Char('='), 0, 0), item.section(QLatin1Char('='), 1)});
    return items;
}

/// The spec with key set to value (empty value: removed), the other options kept.
QString withOption(const QString& spec, const QString& key, const QString& value) {
    QStringList kept;
    for (const auto& [k, v] : queryItems(spec))
        if (k != key)
            kept << k + QLatin1Char('=') + v;
    if (!value.isEmpty())
        kept.prepend(key + QLatin1Char('=') + value);
    const QString base = spec.section(QLatin1Char('?'), 0, 0);
    return kept.isEmpty() ? base : base + QLatin1Char('?') + kept.join(QLatin1Char('&'));
}

/// Sizes offered for generated sets: the teaching default up to a million rows (issue 15).
constexpr qlonglong kRowChoices[] = {1'000, 10'000, 100'000, 1'000'000};

} // namespace

DatasetPanel::DatasetPanel(QWidget* parent) : QWidget(parent), m_lastDirectory(QDir::homePath()) {
    m_builtin = new QComboBox(this);
    m_builtin->setToolTip(tr("Datasets embedded in the application, and seeded 2-D generators"));
    for (const core::BuiltinInfo& info : core::builtinCatalog()) {
        const QString name = QString::fromStdString(info.name);
        m_builtin->addItem(QStringLiteral("%1  (%2)").arg(name, taskText(info.task)), name);
        m_builtin->setItemData(
            m_builtin->count() - 1,
            tr("%1\nLicence: %2").arg(QString::fromStdString(info.description), QString::fromStdString(info.licence)),
            Qt::ToolTipRole);
    }
    m_builtin->setCurrentIndex(-1);
    m_builtin->setPlaceholderText(tr("Choose a built-in…"));
    connect(m_builtin, &QComboBox::activated, this,
            [this](int index) { chooseBuiltin(m_builtin->itemData(index).toString()); });

    m_open = new QPushButton(style()->standardIcon(QStyle::SP_DialogOpenButton), tr("Open file…"), this);
    m_open->setToolTip(tr("Open a CSV or LIBSVM/SVMlight file, optionally gzip-compressed"));
    connect(m_open, &QPushButton::clicked, this, &DatasetPanel::openFile);

    m_source = new NoteLabel(tr("nothing loaded"), this);
    m_source->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_openTest = new QPushButton(tr("Test file…"), this);
    m_openTest->setToolTip(tr("A separate test file (CSV or LIBSVM) for every test metric, encoded with the "
                              "training file's schema; without one, the views hold out a fraction"));
    connect(m_openTest, &QPushButton::clicked, this, &DatasetPanel::openTestFile);
    m_clearTest = new QPushButton(tr("No test file"), this);
    m_clearTest->setToolTip(tr("Hold out a fraction of the training data again"));
    connect(m_clearTest, &QPushButton::clicked, this, [this] { chooseTestFile({}); });
    m_testSource = new NoteLabel(this);
    m_testSource->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* testButtons = new QHBoxLayout;
    testButtons->setContentsMargins(0, 0, 0, 0);
    testButtons->addWidget(m_openTest);
    testButtons->addWidget(m_clearTest);

    auto* sourceBox = new QGroupBox(tr("Dataset"), this);
    auto* sourceLayout = new QVBoxLayout(sourceBox);
    sourceLayout->addWidget(m_builtin);
    sourceLayout->addWidget(m_open);
    sourceLayout->addWidget(m_source);
    sourceLayout->addLayout(testButtons);
    sourceLayout->addWidget(m_testSource);

    m_label = new QComboBox(this);
    m_label->setToolTip(tr("Column of the CSV file that holds the label; the other columns "
                           "become features. Changing it reloads the file."));
    connect(m_label, &QComboBox::activated, this,
            [this](int index) { chooseLabelColumn(m_label->itemData(index).toString()); });

    m_missing = new QComboBox(this);
    m_missing->addItem(tr("Drop rows"), int(core::MissingPolicy::DropRows));
    m_missing->setItemData(0, tr("Drop every row with a missing cell (\"\", ?, NA, NaN)"), Qt::ToolTipRole);
    m_missing->addItem(tr("Impute mean"), int(core::MissingPolicy::ImputeMean));
    m_missing->setItemData(1,
                           tr("Numeric: column mean; categorical: most frequent level. "
                              "Uses the data itself."),
                           Qt::ToolTipRole);
    m_missing->addItem(tr("Impute most frequent"), int(core::MissingPolicy::ImputeMostFrequent));
    m_missing->setItemData(2, tr("Most frequent value of the column. Uses the data itself."), Qt::ToolTipRole);
    m_missing->setToolTip(tr("What to do with missing cells of a CSV file"));
    connect(m_missing, &QComboBox::activated, this, [this](int) {
        if (m_shown.spec.isEmpty())
            return;
        LoadRequest request = m_shown;
        request.options.csv.missing = selectedPolicy();
        emit loadRequested(request);
    });

    m_rows = new QComboBox(this);
    m_rows->setToolTip(tr("Rows of a generated dataset (same seed: the first rows differ, the law does not). "
                          "Large sets sweep in the background; the regions view trains on a stated subsample."));
    m_rows->addItem(tr("default"), qlonglong(0));
    for (const qlonglong rows : kRowChoices)
        m_rows->addItem(QLocale().toString(rows), rows);
    connect(m_rows, &QComboBox::activated, this,
            [this](int index) { chooseRows(m_rows->itemData(index).toLongLong()); });

    m_reload = new QPushButton(style()->standardIcon(QStyle::SP_BrowserReload), tr("Reload"), this);
    m_reload->setToolTip(tr("Load the current dataset again (F5)"));
    connect(m_reload, &QPushButton::clicked, this, &DatasetPanel::reload);

    auto* optionsBox = new QGroupBox(tr("Loading"), this);
    auto* form = new QFormLayout(optionsBox);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("Label column"), m_label);
    form->addRow(tr("Missing values"), m_missing);
    form->addRow(tr("Rows (generated)"), m_rows);
    form->addRow(m_reload);

    m_about = new NoteLabel(this);
    m_about->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_about->setTextFormat(Qt::RichText);
    auto* aboutBox = new QGroupBox(tr("About"), this);
    auto* aboutLayout = new QVBoxLayout(aboutBox);
    aboutLayout->addWidget(m_about);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(sourceBox);
    layout->addWidget(optionsBox);
    layout->addWidget(aboutBox);
    layout->addStretch(1);
    revertToShown();
}

core::MissingPolicy DatasetPanel::selectedPolicy() const {
    return static_cast<core::MissingPolicy>(m_missing->currentData().toInt());
}

void DatasetPanel::requestFresh(const QString& spec) {
    LoadRequest request;
    request.spec = spec;
    request.options.csv.missing = selectedPolicy();
    emit loadRequested(request);
}

void DatasetPanel::chooseBuiltin(const QString& name) { requestFresh(builtinSpec(name)); }

QString DatasetPanel::askForDataFile(const QString& title) {
    const QStringList filters = {
        tr("Data files (*.csv *.tsv *.txt *.libsvm *.svm *.svmlight *.gz)"),
        tr("CSV (*.csv *.tsv *.csv.gz *.tsv.gz)"),
        tr("LIBSVM / SVMlight (*.libsvm *.svm *.svmlight *.libsvm.gz *.svm.gz *.svmlight.gz)"),
        tr("gzip-compressed (*.gz)"),
        tr("All files (*)"),
    };
    const QString path = QFileDialog::getOpenFileName(this, title, m_lastDirectory, filters.join(QStringLiteral(";;")));
    if (!path.isEmpty())
        m_lastDirectory = QFileInfo(path).absolutePath();
    return path;
}

void DatasetPanel::openFile() {
    if (const QString path = askForDataFile(tr("Open dataset")); !path.isEmpty())
        requestFresh(path);
}

void DatasetPanel::openTestFile() {
    if (m_shown.spec.isEmpty())
        return;
    if (const QString path = askForDataFile(tr("Open test file")); !path.isEmpty())
        chooseTestFile(path);
}

void DatasetPanel::chooseTestFile(const QString& spec) {
    if (m_shown.spec.isEmpty())
        return;
    LoadRequest request = m_shown;
    request.testSpec = spec;
    request.options.csv.missing = selectedPolicy();
    emit loadRequested(request);
}

void DatasetPanel::reload() {
    if (m_shown.spec.isEmpty())
        return;
    LoadRequest request = m_shown;
    request.options.csv.missing = selectedPolicy();
    emit loadRequested(request);
}

void DatasetPanel::chooseRows(qlonglong rows) {
    if (!m_shown.isBuiltin() ||
        !core::isGeneratorName(m_shown.spec.mid(8).section(QLatin1Char('?'), 0, 0).toStdString()))
        return;
    LoadRequest request = m_shown;
    request.spec = withOption(m_shown.spec, QStringLiteral("rows"), rows > 0 ? QString::number(rows) : QString());
    emit loadRequested(request);
}

void DatasetPanel::chooseLabelColumn(const QString& column) {
    if (m_shown.spec.isEmpty())
        return;
    LoadRequest request = m_shown;
    request.options.csv.labelColumn = column.toStdString();
    request.options.csv.missing = selectedPolicy();
    emit loadRequested(request);
}

void DatasetPanel::setShown(const LoadedDataset& loaded) {
    m_shown = loaded.request;
    m_shownData = loaded.data;
    m_shownTestData = loaded.test;
    revertToShown();
    describe(loaded);
}

void DatasetPanel::revertToShown() {
    const QString name = m_shown.isBuiltin() ? m_shown.spec.mid(8).section(QLatin1Char('?'), 0, 0) : QString();
    m_builtin->setCurrentIndex(name.isEmpty() ? -1 : m_builtin->findData(name));
    m_missing->setCurrentIndex(m_missing->findData(int(m_shown.options.csv.missing)));
    m_reload->setEnabled(!m_shown.spec.isEmpty());
    m_openTest->setEnabled(!m_shown.spec.isEmpty());
    m_clearTest->setEnabled(!m_shown.testSpec.isEmpty());
    if (m_shown.testSpec.isEmpty()) {
        m_testSource->setText(m_shown.spec.isEmpty() ? QString()
                                                     : tr("Test: a held-out fraction (each view's setting)"));
        m_testSource->setToolTip({});
    } else {
        const QString rows =
            m_shownTestData ? tr(", %1 rows").arg(QLocale().toString(qlonglong(m_shownTestData->rows()))) : QString();
        m_testSource->setText(tr("Test file: %1%2").arg(QFileInfo(m_shown.testSpec).fileName(), rows));
        m_testSource->setToolTip(m_shown.testSpec);
    }
    const bool generated = !name.isEmpty() && core::isGeneratorName(name.toStdString());
    m_rows->setEnabled(generated);
    qlonglong rows = 0;
    for (const auto& [k, v] : queryItems(m_shown.spec))
        if (k == QLatin1String("rows"))
            rows = v.toLongLong();
    if (m_rows->findData(rows) < 0)
        m_rows->addItem(QLocale().toString(rows), rows);
    m_rows->setCurrentIndex(m_rows->findData(rows));
    if (m_shownData) {
        fillLabelColumns(*m_shownData);
        const QString path = QString::fromStdString(m_shownData->provenance.path);
        m_source->setText(m_shown.isBuiltin() ? tr("Built-in: %1").arg(name)
                                              : tr("File: %1").arg(QFileInfo(path).fileName()));
        m_source->setToolTip(path);
    } else {
        m_label->clear();
        m_label->setEnabled(false);
        m_missing->setEnabled(false);
    }
}

void DatasetPanel::fillLabelColumns(const core::Dataset& dataset) {
    m_label->clear();
    if (dataset.columns.empty() || dataset.provenance.format == "generated") {
        m_label->addItem(dataset.provenance.format == "libsvm" ? tr("first field of each line") : tr("generated"));
        m_label->setEnabled(false);
        m_missing->setEnabled(false);
        return;
    }
    int current = -1;
    for (const core::ColumnInfo& column : dataset.columns) {
        const QString name = QString::fromStdString(column.name);
        m_label->addItem(name, name);
        if (column.kind == core::ColumnKind::Label)
            current = m_label->count() - 1;
    }
    m_label->setCurrentIndex(current);
    m_label->setEnabled(true);
    m_missing->setEnabled(true);
}

void DatasetPanel::describe(const LoadedDataset& loaded) {
    if (!loaded.isValid()) {
        m_about->clear();
        return;
    }
    const core::Dataset& dataset = *loaded.data;
    QString text;
    if (const core::BuiltinInfo* info = core::findBuiltin(dataset.name); info && m_shown.isBuiltin())
        text = QString::fromStdString(info->description).toHtmlEscaped() + QStringLiteral("<br>") +
               tr("<i>Licence:</i> %1").arg(QString::fromStdString(info->licence).toHtmlEscaped());
    else
        text = tr("%1 file").arg(QString::fromStdString(dataset.provenance.format).toUpper());
    text += QStringLiteral("<br><br>") + tr("Task: <b>%1</b>").arg(taskText(dataset.targets.kind));
    if (dataset.targets.isClassification()) {
        QStringList names;
        for (const std::string& n : dataset.targets.classNames)
            names << QString::fromStdString(n).toHtmlEscaped();
        constexpr int kShown = 12;
        if (names.size() > kShown)
            names = names.mid(0, kShown) << QStringLiteral("…");
        text += QStringLiteral("<br>") + tr("Classes: %1").arg(names.join(QStringLiteral(", ")));
    }
    m_about->setText(text);
}

} // namespace elab::ui
