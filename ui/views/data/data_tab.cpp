#include "ui/views/data/data_tab.h"

#include "ui/views/data/data_view.h"

#include "core/data/public_schema.h"

#include <QSaveFile>

#include <algorithm>

namespace elab::ui {

DataTab::DataTab(QWidget* parent, ViewHost& host) : m_view(new DataView(parent)), m_host(host) {
    QObject::connect(
        m_view, &DataView::boundsChanged, m_view,
        [this](const core::PublicBounds& bounds, const std::optional<core::PrivateBoundsOptions>& estimate) {
            if (m_request.spec.isEmpty())
                return;
            LoadRequest request = m_request;
            request.bounds = bounds;
            request.privateBounds = estimate;
            m_host.requestLoad(request);
        });
    QObject::connect(m_view, &DataView::ignoredChanged, m_view, [this](const std::vector<std::string>& ignored) {
        if (m_request.spec.isEmpty())
            return;
        LoadRequest request = m_request;
        request.options.csv.ignoredColumns = ignored;
        // A bound of a column left out has nothing to apply to.
        std::erase_if(request.bounds.columns, [&](const core::ColumnBound& b) {
            return std::find(ignored.begin(), ignored.end(), b.column) != ignored.end();
        });
        m_host.requestLoad(request);
    });
    QObject::connect(m_view, &DataView::schemaDeclared, m_view,
                     [this](const core::PublicSchema& schema) { declareSchema(schema); });
    QObject::connect(m_view, &DataView::message, m_view,
                     [this](const QString& text) { m_host.showStatusMessage(text, 8000); });
}

QWidget* DataTab::widget() { return m_view; }

void DataTab::declareSchema(core::PublicSchema schema) {
    if (m_request.spec.isEmpty())
        return;
    LoadRequest request = m_request;
    // A file's schema is written beside it, where this load and every later one (GUI, CLI) find
    // it; a built-in's (another label than its documented one) or an unwritable directory's is
    // kept with this request only.
    QString note;
    if (!request.isBuiltin()) {
        const std::string path = core::siblingSchemaPath(request.spec.toStdString());
        QSaveFile file(QString::fromStdString(path));
        const std::string text = core::schemaFileText(schema);
        if (file.open(QIODevice::WriteOnly) &&
            file.write(text.data(), static_cast<qint64>(text.size())) == static_cast<qint64>(text.size()) &&
            file.commit()) {
            schema = {}; // the file beside the data is the schema: found by this load and every later one
            note = QObject::tr("Wrote the public schema %1: review it (keep only public knowledge), edit or delete it "
                               "to change this.")
                       .arg(QString::fromStdString(path));
        } else {
            note = QObject::tr("Could not write %1 (%2): the declaration holds for this session only.")
                       .arg(QString::fromStdString(path), file.errorString());
        }
    }
    request.options.schema = std::move(schema);
    request.options.findSchema = true;
    if (!note.isEmpty())
        m_host.showStatusMessage(note, 12000);
    m_host.requestLoad(request);
}

void DataTab::prepareDataset(const LoadedDataset& loaded) {
    m_request = loaded.request;
    m_view->setDataset(loaded);
}

ViewType dataViewType() {
    ViewType type;
    type.id = QStringLiteral("data");
    type.title = QObject::tr("Data");
    type.create = [](QWidget* parent, ViewHost& host) { return std::make_unique<DataTab>(parent, host); };
    return type;
}

} // namespace elab::ui
