#include "resources/builtin_resources.h"

#include <QFile>

namespace elab::resources {

std::optional<std::string> builtinBytes(const std::string& fileName) {
    QFile file(QStringLiteral(":/datasets/") + QString::fromStdString(fileName));
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QByteArray bytes = file.readAll();
    return std::string(bytes.constData(), static_cast<std::size_t>(bytes.size()));
}

core::BuiltinBytes builtinBytesProvider() { return &builtinBytes; }

std::string licencesText() { return builtinBytes("LICENSES.md").value_or(std::string()); }

} // namespace elab::resources
