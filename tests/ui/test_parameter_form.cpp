// A mechanism's own parameters reach the GUI and sessions through its schema only (the catalog
// entry's `parameters`): the form has exactly one input per field, named after its key, and no
// other; each input edits its field of the spec; the session block has exactly the schema's keys,
// in order, and reads back what it wrote. A field written by hand beside the schema fails here.

#include "core/mechanisms/mechanism_catalog.h"
#include "ui/session/session_json.h"
#include "ui/widgets/mechanism_panel.h"
#include "ui/widgets/parameter_form.h"

#include <QAbstractSpinBox>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTest>

#include <set>
#include <variant>

namespace core = elab::core;
using elab::ui::MechanismPanel;
using elab::ui::ParameterForm;

namespace {

// "batch_size" → "batchSize", written out here so that the form's rule is checked, not reused.
QString camel(const char* key) {
    QString name;
    bool upper = false;
    for (const char* c = key; *c; ++c) {
        if (*c == '_')
            upper = true;
        else {
            name += upper ? QChar(*c).toUpper() : QChar(*c);
            upper = false;
        }
    }
    return name;
}

std::vector<const core::MechanismInfo*> withParameters() {
    std::vector<const core::MechanismInfo*> list;
    for (const core::MechanismInfo& info : core::mechanismCatalog())
        if (info.parameters)
            list.push_back(&info);
    return list;
}

ParameterForm* formOf(const MechanismPanel& panel, const core::ParameterSchema& schema) {
    return panel.findChild<ParameterForm*>(QString::fromUtf8(schema.id) + QStringLiteral("Group"));
}

} // namespace

class TestParameterForm : public QObject {
    Q_OBJECT
private slots:
    void someMechanismHasParameters() { QVERIFY(!withParameters().empty()); }

    void formInputsAreTheSchemasFields() {
        MechanismPanel panel;
        for (const core::MechanismInfo* info : withParameters()) {
            const core::ParameterSchema& schema = *info->parameters;
            ParameterForm* form = formOf(panel, schema);
            QVERIFY2(form, schema.id);
            QCOMPARE(form->title(), QString::fromUtf8(schema.title));
            std::set<QString> expected;
            QStringList labels;
            for (const core::ParameterField& f : schema.fields) {
                switch (f.type) {
                case core::ParameterType::Choice: expected.insert(camel(f.key) + QStringLiteral("Combo")); break;
                case core::ParameterType::OptionalCount:
                    expected.insert(camel(f.key) + QStringLiteral("Check"));
                    expected.insert(camel(f.key) + QStringLiteral("Spin"));
                    break;
                default: expected.insert(camel(f.key) + QStringLiteral("Spin"));
                }
                labels << QString::fromUtf8(f.label);
            }
            std::set<QString> found;
            for (QWidget* w : form->findChildren<QWidget*>()) {
                if (qobject_cast<QAbstractSpinBox*>(w) || qobject_cast<QComboBox*>(w) || qobject_cast<QCheckBox*>(w) ||
                    qobject_cast<QLineEdit*>(w)) {
                    if (qobject_cast<QLineEdit*>(w) && qobject_cast<QAbstractSpinBox*>(w->parent()))
                        continue; // a spin box's own editor
                    QVERIFY2(found.insert(w->objectName()).second, qPrintable(w->objectName()));
                }
            }
            QCOMPARE(found, expected);
            auto* layout = qobject_cast<QFormLayout*>(form->layout());
            QVERIFY(layout);
            QStringList rowLabels;
            for (int r = 0; r < layout->rowCount(); ++r)
                if (auto* label = qobject_cast<QLabel*>(layout->itemAt(r, QFormLayout::LabelRole)->widget()))
                    rowLabels << label->text();
            QCOMPARE(rowLabels, labels);
        }
    }

    // Every input edits its own field, as the schema's get reads it from the panel's settings.
    void eachInputEditsItsField() {
        for (const core::MechanismInfo* info : withParameters()) {
            for (const core::ParameterField& f : info->parameters->fields) {
                MechanismPanel panel;
                core::MechanismSpec spec = panel.settings().mechanism;
                core::selectMechanism(spec, info->kind);
                auto settings = panel.settings();
                settings.mechanism = spec;
                panel.setSettings(settings);
                ParameterForm* form = formOf(panel, *info->parameters);
                const QString stem = camel(f.key);
                const core::ParameterValue before = f.get(panel.settings().mechanism);
                core::ParameterValue want;
                if (f.type == core::ParameterType::Choice) {
                    auto* combo = form->findChild<QComboBox*>(stem + QStringLiteral("Combo"));
                    QVERIFY2(combo && combo->count() >= 2, f.key);
                    const int other = combo->currentIndex() == 0 ? 1 : 0;
                    combo->setCurrentIndex(other);
                    want = f.choices[static_cast<std::size_t>(other)].name;
                } else if (f.type == core::ParameterType::OptionalCount) {
                    auto* check = form->findChild<QCheckBox*>(stem + QStringLiteral("Check"));
                    auto* spin = form->findChild<QSpinBox*>(stem + QStringLiteral("Spin"));
                    QVERIFY2(check && spin, f.key);
                    spin->setValue(777);
                    QCOMPARE(f.get(panel.settings().mechanism), before); // not declared: a suggestion only
                    check->setChecked(true);
                    want = 777LL;
                } else if (auto* spin = form->findChild<QSpinBox*>(stem + QStringLiteral("Spin"))) {
                    const int v = spin->value() == spin->minimum() ? spin->minimum() + 1 : spin->minimum();
                    spin->setValue(v);
                    want = f.type == core::ParameterType::Integer ? core::ParameterValue(static_cast<long long>(v))
                                                                  : core::ParameterValue(static_cast<double>(v));
                } else {
                    auto* dspin = form->findChild<QDoubleSpinBox*>(stem + QStringLiteral("Spin"));
                    QVERIFY2(dspin, f.key);
                    const double v = dspin->value() + dspin->singleStep();
                    dspin->setValue(v);
                    want = dspin->value();
                }
                QVERIFY2(want != before, f.key);
                QVERIFY2(f.get(panel.settings().mechanism) == want, f.key);
            }
        }
    }

    void sessionBlockIsTheSchemas() {
        for (const core::MechanismInfo* info : withParameters()) {
            const core::ParameterSchema& schema = *info->parameters;
            core::MechanismSpec spec;
            core::selectMechanism(spec, info->kind);
            const auto j = elab::ui::detail::mechanismJson(spec);
            QVERIFY2(j.contains(schema.id), schema.id);
            QStringList keys, fields;
            for (const auto& [key, value] : j[schema.id].items())
                keys << QString::fromStdString(key);
            for (const core::ParameterField& f : schema.fields)
                fields << QString::fromUtf8(f.key);
            QCOMPARE(keys, fields);
            const core::MechanismSpec back =
                elab::ui::detail::mechanismFromJson(elab::ui::detail::Json::parse(j.dump()), "mechanism");
            for (const core::ParameterField& f : schema.fields)
                QVERIFY2(f.get(back) == f.get(spec), f.key);
        }
    }

    void unknownChoiceInASessionIsNamed() {
        for (const core::MechanismInfo* info : withParameters())
            for (const core::ParameterField& f : info->parameters->fields) {
                if (f.type != core::ParameterType::Choice)
                    continue;
                auto j = elab::ui::detail::Json::parse(elab::ui::detail::mechanismJson({}).dump());
                j[info->parameters->id][f.key] = "no-such-value";
                try {
                    elab::ui::detail::mechanismFromJson(j, "mechanism");
                    QFAIL(f.key);
                } catch (const std::runtime_error& e) {
                    const std::string field = std::string("mechanism.") + info->parameters->id + "." + f.key;
                    QVERIFY2(std::string(e.what()).find(field + ": unknown value 'no-such-value'") == 0, e.what());
                }
            }
    }
};

QTEST_MAIN(TestParameterForm)
#include "test_parameter_form.moc"
