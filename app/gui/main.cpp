// ayar: the workbench. Options: --lang tr|en, --store PATH, --open-run ID.
#include <QApplication>
#include <QCommandLineParser>
#include <QMessageBox>
#include <clocale>
#include <cstdio>

#include "app/gui/main_window.h"
#include "core/error.h"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  // Files, JSON and command lines are written in the C locale; QLocale is for display only.
  std::setlocale(LC_NUMERIC, "C");
  QApplication::setOrganizationName(QStringLiteral("Ayar"));
  QApplication::setApplicationName(QStringLiteral("ayar"));
  QApplication::setApplicationVersion(QStringLiteral(AYAR_VERSION));

  QCommandLineParser parser;
  parser.setApplicationDescription(QStringLiteral("Ayar: a workbench for tuning LLM serving performance"));
  parser.addHelpOption();
  parser.addVersionOption();
  const QCommandLineOption lang(QStringLiteral("lang"), QStringLiteral("UI language: tr or en"),
                                QStringLiteral("CODE"));
  const QCommandLineOption store(QStringLiteral("store"), QStringLiteral("Results store (SQLite file)"),
                                 QStringLiteral("PATH"));
  const QCommandLineOption openRun(QStringLiteral("open-run"), QStringLiteral("Show this stored run"),
                                   QStringLiteral("ID"));
  parser.addOptions({lang, store, openRun});
  parser.process(app);

  const QString code = parser.value(lang);
  if (parser.isSet(lang) && code != QLatin1String("tr") && code != QLatin1String("en")) {
    std::fprintf(stderr, "ayar: --lang %s: use tr or en\n", qPrintable(code));
    return 2;
  }
  qint64 runId = -1;
  if (parser.isSet(openRun)) {
    bool ok = false;
    runId = parser.value(openRun).toLongLong(&ok);
    if (!ok || runId <= 0) {
      std::fprintf(stderr, "ayar: --open-run %s: give a run id (ayar-cli runs list shows them)\n",
                   qPrintable(parser.value(openRun)));
      return 2;
    }
  }

  ayar::MainWindowOptions options;
  options.language = code;
  options.storePath = parser.value(store).toStdString();
  std::unique_ptr<ayar::MainWindow> window;
  try {
    window = std::make_unique<ayar::MainWindow>(options);
  } catch (const ayar::Error& e) {
    std::fprintf(stderr, "ayar: %s\n", e.what());
    QMessageBox::critical(nullptr, QStringLiteral("Ayar"), QString::fromUtf8(e.what()));
    return 1;
  }
  window->show();
  if (runId > 0 && !window->openRun(runId)) {
    std::fprintf(stderr, "ayar: --open-run %lld: %s\n", static_cast<long long>(runId),
                 qPrintable(window->statusText()));
  }
  return app.exec();
}
