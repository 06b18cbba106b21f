#include "ui/views/data/schema_panel.h"
#include "ui/widgets/note_label.h"

#include <QCheckBox>
#include <QLabel>
#include <QVBoxLayout>

namespace elab::ui {

namespace {

const core::ProcessingStep* schemaStep(const core::Dataset& data) {
    for (const core::ProcessingStep& step : data.log)
        if (step.name == "schema")
            return &step;
    return nullptr;
}

} // namespace

SchemaPanel::SchemaPanel(QWidget* parent) : QWidget(parent) {
    m_summary = new NoteLabel(this);
    m_summary->setObjectName(QStringLiteral("schemaSummary"));
    m_summary->setWordWrap(true);
    m_declare = new QCheckBox(tr("These levels and classes are public knowledge"), this);
    m_declare->setObjectName(QStringLiteral("declareSchemaCheck"));
    m_declare->setToolTip(
        tr("Tick only if every level and class shown is known without this data (a codebook, the survey's "
           "documentation). They are written as a public schema beside the data (FILE.schema: review and edit "
           "it) and the dataset is loaded again with them: rows with other levels then encode as all-zero "
           "one-hots and rows with other labels are dropped, one row at a time, and the encoding no longer "
           "reads the private rows."));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_summary);
    layout->addWidget(m_declare);
    connect(m_declare, &QCheckBox::toggled, this, [this](bool on) {
        if (m_updating || !on || !m_data)
            return;
        core::PublicSchema schema = core::schemaOfDataset(*m_data);
        schema.source = "declared in the Data tab";
        emit declared(schema);
    });
    clear();
}

void SchemaPanel::clear() { setDataset(nullptr); }

void SchemaPanel::setDataset(std::shared_ptr<const core::Dataset> dataset) {
    m_data = std::move(dataset);
    const core::ProcessingStep* step = m_data ? schemaStep(*m_data) : nullptr;
    m_leaks = step && step->leaksPrivacy;
    m_updating = true;
    m_declare->setChecked(step && !m_leaks);
    m_updating = false;
    setVisible(step != nullptr);
    if (!step) {
        m_summary->clear();
        return;
    }
    const QString detail = QString::fromStdString(step->detail);
    if (m_leaks) {
        // "read from this file's rows, which are private: <what>. Replacing one row …": the what.
        const QString prefix = QStringLiteral("read from this file's rows, which are private: ");
        QString what = detail.section(QStringLiteral(". Replacing"), 0, 0);
        if (what.startsWith(prefix))
            what = what.mid(prefix.size());
        m_summary->setStyleSheet(QStringLiteral("QLabel { color: #8a4b00; }"));
        m_summary->setText(tr("Encoding read from the private rows (leaks): %1. One row more, less or changed can "
                              "change them, and the model's dimension with them.")
                               .arg(what));
        m_summary->setToolTip(detail);
        m_declare->setEnabled(true);
    } else {
        m_summary->setStyleSheet(QString());
        m_summary->setToolTip(QString());
        m_summary->setText(tr("Encoding: %1. Privacy-safe: nothing about the levels, classes or width was read "
                              "from the rows.")
                               .arg(detail));
        m_declare->setEnabled(false);
    }
}

} // namespace elab::ui
