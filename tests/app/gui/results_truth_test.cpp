// What the workbench says of a run is what the run was: simulated runs are marked, a synthetic
// dataset is said, a figure a run does not have is absent (never 0.00), and a run that failed before
// its first request is kept and shown with its error. A real ayar-engine (timing simulator) and store.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSignalSpy>
#include <fstream>

#include "app/gui/compare_page.h"
#include "app/gui/history_model.h"
#include "app/gui/main_window.h"
#include "app/gui/results_page.h"
#include "app/gui/run_controller.h"
#include "app/gui/setup_panel.h"
#include "core/store/result_store.h"
#include "tests/app/gui/gui_test_support.h"
#include "tests/support/test_env.h"
#include "widgets/comparison_table_model.h"
#include "widgets/engine_flag_form.h"
#include "widgets/run_summary_view.h"

namespace ayar {
namespace {

// Runs `spec` from the Setup panel; returns the stored run's id and the error the window got.
std::pair<qint64, QString> runThrough(MainWindow& window, const RunSpec& spec) {
  window.setupPanel()->setRunSpec(spec);
  QSignalSpy finished(&window, &MainWindow::runFinished);
  EXPECT_TRUE(window.startRun()) << window.statusText().toStdString();
  EXPECT_TRUE(finished.wait(120000)) << "the run did not finish";
  if (finished.isEmpty()) return {-1, QStringLiteral("no end")};
  return {finished.front().at(0).toLongLong(), finished.front().at(1).toString()};
}

TEST(Results, ASimulatedRunIsMarkedAndASyntheticDatasetIsSaid) {
  test::clearSettings();
  test::TempDir dir;
  MainWindow window({dir / "ayar.db", QStringLiteral("en")});
  RunSpec spec = test::simRunSpec(5, 1, 6, 100.0, "synthetic");
  spec.profile.datasetName = "sharegpt";  // no file: the synthetic ShareGPT-like set stands in
  const auto [id, error] = runThrough(window, spec);
  ASSERT_GT(id, 0) << error.toStdString();
  // Right after the run, and opened again from the store.
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1) {
      ASSERT_TRUE(window.openRun(id));
    }
    EXPECT_TRUE(window.resultsPage()->headingText().contains(QStringLiteral("SIMULATED")))
        << window.resultsPage()->headingText().toStdString();
    EXPECT_TRUE(window.resultsPage()->summaryView()->textBlock().contains(
        QRegularExpression(QStringLiteral("Synthetic dataset: +yes"))))
        << window.resultsPage()->summaryView()->textBlock().toStdString();
  }
  HistoryModel& history = *window.historyModel();
  const int row = history.rowOfRun(id);
  ASSERT_GE(row, 0);
  EXPECT_TRUE(
      history.index(row, HistoryModel::Status).data().toString().contains(QStringLiteral("SIMULATED")));
  EXPECT_TRUE(history.index(row, HistoryModel::MeanTtft)
                  .data(Qt::ToolTipRole)
                  .toString()
                  .contains(QStringLiteral("simulator")));

  // Compare: the run's figures in the table, and its entry among the candidates, say so too.
  const auto [second, secondError] = runThrough(window, spec);
  ASSERT_GT(second, 0) << secondError.toStdString();
  window.compareRuns(id, {second});
  const ComparisonTableModel& table = *window.comparePage()->tableModel();
  ASSERT_GT(table.rowCount(), 0);
  const QString baselineName =
      table.headerData(ComparisonTableModel::Baseline, Qt::Horizontal, Qt::ToolTipRole).toString();
  EXPECT_TRUE(baselineName.contains(QStringLiteral("SIMULATED"))) << baselineName.toStdString();
  auto* baselineChoice = window.comparePage()->findChild<QComboBox*>(QStringLiteral("baselineRun"));
  ASSERT_NE(baselineChoice, nullptr);
  EXPECT_TRUE(baselineChoice->currentText().contains(QStringLiteral("SIMULATED")))
      << baselineChoice->currentText().toStdString();
  // And the exported report says it in its own language.
  const QString markdown = QString::fromStdString((dir / "comparison.md").string());
  ASSERT_TRUE(window.comparePage()->exportReport(markdown).isEmpty());
  QFile file(markdown);
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  const QString report = QString::fromUtf8(file.readAll());
  EXPECT_TRUE(report.contains(QStringLiteral("timing simulator"))) << report.left(600).toStdString();
  EXPECT_TRUE(report.contains(QRegularExpression(QStringLiteral("Synthetic dataset: +yes"))))
      << report.toStdString();

  window.setLanguage(QStringLiteral("tr"));
  EXPECT_TRUE(window.resultsPage()->headingText().contains(QStringLiteral("SİMÜLASYON")))
      << window.resultsPage()->headingText().toStdString();
  window.setLanguage(QStringLiteral("en"));
}

// Runs made with the CLI's defaults (no end-to-end percentiles asked for, as vLLM) compare on the
// latency their requests give; an imported summary without it shows the figure as absent, not 0.00.
TEST(Results, AFigureTheRecordsGiveIsComputedAndOneTheyCannotIsLeftOut) {
  test::clearSettings();
  test::TempDir dir;
  MainWindow window({dir / "ayar.db", QStringLiteral("en")});
  std::vector<qint64> ids;
  for (int tpot : {4, 2}) {
    RunSpec spec = test::simRunSpec(10, tpot, 20, 100.0, "cli defaults");
    spec.summary.percentileMetrics = {LatencyMetric::Ttft, LatencyMetric::Tpot, LatencyMetric::Itl};
    spec.summary.percentiles = {99.0};
    const auto [id, error] = runThrough(window, spec);
    ASSERT_GT(id, 0) << error.toStdString();
    ids.push_back(id);
  }
  const auto meanLatencyRow = [&](const ComparisonTableModel& table) {
    for (int r = 0; r < table.rowCount(); ++r) {
      if (table.index(r, ComparisonTableModel::Scenario)
              .data()
              .toString()
              .startsWith(QStringLiteral("Mean latency")))
        return r;
    }
    return -1;
  };
  window.compareRuns(ids[0], {ids[1]});
  const ComparisonTableModel& table = *window.comparePage()->tableModel();
  int row = meanLatencyRow(table);
  ASSERT_GE(row, 0);
  const double baseline =
      table.index(row, ComparisonTableModel::Baseline).data(ComparisonTableModel::SortRole).toDouble();
  EXPECT_GT(baseline, 10.0);  // TTFT 10 ms plus the decode
  EXPECT_NE(table.index(row, ComparisonTableModel::Baseline).data().toString(), QStringLiteral("0.00"));
  EXPECT_GT(table.index(row, ComparisonTableModel::Ratio).data(ComparisonTableModel::RatioRole).toDouble(),
            1.0);

  QStringList errors;
  const auto imported =
      window.importFiles({QStringLiteral(AYAR_INTEROP_FIXTURES "/vllm_summary.json")}, &errors);
  ASSERT_EQ(imported.size(), 1u) << errors.join(QLatin1Char('\n')).toStdString();
  window.compareRuns(imported.front(), {ids[0]});
  row = meanLatencyRow(table);
  ASSERT_GE(row, 0);
  EXPECT_EQ(table.index(row, ComparisonTableModel::Baseline).data().toString(), QStringLiteral("n/a"));
  EXPECT_FALSE(table.index(row, ComparisonTableModel::Ratio).data(ComparisonTableModel::RatioRole).isValid());
}

TEST(Results, ARunThatFailsBeforeItsFirstRequestIsKeptWithItsErrorAndLog) {
  test::clearSettings();
  test::TempDir dir;
  MainWindow window({dir / "ayar.db", QStringLiteral("en")});
  RunSpec spec = test::simRunSpec(5, 1, 4, 100.0, "never started");
  spec.engine.model = "no-such-preset";
  const auto [id, error] = runThrough(window, spec);
  EXPECT_FALSE(error.isEmpty());
  ASSERT_GT(id, 0) << "the failed run is not in the store";
  const auto run = window.store().findRun(id);
  ASSERT_TRUE(run);
  EXPECT_EQ(run->status, RunStatus::Failed);
  EXPECT_EQ(run->info.label, "never started");
  HistoryModel& history = *window.historyModel();
  ASSERT_GE(history.rowOfRun(id), 0);
  EXPECT_EQ(history.index(history.rowOfRun(id), HistoryModel::Status).data().toString(),
            QStringLiteral("failed"));
  // Shown where results are read, with the error and the engine's log.
  EXPECT_EQ(window.areas()->currentIndex(), MainWindow::ResultsArea);
  const QString note = window.resultsPage()->summaryView()->textBlock();
  EXPECT_TRUE(note.contains(QStringLiteral("failed before its first request"))) << note.toStdString();
  EXPECT_TRUE(note.contains(QString::fromStdString(run->info.engine.value("log", std::string("?")))))
      << note.toStdString();
  // Set up again brings it back into Setup, to mend and start.
  ASSERT_TRUE(window.setUpAgain(id));
  EXPECT_EQ(window.setupPanel()->runSpec().engine.model, "no-such-preset");
}

// What core says while a run goes and when it fails reaches a Turkish window in Turkish.
TEST(Results, CoresStagesAndErrorsReachATurkishWindowInTurkish) {
  test::clearSettings();
  test::TempDir dir;
  MainWindow window({dir / "ayar.db", QStringLiteral("tr")});
  RunSpec spec = test::simRunSpec(5, 1, 4, 2.5, "tr");
  const auto [id, error] = runThrough(window, spec);
  ASSERT_GT(id, 0) << error.toStdString();
  const QString log = window.engineLog()->toPlainText();
  for (const char* line : {"[ayar] tokenizer yükleniyor", "[ayar] bir deneme isteği gönderiliyor",
                           "[ayar] yük uygulanıyor, saniyede 2,5 istek: ", "[ayar] motor durduruluyor"})
    EXPECT_TRUE(log.contains(QString::fromUtf8(line))) << line << "\n" << log.toStdString();
  EXPECT_FALSE(log.contains(QStringLiteral("[ayar] running rate"))) << log.toStdString();

  spec.engine.model = "no-such-preset";
  const auto [failedId, failure] = runThrough(window, spec);
  EXPECT_TRUE(failure.contains(QStringLiteral("başlarken kapandı"))) << failure.toStdString();
  EXPECT_TRUE(failure.contains(QStringLiteral("Günlüğün son satırları")) ||
              failure.contains(QStringLiteral("Motor hiçbir şey yazmadı")))
      << failure.toStdString();
  EXPECT_TRUE(window.statusText().startsWith(QStringLiteral("Çalıştırma başarısız")))
      << window.statusText().toStdString();

  // The failed run, opened from the store, says its error in the window's language, and again in
  // the other one after a switch.
  ASSERT_GT(failedId, 0);
  ASSERT_TRUE(window.openRun(failedId));
  QString note = window.resultsPage()->summaryView()->textBlock();
  EXPECT_TRUE(note.contains(QStringLiteral("başlarken kapandı"))) << note.toStdString();
  window.setLanguage(QStringLiteral("en"));
  note = window.resultsPage()->summaryView()->textBlock();
  EXPECT_TRUE(note.contains(QStringLiteral("exited during start-up"))) << note.toStdString();
  EXPECT_FALSE(note.contains(QStringLiteral("başlarken"))) << note.toStdString();
}

// An imported file's notes (what it lacked, how it was read) are shown with its figures, in the
// window's language, and a file Ayar cannot read is named in it.
TEST(Results, AnImportsNotesAndErrorsAreShownInTheWindowsLanguage) {
  test::clearSettings();
  test::TempDir dir;
  MainWindow window({dir / "ayar.db", QStringLiteral("tr")});
  QStringList errors;
  const auto ids = window.importFiles({QStringLiteral(AYAR_INTEROP_FIXTURES "/vllm_summary.json")}, &errors);
  ASSERT_EQ(ids.size(), 1u) << errors.join(QLatin1Char('\n')).toStdString();
  ASSERT_TRUE(window.openRun(ids.front()));
  QString notes = window.resultsPage()->notesText();
  EXPECT_TRUE(notes.contains(QStringLiteral("--save-detailed olmadan kaydedilmiş"))) << notes.toStdString();
  EXPECT_FALSE(notes.contains(QStringLiteral("saved without"))) << notes.toStdString();
  window.setLanguage(QStringLiteral("en"));
  notes = window.resultsPage()->notesText();
  EXPECT_TRUE(notes.contains(QStringLiteral("saved without --save-detailed"))) << notes.toStdString();
  window.setLanguage(QStringLiteral("tr"));

  const auto bad = dir / "not-a-result.json";
  { std::ofstream(bad) << "{\"hello\": 1}"; }
  errors.clear();
  EXPECT_TRUE(window.importFiles({QString::fromStdString(bad.string())}, &errors).empty());
  ASSERT_EQ(errors.size(), 1);
  EXPECT_TRUE(errors.front().contains(QStringLiteral("Ayar'ın tanıdığı bir sonuç dosyası değil")))
      << errors.front().toStdString();
  EXPECT_TRUE(errors.front().contains(QStringLiteral("not-a-result.json"))) << errors.front().toStdString();

  // A run made here has no notes to show.
  const auto [id, error] = runThrough(window, test::simRunSpec(3, 1, 4, 100.0, "made here"));
  ASSERT_GT(id, 0) << error.toStdString();
  ASSERT_TRUE(window.openRun(id));
  EXPECT_TRUE(window.resultsPage()->notesText().isEmpty()) << window.resultsPage()->notesText().toStdString();
}

}  // namespace
}  // namespace ayar
