#pragma once
// The form of a mechanism's own parameters, built from its ParameterSchema (the catalog entry's
// `parameters`; docs/developer.md, "Adding a mechanism"): one row per field, a spin box for a
// number (an integer spin box for Real with no decimals), a menu for a choice, and for an
// optional count a check box and a spin box that, unchecked, suggests the loaded data's training
// rows (setDatasetRows). Rows show and hide as the schema's `shown` says of the spec as edited.
// objectNames: "<id>Group" for the box (DP-SGD: "sgdGroup") and the field's key in camel case
// with "Spin", "Combo" or "Check" ("batchSizeSpin", "clipModeCombo", "publicRowsCheck" and
// "publicRowsSpin"). GUI thread only.

#include "core/learner/parameter_schema.h"

#include <QGroupBox>

#include <vector>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QSpinBox;
QT_END_NAMESPACE

namespace elab::ui {

class ParameterForm : public QGroupBox {
    Q_OBJECT
public:
    /// schema must outlive the form (the catalog's do).
    explicit ParameterForm(const core::ParameterSchema& schema, QWidget* parent = nullptr);

    const core::ParameterSchema& schema() const { return m_schema; }
    /// Shows the schema's fields of spec; emits nothing.
    void setSpec(const core::MechanismSpec& spec);
    /// spec with the schema's fields as edited (a field the form hides and defaults: its default).
    core::MechanismSpec applyTo(core::MechanismSpec spec) const;
    /// The training rows of the loaded data: suggested for an optional count when the user
    /// declares one (the user confirms it with the check box); emits nothing.
    void setDatasetRows(long long rows);

signals:
    void edited();

private:
    struct Row {
        const core::ParameterField* field = nullptr;
        QWidget* widget = nullptr; ///< the form row's field widget
        QSpinBox* integer = nullptr;
        QDoubleSpinBox* real = nullptr;
        QComboBox* choice = nullptr;
        QCheckBox* declared = nullptr; ///< OptionalCount
    };

    Row makeRow(const core::ParameterField& field);
    core::ParameterValue valueOf(const Row& row) const;
    void show(Row& row, const core::ParameterValue& value);
    void refreshRows();

    const core::ParameterSchema& m_schema;
    core::MechanismSpec m_base;
    long long m_datasetRows = 0;
    bool m_applying = false;
    QFormLayout* m_form = nullptr;
    std::vector<Row> m_rows;
};

} // namespace elab::ui
