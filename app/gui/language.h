#pragma once

#include <QObject>
#include <QString>
#include <memory>

class QTranslator;

namespace ayar {

// The UI language at run time: Ayar's translations (compiled into the program from
// translations/ayar_<code>.ts) and Qt's own (standard dialogs), and the default QLocale for numbers
// and dates. Installing translators sends every widget a LanguageChange event, on which it
// retranslates itself.
class Language : public QObject {
  Q_OBJECT

 public:
  explicit Language(QObject* parent = nullptr);
  ~Language() override;

  // "tr" when the system locale is Turkish, else "en".
  static QString systemDefault();
  // "tr" or "en"; anything else falls back to "en". Returns false when Ayar's translation for it
  // could not be loaded (the language is still set for numbers).
  bool apply(const QString& code);
  const QString& current() const { return m_code; }

 signals:
  void changed(const QString& code);

 private:
  QString m_code;
  std::unique_ptr<QTranslator> m_ayar;
  std::unique_ptr<QTranslator> m_qt;
};

}  // namespace ayar
