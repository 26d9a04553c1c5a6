// ayar: the workbench. Options: --lang tr|en, --store PATH, --open-run ID; and without a window,
// --report RUNS|study:ID --format pdf|html|md|csv|json --lang tr|en --output FILE.
#include <QApplication>
#include <QCommandLineParser>
#include <QMessageBox>
#include <clocale>
#include <cstdio>
#include <cstring>

#include "app/gui/headless_report.h"
#include "app/gui/main_window.h"
#include "core/error.h"
#include "core/report/message_text.h"
#include "widgets/form_field.h"

int main(int argc, char** argv) {
  // A report, the help and the version need no display: draw offscreen (a headless server has no X).
  bool windowless = false;
  for (int i = 1; i < argc; ++i) {
    for (const char* option : {"--report", "--help", "-h", "--help-all", "--version", "-v"}) {
      const std::size_t n = std::strlen(option);
      windowless = windowless || (std::strncmp(argv[i], option, n) == 0 &&
                                  (argv[i][n] == '\0' || (n > 2 && argv[i][n] == '=')));
    }
  }
  const bool platformChosen = !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
  if (windowless && !platformChosen) qputenv("QT_QPA_PLATFORM", "offscreen");
  if (!windowless && !platformChosen && qEnvironmentVariableIsEmpty("DISPLAY") &&
      qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")) {
    // Qt would abort with a core dump; say what to do instead.
    std::fprintf(stderr,
                 "ayar: there is no display to open the workbench on (neither DISPLAY nor WAYLAND_DISPLAY "
                 "is set). Run it on a desktop or under xvfb-run; without a display, ayar-cli runs "
                 "benchmarks and studies and `ayar --report` writes reports.\n");
    return 1;
  }
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
  const QCommandLineOption report(
      QStringLiteral("report"),
      QStringLiteral("Write a report without a window: run ids (3 or 3,5,8: the first is "
                     "the baseline) or study:ID"),
      QStringLiteral("WHAT"));
  const QCommandLineOption format(QStringLiteral("format"),
                                  QStringLiteral("Report format: pdf, html, md, csv, json"),
                                  QStringLiteral("FORMAT"));
  const QCommandLineOption output(QStringLiteral("output"), QStringLiteral("Report file"),
                                  QStringLiteral("FILE"));
  parser.addOptions({lang, store, openRun, report, format, output});
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

  if (parser.isSet(report)) {
    const QString error = ayar::writeHeadlessReport(parser.value(store).toStdString(), parser.value(report),
                                                    parser.value(format), code, parser.value(output));
    if (!error.isEmpty()) {
      std::fprintf(stderr, "ayar: %s\n", qPrintable(error));
      return 1;
    }
    return 0;
  }

  ayar::MainWindowOptions options;
  options.language = code;
  options.storePath = parser.value(store).toStdString();
  std::unique_ptr<ayar::MainWindow> window;
  try {
    window = std::make_unique<ayar::MainWindow>(options);
  } catch (const ayar::Error& e) {
    std::fprintf(stderr, "ayar: %s\n", e.what());
    QMessageBox::critical(nullptr, QStringLiteral("Ayar"),
                          QString::fromStdString(ayar::errorText(e, ayar::uiReportLanguage())));
    return 1;
  }
  window->show();
  if (runId > 0 && !window->openRun(runId)) {
    std::fprintf(stderr, "ayar: --open-run %lld: %s\n", static_cast<long long>(runId),
                 qPrintable(window->statusText()));
  }
  return app.exec();
}
