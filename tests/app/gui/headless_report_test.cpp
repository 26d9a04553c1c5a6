// `ayar --report ... --output FILE` writes a report without a window.
#include <gtest/gtest.h>

#include <QFile>
#include <QProcess>

#include "core/interop/result_import.h"
#include "core/store/result_store.h"
#include "tests/support/test_env.h"

namespace ayar {
namespace {

QString runAyar(const QStringList& arguments, int* exitCode) {
  QProcess process;
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

}  // namespace
}  // namespace ayar
