#include "ui/widgets/documented_keys.h"

#include <QVariant>
#include <QWidget>

namespace elab::ui {

namespace {
constexpr char kProperty[] = "elabDocumentedKeys";
const QChar kSeparator = QLatin1Char('\t');
} // namespace

void documentKeys(QWidget* w, const QList<DocumentedKey>& keys) {
    QStringList lines;
    for (const DocumentedKey& key : keys)
        lines << key.keys + kSeparator + key.what;
    w->setProperty(kProperty, lines);
}

QList<DocumentedKey> documentedKeys(const QWidget* w) {
    QList<DocumentedKey> keys;
    for (const QString& line : w->property(kProperty).toStringList())
        keys.append({line.section(kSeparator, 0, 0), line.section(kSeparator, 1)});
    return keys;
}

} // namespace elab::ui
