// `ayar --report ... --output FILE` writes a report without a window.
#include <gtest/gtest.h>

#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <filesystem>
#include <fstream>

#include "core/interop/result_import.h"
#include "core/store/result_store.h"
#include "tests/support/test_env.h"

namespace ayar {
namespace {

QString runAyar(const QStringList& arguments, int* exitCode,
                const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment()) {
  QProcess process;
  process.setProcessEnvironment(environment);
  process.setProcessChannelMode(QProcess::MergedChannels);
  process.start(QStringLiteral(AYAR_GUI_BIN), arguments);
  EXPECT_TRUE(process.waitForFinished(60000));
  *exitCode = process.exitCode();
  return QString::fromUtf8(process.readAll());
}

TEST(HeadlessReport, WritesATurkishReportOfStoredRunsWithoutAWindow) {
  test::TempDir dir;
  const auto store = dir / "ayar.db";
  {
    ResultStore resultStore(store);
    for (const auto& run : readImportedRuns(AYAR_INTEROP_FIXTURES "/vllm_detailed.json"))
      resultStore.addFinishedRun(toFinishedRun(run));
    for (const auto& run : readImportedRuns(AYAR_INTEROP_FIXTURES "/vllm_detailed.json"))
      resultStore.addFinishedRun(toFinishedRun(run));
  }
  const QString storeArg = QString::fromStdString(store.string());
  for (const char* format : {"html", "pdf", "json"}) {
    const QString output = QString::fromStdString((dir / (std::string("report.") + format)).string());
    int rc = -1;
    const QString said =
        runAyar({QStringLiteral("--store"), storeArg, QStringLiteral("--report"), QStringLiteral("1,2"),
                 QStringLiteral("--format"), QString::fromLatin1(format), QStringLiteral("--lang"),
                 QStringLiteral("tr"), QStringLiteral("--output"), output},
                &rc);
    ASSERT_EQ(rc, 0) << format << ": " << said.toStdString();
    QFile file(output);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly)) << format;
    const QByteArray bytes = file.readAll();
    if (QLatin1String(format) == QLatin1String("pdf")) {
      EXPECT_TRUE(bytes.startsWith("%PDF-"));
    } else {
      EXPECT_TRUE(QString::fromUtf8(bytes).contains(QStringLiteral("Çalıştırma karşılaştırması"))) << format;
    }
  }
}

// Without --lang the report is in the language the workbench opens in: the one last chosen there.
TEST(HeadlessReport, WithoutLangTheReportIsInTheLanguageLastChosenInTheWorkbench) {
  test::TempDir dir;
  const auto store = dir / "ayar.db";
  {
    ResultStore resultStore(store);
    for (int i = 0; i < 2; ++i)
      for (const auto& run : readImportedRuns(AYAR_INTEROP_FIXTURES "/vllm_detailed.json"))
        resultStore.addFinishedRun(toFinishedRun(run));
  }
  // Qt's settings file of the workbench, as the Language menu leaves it.
  std::filesystem::create_directories(dir / "config" / "Ayar");
  std::ofstream(dir / "config" / "Ayar" / "ayar.conf") << "[ui]\nlanguage=tr\n";
  QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
  environment.insert(QStringLiteral("XDG_CONFIG_HOME"), QString::fromStdString((dir / "config").string()));
  const QString output = QString::fromStdString((dir / "report.md").string());
  int rc = -1;
  const QString said =
      runAyar({QStringLiteral("--store"), QString::fromStdString(store.string()), QStringLiteral("--report"),
               QStringLiteral("1,2"), QStringLiteral("--output"), output},
              &rc, environment);
  ASSERT_EQ(rc, 0) << said.toStdString();
  QFile file(output);
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  const QString markdown = QString::fromUtf8(file.readAll());
  EXPECT_TRUE(markdown.startsWith(QStringLiteral("# Çalıştırma karşılaştırması"))) << markdown.toStdString();
  // Two runs of the same requests: the same figure, and the interval says it is no difference at all.
  EXPECT_TRUE(markdown.contains(QRegularExpression(QStringLiteral(
      "\\| Ortalama TTFT \\(ms\\) \\| 52,00 \\| 52,00 \\| 1,00x daha hızlı: belirgin bir fark yok \\| "
      "[0-9],[0-9]{2}-[0-9],[0-9]{2} \\|"))))
      << markdown.toStdString();
}

TEST(HeadlessReport, BadInputIsNamedWithWhatToDo) {
  test::TempDir dir;
  const QString storeArg = QString::fromStdString((dir / "ayar.db").string());
  int rc = 0;
  QString said =
      runAyar({QStringLiteral("--store"), storeArg, QStringLiteral("--report"), QStringLiteral("abc"),
               QStringLiteral("--output"), QString::fromStdString((dir / "x.pdf").string())},
              &rc);
  EXPECT_EQ(rc, 1);
  EXPECT_TRUE(said.contains(QStringLiteral("--report abc"))) << said.toStdString();
  said = runAyar({QStringLiteral("--store"), storeArg, QStringLiteral("--report"), QStringLiteral("7"),
                  QStringLiteral("--output"), QString::fromStdString((dir / "x.pdf").string())},
                 &rc);
  EXPECT_EQ(rc, 1);
  EXPECT_TRUE(said.contains(QStringLiteral("run 7"))) << said.toStdString();
  said = runAyar({QStringLiteral("--store"), storeArg, QStringLiteral("--report"), QStringLiteral("1")}, &rc);
  EXPECT_EQ(rc, 1);
  EXPECT_TRUE(said.contains(QStringLiteral("--output"))) << said.toStdString();
}

// Without a display (a server over SSH, CI): the help and the version print, and a window that cannot
// open says why and what to use instead, instead of a core dump.
TEST(HeadlessReport, WithoutADisplayHelpPrintsAndTheWindowSaysWhatToDo) {
  QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
  for (const char* name : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
    environment.remove(QString::fromLatin1(name));
  int rc = -1;
  QString said = runAyar({QStringLiteral("--help")}, &rc, environment);
  EXPECT_EQ(rc, 0) << said.toStdString();
  EXPECT_TRUE(said.contains(QStringLiteral("--report"))) << said.toStdString();
  said = runAyar({QStringLiteral("--version")}, &rc, environment);
  EXPECT_EQ(rc, 0) << said.toStdString();
  said = runAyar({}, &rc, environment);
  EXPECT_EQ(rc, 1);
  EXPECT_TRUE(said.contains(QStringLiteral("no display"))) << said.toStdString();
  EXPECT_TRUE(said.contains(QStringLiteral("xvfb-run"))) << said.toStdString();
}

}  // namespace
}  // namespace ayar
