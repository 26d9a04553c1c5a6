// The Studies area as a user drives it: a study file run through the page (real ayar-engine processes
// with the timing simulator, a real store), its grid filling in, a done cell opened in Results, the
// report exported; a study stopped from the page, and one killed in ayar-cli, resumed from the page
// without redoing finished cells.
#include <gtest/gtest.h>
#include <signal.h>

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTableView>
#include <QTextBrowser>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "app/gui/main_window.h"
#include "app/gui/results_page.h"
#include "app/gui/studies_page.h"
#include "app/gui/study_controller.h"
#include "app/gui/study_list_model.h"
#include "app/gui/study_report_charts.h"
#include "core/store/result_store.h"
#include "core/study/study_report.h"
#include "tests/app/gui/gui_test_support.h"
#include "tests/app/gui/report_checks.h"
#include "tests/support/test_env.h"
#include "widgets/study_grid_model.h"
#include "widgets/study_grid_view.h"

namespace ayar {
namespace {

using namespace std::chrono_literals;

// Two configurations of the simulator with fixed timings (fixed:40,8 is 1.25x faster than
// fixed:50,10 on every latency), one option profile and one follow-up profile: four cells.
QString writeStudy(const test::TempDir& dir) {
  const auto path = dir / "gui-study.json";
  std::ofstream out(path);
  out << R"({
    "name": "gui-study",
    "title": {"en": "GUI study", "tr": "Arayüz çalışması"},
    "baseline": {"engine": {"kind": "bundled", "model": "qwen3-0.6b", "device": "sim",
                            "flags": [{"name": "--sim-profile", "value": "fixed:50,10"}]}},
    "variants": [{"name": "fast", "title": {"en": "Fast timings", "tr": "Hızlı süreler"},
                  "add_flags": [{"name": "--sim-profile", "value": "fixed:40,8"}]}],
    "profiles": [{"name": "steady", "dataset_name": "random", "num_prompts": 10, "random_input_len": 16,
                  "random_output_len": 20, "ignore_eos": true, "request_rate": 10, "burstiness": "inf"}],
    "follow_up_profiles": [{"name": "burst", "dataset_name": "random", "num_prompts": 8,
                            "random_input_len": 16, "random_output_len": 20, "ignore_eos": true,
                            "request_rate": "inf"}],
    "deciding_figure": "mean_e2el_ms",
    "tokenizer": ")"
      << test::tokenizerDir().string() << R"("
  })";
  return QString::fromStdString(path.string());
}

// The runs of a study that completed, by id.
std::set<std::int64_t> completedRuns(ResultStore& store, std::int64_t study) {
  RunFilter filter;
  filter.studyId = study;
  filter.status = RunStatus::Completed;
  std::set<std::int64_t> ids;
  for (const StoredRun& run : store.listRuns(filter))
    ids.insert(run.id);
  return ids;
}

TEST(StudyListModel, PassesTheModelTesterOnARealStore) {
  test::TempDir dir;
  ResultStore store(dir / "ayar.db");
  const std::int64_t id = store.createStudy("listed", nlohmann::json::object());
  StudyCell cell;
  cell.configuration = "baseline";
  cell.profile = "steady";
  store.addStudyCells(id, {cell});
  StudyListModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setStudies(StudyListModel::read(store, "en"));
  ASSERT_EQ(model.rowCount(), 1);
  EXPECT_EQ(model.index(0, StudyListModel::Name).data().toString(), QStringLiteral("listed"));
  EXPECT_EQ(model.index(0, StudyListModel::Cells).data().toString(), QStringLiteral("0 of 1"));
  model.setStudies({});
  EXPECT_EQ(model.rowCount(), 0);
}

TEST(Studies, AStudyFileRunsThroughThePageFillsTheGridOpensACellsRunAndExportsItsReport) {
  test::clearSettings();
  test::TempDir dir;
  MainWindow window({dir / "ayar.db", QStringLiteral("en")});
  window.show();
  window.showArea(MainWindow::StudiesArea);
  StudiesPage* page = window.studiesPage();
  StudyGridModel* grid = page->gridModel();
  QAbstractItemModelTester tester(grid, QAbstractItemModelTester::FailureReportingMode::Fatal);

  // What the grid showed while the study ran, cell by cell.
  std::set<int> statesSeen;
  QObject::connect(grid, &QAbstractItemModel::dataChanged,
                   [&](const QModelIndex& from, const QModelIndex& to) {
                     for (int r = from.row(); r <= to.row(); ++r) {
                       for (int c = from.column(); c <= to.column(); ++c) {
                         const QVariant status = grid->index(r, c).data(StudyGridModel::StatusRole);
                         if (status.isValid()) statesSeen.insert(status.toInt());
                       }
                     }
                   });
  // Updates come from the 100 ms timer: at most about ten a second, whatever the cells do.
  int updates = 0;
  std::vector<qint64> updateTimes;
  QElapsedTimer clock;
  clock.start();
  const auto tick = [&] {
    if (updateTimes.empty() || clock.elapsed() - updateTimes.back() > 20)
      updateTimes.push_back(clock.elapsed());
  };
  QObject::connect(window.studyController(), &StudyController::cellsChanged, [&] {
    ++updates;
    tick();
  });
  QObject::connect(window.studyController(), &StudyController::progressChanged, tick);
  QSignalSpy finished(page, &StudiesPage::studyFinished);
  const qint64 id = page->startStudy(writeStudy(dir));
  ASSERT_GT(id, 0) << window.statusText().toStdString();
  EXPECT_TRUE(window.studyController()->isRunning());
  EXPECT_TRUE(page->stopButton()->isEnabled());
  ASSERT_EQ(grid->rowCount(), 2);     // baseline, fast
  ASSERT_EQ(grid->columnCount(), 2);  // steady, burst (follow-up)
  ASSERT_TRUE(finished.wait(180000)) << "the study did not finish";
  EXPECT_FALSE(finished.front().at(1).toBool());
  EXPECT_TRUE(finished.front().at(2).toString().isEmpty()) << finished.front().at(2).toString().toStdString();
  EXPECT_GE(updates, 2);
  EXPECT_LE(static_cast<qint64>(updateTimes.size()), clock.elapsed() / 90 + 2)
      << updateTimes.size() << " updates in " << clock.elapsed() << " ms";
  EXPECT_TRUE(statesSeen.count(static_cast<int>(CellStatus::Running))) << "no cell was seen running";
  EXPECT_FALSE(page->stopButton()->isEnabled());

  // The grid: every cell done with its figure; the fast configuration 1.25x faster and recommended,
  // so it ran the follow-up beside the baseline.
  EXPECT_EQ(grid->cellCount(), 4);
  EXPECT_EQ(grid->count(CellStatus::Done), 4);
  const QModelIndex fastSteady = grid->cellIndex("fast", "steady", "options");
  EXPECT_NEAR(fastSteady.data(StudyGridModel::SpeedupRole).toDouble(), 1.25, 0.06);
  EXPECT_TRUE(fastSteady.data().toString().endsWith(QStringLiteral(" ms")))
      << fastSteady.data().toString().toStdString();
  EXPECT_TRUE(grid->cellIndex("fast", "burst", "follow-up").data(StudyGridModel::RunIdRole).isValid());
  EXPECT_TRUE(grid->headerData(1, Qt::Vertical).toString().startsWith(QStringLiteral("★")));

  // The list: the study completed with its cells.
  const int row = page->listModel()->rowOfStudy(id);
  ASSERT_GE(row, 0);
  EXPECT_EQ(page->listModel()->index(row, StudyListModel::Status).data().toString(),
            QStringLiteral("completed"));
  EXPECT_EQ(page->listModel()->index(row, StudyListModel::Cells).data().toString(), QStringLiteral("4 of 4"));

  // The report: the recommendation with its serving command, and core's report in the page.
  EXPECT_TRUE(page->recommendationLabel()->text().contains(QStringLiteral("Fast timings")))
      << page->recommendationLabel()->text().toStdString();
  EXPECT_TRUE(page->recommendationLabel()->text().contains(QStringLiteral("faster")));
  EXPECT_TRUE(page->servingCommand()->text().contains(QStringLiteral("fixed:40,8")))
      << page->servingCommand()->text().toStdString();
  EXPECT_TRUE(page->reportView()->toPlainText().contains(QStringLiteral("GUI study")));

  // A done cell opens its run in Results.
  const qint64 run = fastSteady.data(StudyGridModel::RunIdRole).toLongLong();
  emit page->gridView()->activated(fastSteady);
  EXPECT_EQ(window.areas()->currentIndex(), MainWindow::ResultsArea);
  EXPECT_TRUE(window.resultsPage()->runTitle().startsWith(QStringLiteral("#%1 ").arg(run)))
      << window.resultsPage()->runTitle().toStdString();

  // The report in Turkish, every format, naming the study.
  page->setReportLanguage(ReportLanguage::Turkish);
  EXPECT_TRUE(page->reportView()->toPlainText().contains(QStringLiteral("Arayüz çalışması")));
  const QString base = QString::fromStdString((dir / "study-report").string());
  for (const char* suffix : {".pdf", ".html", ".md", ".csv", ".json"}) {
    const QString error = page->exportReport(base + QLatin1String(suffix));
    EXPECT_TRUE(error.isEmpty()) << suffix << ": " << error.toStdString();
  }
  const auto read = [&](const char* suffix) {
    QFile file(base + QLatin1String(suffix));
    EXPECT_TRUE(file.open(QIODevice::ReadOnly)) << suffix;
    return QString::fromUtf8(file.readAll());
  };
  const auto json = nlohmann::json::parse(read(".json").toStdString());
  EXPECT_EQ(json["language"], "tr");
  EXPECT_EQ(json["data"]["study"], "gui-study");
  EXPECT_EQ(json["data"]["recommended"], "fast");
  EXPECT_TRUE(read(".md").contains(QStringLiteral("# Arayüz çalışması")));
  const QString html = read(".html");
  EXPECT_TRUE(html.contains(QStringLiteral("Arayüz çalışması")));
  // One chart per option profile: the configurations' end-to-end latency distributions, named in
  // the report's language.
  EXPECT_EQ(html.count(QStringLiteral("data:image/png;base64,")), 1);
  EXPECT_TRUE(html.contains(QStringLiteral("Birikimli dağılım: Uçtan uca gecikme — steady")))
      << html.toStdString();
  // People read Markdown, HTML and PDF in Turkish numbers; CSV and JSON keep the C locale's.
  const QRegularExpression turkishRow(QStringLiteral(
      "steady[ |<>/a-z=\"]+[0-9]+,[0-9]{2}[ |<>/a-z=\"]+[0-9]+,[0-9]{2}[ |<>/a-z=\"]+1,2[0-9]x daha hızlı"));
  EXPECT_TRUE(read(".md").contains(turkishRow)) << read(".md").toStdString();
  EXPECT_TRUE(html.contains(turkishRow));
  EXPECT_TRUE(read(".csv").contains(QRegularExpression(
      QStringLiteral(",steady,[0-9]+\\.[0-9]{2},[0-9]+\\.[0-9]{2},1\\.2[0-9]x daha hızlı"))))
      << read(".csv").toStdString();
  EXPECT_FALSE(read(".json").contains(QRegularExpression(QStringLiteral("1,2[0-9]x daha"))));
  // The configuration's title ("Hızlı süreler") opens the recommendation's sentence; the figure
  // inside it is not capitalised.
  EXPECT_TRUE(read(".md").contains(QRegularExpression(
      QStringLiteral("\\nHızlı süreler, “steady” profilinde ortalama gecikme açısından en iyi "
                     "yapılandırmadır: 1,2[0-9]x daha hızlı\\."))))
      << read(".md").toStdString();

  // The PDF: cells apart, Turkish numbers, every page with content, the chart across the text width
  // (its legend as large as the text).
  const QString pdf = base + QStringLiteral(".pdf");
  const QString layout = test::pdfText(pdf, 0, true);
  EXPECT_TRUE(layout.contains(QStringLiteral("Arayüz çalışması")));
  EXPECT_FALSE(layout.contains(QStringLiteral("edilmişKarşılaştırma"))) << layout.toStdString();
  EXPECT_TRUE(layout.contains(QRegularExpression(QStringLiteral("Optimize edilmiş {2,}Karşılaştırma"))))
      << layout.toStdString();
  EXPECT_TRUE(layout.contains(
      QRegularExpression(QStringLiteral("steady +[0-9]+,[0-9]{2} +[0-9]+,[0-9]{2} +1,2[0-9]x daha hızlı"))))
      << layout.toStdString();
  const QList<QStringList> pages = test::pdfPageLines(pdf);
  ASSERT_FALSE(pages.isEmpty());
  for (int number = 1; number <= static_cast<int>(pages.size()); ++number) {
    ASSERT_GE(pages[number - 1].size(), 2) << "page " << number << " holds nothing but its number";
    EXPECT_EQ(pages[number - 1].last(), QStringLiteral("Sayfa %1 / %2").arg(number).arg(pages.size()));
  }
  EXPECT_EQ(
      test::headingsEndingAPage(
          pdf,
          test::headingsAndCaptions(buildStudyReport(window.store().path(), id, ReportLanguage::Turkish),
                                    studyReportCharts(window.store().path(), id, ReportLanguage::Turkish)),
          QStringLiteral("Sayfa")),
      QStringList());
  const QList<test::PdfImage> images = test::pdfImages(pdf);
  ASSERT_EQ(images.size(), 1);
  EXPECT_GT(images.front().shownWidthInches(), 6.0);
  EXPECT_GE(images.front().width, 1700);

  // The export says, in the UI language, the whole path it wrote.
  EXPECT_TRUE(page->exportReport(base + QStringLiteral(".html")).isEmpty());
  EXPECT_EQ(window.statusText(), QStringLiteral("Report written to %1").arg(base + QStringLiteral(".html")));
}

TEST(Studies, StopKeepsFinishedCellsAndResumeFinishesWithoutRedoingThem) {
  test::clearSettings();
  test::TempDir dir;
  MainWindow window({dir / "ayar.db", QStringLiteral("en")});
  StudiesPage* page = window.studiesPage();
  QSignalSpy finished(page, &StudiesPage::studyFinished);
  const qint64 id = page->startStudy(writeStudy(dir));
  ASSERT_GT(id, 0) << window.statusText().toStdString();
  ASSERT_TRUE(test::waitFor([&] { return page->gridModel()->count(CellStatus::Done) >= 1; }, 120s));
  page->stopButton()->click();
  ASSERT_TRUE(finished.wait(60000));
  EXPECT_TRUE(finished.front().at(1).toBool()) << "the study was not stopped";
  ResultStore& store = window.store();
  EXPECT_EQ(store.findStudy(id)->status, RunStatus::Cancelled);
  const auto before = store.listStudyCells(id);
  ASSERT_EQ(before[0].status, CellStatus::Done);
  const auto firstRun = before[0].runId;
  const std::size_t doneBefore = completedRuns(store, id).size();
  EXPECT_LT(doneBefore, 4u);
  EXPECT_EQ(
      page->listModel()->index(page->listModel()->rowOfStudy(id), StudyListModel::Status).data().toString(),
      QStringLiteral("stopped"));
  EXPECT_TRUE(page->resumeButton()->isEnabled());

  finished.clear();
  page->resumeButton()->click();
  ASSERT_TRUE(finished.wait(180000));
  EXPECT_FALSE(finished.front().at(1).toBool());
  EXPECT_EQ(store.findStudy(id)->status, RunStatus::Completed);
  const auto after = store.listStudyCells(id);
  ASSERT_EQ(after.size(), 4u);
  EXPECT_EQ(after[0].runId, firstRun) << "the finished cell ran again";
  EXPECT_EQ(completedRuns(store, id).size(), 4u) << "a finished cell ran again";
  EXPECT_EQ(page->gridModel()->count(CellStatus::Done), 4);
}

// The issue's case from the GUI side: ayar-cli killed after the first cell; the workbench lists the
// study as interrupted and resumes it.
TEST(Studies, AStudyKilledInTheCliListsAsInterruptedAndResumesFromThePage) {
  test::clearSettings();
  test::TempDir dir;
  const auto storePath = dir / "ayar.db";
  std::optional<std::int64_t> firstRun;
  {
    QProcess cli;
    cli.setProcessChannelMode(QProcess::MergedChannels);
    cli.start(QStringLiteral(AYAR_CLI_BIN),
              {QStringLiteral("study"), QStringLiteral("run"), writeStudy(dir), QStringLiteral("--store"),
               QString::fromStdString(storePath.string()), QStringLiteral("--quiet")});
    ASSERT_TRUE(cli.waitForStarted(10000));
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (!firstRun && std::chrono::steady_clock::now() < deadline) {
      if (std::filesystem::exists(storePath)) {
        ResultStore reader(storePath);
        const auto cells = reader.listStudyCells(1);
        if (!cells.empty() && cells[0].status == CellStatus::Done) firstRun = cells[0].runId;
      }
      ASSERT_EQ(cli.state(), QProcess::Running) << cli.readAll().toStdString();
      std::this_thread::sleep_for(20ms);  // polling another process's store
    }
    ASSERT_TRUE(firstRun) << cli.readAll().toStdString();
    ::kill(static_cast<pid_t>(cli.processId()), SIGKILL);
    ASSERT_TRUE(cli.waitForFinished(30000));
  }

  MainWindow window({storePath, QStringLiteral("en")});
  StudiesPage* page = window.studiesPage();
  const int row = page->listModel()->rowOfStudy(1);
  ASSERT_GE(row, 0);
  EXPECT_EQ(page->listModel()->index(row, StudyListModel::Status).data().toString(),
            QStringLiteral("interrupted"));
  EXPECT_EQ(page->listModel()->index(row, StudyListModel::Status).data(StudyListModel::StatusRole).toInt(),
            static_cast<int>(RunStatus::Interrupted));
  page->studyTable()->selectRow(row);
  EXPECT_EQ(page->shownStudy(), 1);
  EXPECT_EQ(page->gridModel()->index(0, 0).data(StudyGridModel::RunIdRole).toLongLong(), *firstRun);
  ASSERT_TRUE(page->resumeButton()->isEnabled());

  QSignalSpy finished(page, &StudiesPage::studyFinished);
  page->resumeButton()->click();
  ASSERT_TRUE(finished.wait(180000));
  EXPECT_TRUE(finished.front().at(2).toString().isEmpty()) << finished.front().at(2).toString().toStdString();
  ResultStore& store = window.store();
  EXPECT_EQ(store.findStudy(1)->status, RunStatus::Completed);
  const auto cells = store.listStudyCells(1);
  ASSERT_EQ(cells.size(), 4u);
  EXPECT_EQ(cells[0].runId, firstRun);
  EXPECT_EQ(completedRuns(store, 1).size(), 4u) << "a finished cell ran again";
  EXPECT_EQ(page->gridModel()->count(CellStatus::Done), 4);
  EXPECT_EQ(
      page->listModel()->index(page->listModel()->rowOfStudy(1), StudyListModel::Status).data().toString(),
      QStringLiteral("completed"));
}

// A study file that cannot start is said on the Studies page, where it was started, in the window's
// language (the file's own fault in it too), and again in the other language after a switch.
TEST(Studies, ABadStudyFileIsSaidOnThePageInTheWindowsLanguage) {
  test::clearSettings();
  test::TempDir dir;
  MainWindow window({dir / "ayar.db", QStringLiteral("tr")});
  window.show();
  window.showArea(MainWindow::StudiesArea);
  StudiesPage* page = window.studiesPage();
  EXPECT_TRUE(page->startErrorText().isEmpty());
  const auto bad = dir / "bad-study.json";
  {
    std::ofstream(bad) << R"({"name": "x", "profiles": ["gpu-quick"],
      "baseline": {"engine": "ayar", "model": "qwen3-0.6b"}, "variants": []})";
  }
  EXPECT_EQ(page->startStudy(QString::fromStdString(bad.string())), -1);
  QString said = page->startErrorText();
  EXPECT_TRUE(said.startsWith(QStringLiteral("Çalışma başlatılamıyor"))) << said.toStdString();
  EXPECT_TRUE(said.contains(QString::fromStdString(bad.string()))) << said.toStdString();
  EXPECT_TRUE(said.contains(QStringLiteral("bilinmeyen alan"))) << said.toStdString();
  EXPECT_FALSE(said.contains(QStringLiteral("unknown field"))) << said.toStdString();
  EXPECT_EQ(window.statusText(), said);
  window.setLanguage(QStringLiteral("en"));
  said = page->startErrorText();
  EXPECT_TRUE(said.startsWith(QStringLiteral("Cannot start the study"))) << said.toStdString();
  EXPECT_TRUE(said.contains(QStringLiteral("unknown field"))) << said.toStdString();

  // Another bad start says its own fault, not the last one's.
  EXPECT_EQ(page->startStudy(QString::fromStdString((dir / "missing.json").string())), -1);
  said = page->startErrorText();
  EXPECT_TRUE(said.contains(QStringLiteral("missing.json"))) << said.toStdString();
  EXPECT_FALSE(said.contains(QStringLiteral("unknown field"))) << said.toStdString();
}

}  // namespace
}  // namespace ayar
