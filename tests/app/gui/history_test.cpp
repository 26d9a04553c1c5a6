#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QDateTime>
#include <QLineEdit>
#include <QLocale>
#include <QTableView>
#include <fstream>

#include "app/gui/history_model.h"
#include "app/gui/history_page.h"
#include "app/gui/main_window.h"
#include "app/gui/results_page.h"
#include "core/store/result_store.h"
#include "core/store/run_writer.h"
#include "tests/app/gui/gui_test_support.h"
#include "tests/support/test_env.h"
#include "widgets/distribution_chart.h"

namespace ayar {
namespace {

RequestRecord record(int index) {
  RequestRecord r;
  r.index = index;
  r.startS = index * 0.1;
  r.chunkTimesS = {0.020 + index * 0.001, 0.030 + index * 0.001};
  r.promptTokens = 10;
  r.outputTokens = 2;
  r.success = true;
  r.httpStatus = 200;
  return r;
}

TEST(HistoryModel, PassesTheModelTesterOnARealStore) {
  test::TempDir dir;
  {
    RunInfo info;
    info.label = "a";
    RunWriter writer(dir / "ayar.db", info);
    writer.addRecord(record(0));
  }
  ResultStore store(dir / "ayar.db");
  HistoryModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setRuns(store.listRuns());
  ASSERT_EQ(model.rowCount(), 1);
  HistoryFilter filter;
  QAbstractItemModelTester filterTester(&filter, QAbstractItemModelTester::FailureReportingMode::Fatal);
  filter.setSourceModel(&model);
  filter.setSearchText(QStringLiteral("nothing-like-this"));
  EXPECT_EQ(filter.rowCount(), 0);
  filter.setSearchText(QStringLiteral("A"));
  EXPECT_EQ(filter.rowCount(), 1);
}

// A run made by a study names it (number and name) in its own column, and a search for the study's
// name finds its runs and nothing else.
TEST(HistoryModel, RunsOfAStudyNameItAndASearchForItFindsThem) {
  test::TempDir dir;
  std::int64_t studyId = 0;
  {
    ResultStore store(dir / "ayar.db");
    studyId = store.createStudy("latency-sweep", {});
  }
  for (const bool ofStudy : {true, false}) {
    RunInfo info;
    if (ofStudy) info.studyId = studyId;
    RunWriter writer(dir / "ayar.db", info);
    writer.addRecord(record(0));
  }
  ResultStore store(dir / "ayar.db");
  std::map<std::int64_t, std::string> names;
  for (const StoredStudy& study : store.listStudies())
    names.emplace(study.id, study.name);
  HistoryModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setRuns(store.listRuns(), names);
  ASSERT_EQ(model.rowCount(), 2);
  QStringList studyCells;
  for (int row = 0; row < 2; ++row)
    studyCells.append(model.index(row, HistoryModel::Study).data().toString());
  studyCells.sort();
  EXPECT_EQ(studyCells, (QStringList{QString(), QStringLiteral("#%1 latency-sweep").arg(studyId)}));
  EXPECT_EQ(model.headerData(HistoryModel::Study, Qt::Horizontal).toString(), QStringLiteral("Study"));
  HistoryFilter filter;
  filter.setSourceModel(&model);
  filter.setSearchText(QStringLiteral("latency-SWEEP"));
  EXPECT_EQ(filter.rowCount(), 1);
}

// A run whose writer died (the app was killed mid-run) lists as interrupted and opens with every
// request it finished.
TEST(History, ARunCutShortByACrashShowsAsInterruptedWithItsRequests) {
  test::clearSettings();
  test::TempDir dir;
  {
    RunInfo info;
    info.label = "crashed";
    RunWriter writer(dir / "ayar.db", info);
    for (int i = 0; i < 12; ++i)
      writer.addRecord(record(i));
  }  // no finish(): as if the process had died
  {
    RunInfo info;
    info.label = "other";
    info.model = "qwen3-8b";
    RunWriter writer(dir / "ayar.db", info);
    writer.addRecord(record(0));
    writer.finish(RunStatus::Completed, nlohmann::json::object(), nlohmann::json::object());
  }
  MainWindow window({dir / "ayar.db", QStringLiteral("en")});
  HistoryModel* model = window.historyModel();
  ASSERT_EQ(model->rowCount(), 2);
  const int row = model->rowOfRun(1);
  ASSERT_GE(row, 0);
  EXPECT_EQ(model->index(row, HistoryModel::Status).data().toString(), QStringLiteral("interrupted"));
  ASSERT_TRUE(window.openRun(1));
  const auto counts = window.resultsPage()->chart(LatencyMetric::Ttft)->histogramCounts();
  int total = 0;
  for (int c : counts)
    total += c;
  EXPECT_EQ(total, 12);

  // Search narrows the list by model, label or status words.
  HistoryPage* page = window.historyPage();
  page->searchField()->setText(QStringLiteral("qwen3-8b"));
  EXPECT_EQ(page->table()->model()->rowCount(), 1);
  page->searchField()->setText(QStringLiteral("interrupted crashed"));
  EXPECT_EQ(page->table()->model()->rowCount(), 1);
  page->searchField()->clear();
  EXPECT_EQ(page->table()->model()->rowCount(), 2);
}

TEST(History, ImportedResultFilesBecomeRunsAndBadFilesAreNamed) {
  test::clearSettings();
  test::TempDir dir;
  MainWindow window({dir / "ayar.db", QStringLiteral("en")});
  QStringList errors;
  const QString good = QStringLiteral(AYAR_INTEROP_FIXTURES "/vllm_detailed.json");
  const auto ids = window.importFiles({good}, &errors);
  EXPECT_TRUE(errors.isEmpty()) << errors.join(QLatin1Char('\n')).toStdString();
  ASSERT_EQ(ids.size(), 1u);
  EXPECT_EQ(window.historyModel()->rowCount(), 1);
  EXPECT_TRUE(window.openRun(ids.front()));
  EXPECT_FALSE(window.setUpAgain(ids.front()));  // an import has no set-up to repeat
  EXPECT_TRUE(window.statusText().contains(QStringLiteral("not made by Ayar")))
      << window.statusText().toStdString();

  const auto bad = dir / "not-a-result.json";
  { std::ofstream(bad) << "{\"hello\": 1}"; }
  const auto none = window.importFiles({QString::fromStdString(bad.string())}, &errors);
  EXPECT_TRUE(none.empty());
  ASSERT_EQ(errors.size(), 1);
  EXPECT_TRUE(errors.front().contains(QStringLiteral("not-a-result.json"))) << errors.front().toStdString();
}

TEST(History, DeleteHidesTheRunUntilItsUndoTimeEndsAndUndoBringsItBack) {
  test::clearSettings();
  test::TempDir dir;
  {
    RunWriter writer(dir / "ayar.db", RunInfo{});
    writer.addRecord(record(0));
    writer.finish(RunStatus::Completed, nlohmann::json::object(), nlohmann::json::object());
  }
  MainWindow window({dir / "ayar.db", QStringLiteral("en")});
  HistoryPage* page = window.historyPage();
  page->table()->selectRow(0);
  ASSERT_EQ(page->selectedRuns().size(), 1u);
  page->deleteSelected();
  EXPECT_EQ(page->table()->model()->rowCount(), 0);
  EXPECT_TRUE(window.store().findRun(1));  // not yet gone: undo is possible
  page->undoDelete();
  EXPECT_EQ(page->table()->model()->rowCount(), 1);
  page->table()->selectRow(0);
  page->deleteSelected();
  page->commitDeletes();
  EXPECT_FALSE(window.store().findRun(1));
}

// Dates read the same way in every row and in both languages: a four-digit year, the 24-hour clock.
TEST(HistoryModel, DatesHaveAFourDigitYearInTheLanguagesOrder) {
  const QLocale old;
  const double when = QDateTime(QDate(2026, 12, 4), QTime(15, 7)).toMSecsSinceEpoch() / 1000.0;
  QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
  EXPECT_EQ(HistoryModel::dateText(when), QStringLiteral("2026-12-04 15:07"));
  QLocale::setDefault(QLocale(QLocale::Turkish, QLocale::Turkey));
  EXPECT_EQ(HistoryModel::dateText(when), QStringLiteral("04.12.2026 15:07"));
  QLocale::setDefault(old);
}

}  // namespace
}  // namespace ayar
