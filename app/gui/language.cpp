#include "app/gui/language.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

// The translations are compiled into the ayar_gui library as a Qt resource; a static library's resource
// must be registered by name, or the linker drops it.
static void registerTranslationResources() {
  Q_INIT_RESOURCE(ayar_gui_translations);
}

namespace ayar {

Language::Language(QObject* parent) : QObject(parent) {
  registerTranslationResources();
}

Language::~Language() {
  if (m_ayar) QCoreApplication::removeTranslator(m_ayar.get());
  if (m_qt) QCoreApplication::removeTranslator(m_qt.get());
}

QString Language::systemDefault() {
  return QLocale::system().language() == QLocale::Turkish ? QStringLiteral("tr") : QStringLiteral("en");
}

bool Language::apply(const QString& requested) {
  const QString code = requested == QLatin1String("tr") ? QStringLiteral("tr") : QStringLiteral("en");
  const QLocale locale = code == QLatin1String("tr") ? QLocale(QLocale::Turkish, QLocale::Turkey)
                                                     : QLocale(QLocale::English, QLocale::UnitedStates);
  // The locale first: widgets read it while they retranslate.
  QLocale::setDefault(locale);
  if (m_ayar) QCoreApplication::removeTranslator(m_ayar.get());
  if (m_qt) QCoreApplication::removeTranslator(m_qt.get());
  m_ayar = std::make_unique<QTranslator>();
  m_qt = std::make_unique<QTranslator>();
  const bool loaded = m_ayar->load(QStringLiteral(":/i18n/ayar_") + code + QStringLiteral(".qm"));
  if (m_qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
    QCoreApplication::installTranslator(m_qt.get());
  if (loaded) QCoreApplication::installTranslator(m_ayar.get());
  const bool changedCode = code != m_code;
  m_code = code;
  if (changedCode) emit changed(code);
  return loaded;
}

}  // namespace ayar
