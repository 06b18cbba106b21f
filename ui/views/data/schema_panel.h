#pragma once
// Under the Data tab's bounds panel: where the encoding's levels, classes and width came from
// (the log's "schema" step, docs/MATH.md §1.6) and the user's declaration that they are public
// knowledge. Read from the rows, they leak (a warning says which were read); ticking "These
// levels and classes are public knowledge" asks for them to become the file's public schema
// (declared()), which the Data tab writes beside the data and loads the dataset again with.
// GUI thread only.

#include "core/data/dataset.h"
#include "core/data/public_schema.h"

#include <QWidget>

#include <memory>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QLabel;
QT_END_NAMESPACE

namespace elab::ui {

class SchemaPanel : public QWidget {
    Q_OBJECT
public:
    explicit SchemaPanel(QWidget* parent = nullptr);

    /// The shown dataset (its log's "schema" step says where its encoding came from).
    void setDataset(std::shared_ptr<const core::Dataset> dataset);
    void clear();

    QLabel* summaryLabel() const { return m_summary; }
    QCheckBox* declareCheck() const { return m_declare; }
    /// True when the shown encoding was read from the rows (its schema step leaks).
    bool leaks() const { return m_leaks; }

signals:
    /// The user declared the shown encoding's levels, classes (and LIBSVM width) public.
    void declared(const elab::core::PublicSchema& schema);

private:
    QLabel* m_summary = nullptr;
    QCheckBox* m_declare = nullptr;
    std::shared_ptr<const core::Dataset> m_data;
    bool m_leaks = false;
    bool m_updating = false;
};

} // namespace elab::ui
