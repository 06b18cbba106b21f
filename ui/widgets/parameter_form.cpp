#include "ui/widgets/parameter_form.h"

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

QString text(const char* utf8) { return QString::fromUtf8(utf8); }

int clampToInt(double v) { return static_cast<int>(std::clamp(v, -2147483647.0, 2147483647.0)); }

QString inputName(const core::ParameterField& field, const char* kind) {
    return QString::fromStdString(core::camelCaseKey(field.key)) + QLatin1String(kind);
}

template <typename Spin>
Spin* spin(QWidget* parent, const core::ParameterField& field) {
    auto* s = new Spin(parent);
    s->setObjectName(inputName(field, "Spin"));
    s->setKeyboardTracking(false);
    s->setToolTip(text(field.toolTip));
    return s;
}

} // namespace

ParameterForm::ParameterForm(const core::ParameterSchema& schema, QWidget* parent)
    : QGroupBox(text(schema.title), parent), m_schema(schema) {
    setObjectName(QString::fromUtf8(schema.id) + QLatin1String("Group"));
    m_form = new QFormLayout(this);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    for (const core::ParameterField& field : schema.fields) {
        m_rows.push_back(makeRow(field));
        m_form->addRow(text(field.label), m_rows.back().widget);
    }
    setSpec(m_base);
}

ParameterForm::Row ParameterForm::makeRow(const core::ParameterField& field) {
    Row row;
    row.field = &field;
    auto changed = [this] {
        if (m_applying)
            return;
        refreshRows();
        emit edited();
    };
    switch (field.type) {
    case core::ParameterType::Integer:
        row.integer = spin<QSpinBox>(this, field);
        row.integer->setRange(clampToInt(field.formMin), clampToInt(field.formMax));
        break;
    case core::ParameterType::Real:
        if (field.decimals == 0) { // a whole number as a real (DP-SGD's expected batch size)
            row.integer = spin<QSpinBox>(this, field);
            row.integer->setRange(clampToInt(field.formMin), clampToInt(field.formMax));
        } else {
            row.real = spin<QDoubleSpinBox>(this, field);
            row.real->setDecimals(field.decimals);
            row.real->setRange(field.formMin, field.formMax);
            row.real->setSingleStep(field.step);
        }
        break;
    case core::ParameterType::Choice:
        row.choice = new QComboBox(this);
        row.choice->setObjectName(inputName(field, "Combo"));
        row.choice->setToolTip(text(field.toolTip));
        row.choice->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        row.choice->setMinimumContentsLength(8);
        for (const core::ParameterChoice& c : field.choices)
            row.choice->addItem(QString::fromStdString(c.title), QString::fromStdString(c.name));
        connect(row.choice, &QComboBox::currentIndexChanged, this, changed);
        row.widget = row.choice;
        return row;
    case core::ParameterType::OptionalCount: {
        auto* box = new QWidget(this);
        row.declared = new QCheckBox(text(field.checkText), box);
        row.declared->setObjectName(inputName(field, "Check"));
        row.declared->setToolTip(text(field.checkToolTip));
        row.integer = spin<QSpinBox>(box, field);
        row.integer->setRange(clampToInt(field.formMin), clampToInt(field.formMax));
        auto* layout = new QHBoxLayout(box);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(row.declared);
        layout->addWidget(row.integer, 1);
        QCheckBox* declared = row.declared;
        connect(row.integer, &QSpinBox::valueChanged, this, [declared, changed] {
            if (declared->isChecked()) // unchecked, the number is only a suggestion
                changed();
        });
        connect(row.declared, &QCheckBox::toggled, this, changed);
        row.widget = box;
        return row;
    }
    }
    if (field.specialValueText[0] != '\0') {
        if (row.integer)
            row.integer->setSpecialValueText(text(field.specialValueText));
        else
            row.real->setSpecialValueText(text(field.specialValueText));
    }
    if (row.integer) {
        connect(row.integer, &QSpinBox::valueChanged, this, changed);
        row.widget = row.integer;
    } else {
        connect(row.real, &QDoubleSpinBox::valueChanged, this, changed);
        row.widget = row.real;
    }
    return row;
}

void ParameterForm::show(Row& row, const core::ParameterValue& value) {
    switch (row.field->type) {
    case core::ParameterType::Integer:
        row.integer->setValue(clampToInt(static_cast<double>(std::get<long long>(value))));
        break;
    case core::ParameterType::Real:
        if (row.integer)
            row.integer->setValue(clampToInt(std::round(std::get<double>(value))));
        else
            row.real->setValue(std::get<double>(value));
        break;
    case core::ParameterType::Choice:
        row.choice->setCurrentIndex(row.choice->findData(QString::fromStdString(std::get<std::string>(value))));
        break;
    case core::ParameterType::OptionalCount: {
        const long long count = std::get<long long>(value);
        row.declared->setChecked(count > 0);
        row.integer->setValue(clampToInt(std::clamp(static_cast<double>(count > 0 ? count : m_datasetRows),
                                                    row.field->formMin, row.field->formMax)));
        break;
    }
    }
}

core::ParameterValue ParameterForm::valueOf(const Row& row) const {
    switch (row.field->type) {
    case core::ParameterType::Integer: return static_cast<long long>(row.integer->value());
    case core::ParameterType::Real: return row.integer ? static_cast<double>(row.integer->value()) : row.real->value();
    case core::ParameterType::Choice: return row.choice->currentData().toString().toStdString();
    case core::ParameterType::OptionalCount: break;
    }
    return row.declared->isChecked() ? static_cast<long long>(row.integer->value()) : 0LL;
}

void ParameterForm::setSpec(const core::MechanismSpec& spec) {
    m_applying = true;
    m_base = spec;
    for (Row& row : m_rows)
        show(row, row.field->get(spec));
    m_applying = false;
    refreshRows();
}

void ParameterForm::setDatasetRows(long long rows) {
    m_datasetRows = rows;
    const bool applying = m_applying;
    m_applying = true;
    for (Row& row : m_rows)
        if (row.declared && !row.declared->isChecked()) // a declared count stays as declared
            row.integer->setValue(
                clampToInt(std::clamp(static_cast<double>(rows), row.field->formMin, row.field->formMax)));
    m_applying = applying;
}

core::MechanismSpec ParameterForm::applyTo(core::MechanismSpec spec) const {
    for (const Row& row : m_rows)
        row.field->set(spec, valueOf(row));
    for (const Row& row : m_rows)
        if (row.field->defaultWhenHidden && row.field->shown && !row.field->shown(spec))
            row.field->set(spec, core::defaultValue(*row.field));
    return spec;
}

void ParameterForm::refreshRows() {
    const core::MechanismSpec spec = applyTo(m_base);
    for (const Row& row : m_rows) {
        if (row.declared)
            row.integer->setEnabled(row.declared->isChecked());
        if (row.field->shown)
            m_form->setRowVisible(row.widget, row.field->shown(spec));
    }
}

} // namespace elab::ui
