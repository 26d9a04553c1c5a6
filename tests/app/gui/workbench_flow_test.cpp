// The whole workbench as a user drives it: Setup, Live, Results, Compare, with a real ayar-engine
// (timing simulator, fixed timings) and a real store.
#include <gtest/gtest.h>

#include <QAction>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <algorithm>
#include <nlohmann/json.hpp>

#include "app/gui/compare_page.h"
#include "app/gui/history_model.h"
#include "app/gui/live_page.h"
#include "app/gui/main_window.h"
#include "app/gui/results_page.h"
#include "app/gui/run_controller.h"
#include "app/gui/setup_panel.h"
#include "core/store/result_store.h"
#include "tests/app/gui/gui_test_support.h"
#include "tests/support/test_env.h"
#include "widgets/box_plot_chart.h"
#include "widgets/comparison_table_model.h"
#include "widgets/distribution_chart.h"
#include "widgets/run_summary_model.h"
#include "widgets/run_summary_view.h"
#include "widgets/time_series_chart.h"

namespace ayar {
namespace {

using namespace std::chrono_literals;

int sum(const QList<int>& values) {
  int total = 0;
  for (int v : values)
    total += v;
  return total;
}

// Runs what the Setup holds and waits for the results; returns the stored run's id.
qint64 runToTheEnd(MainWindow& window) {
  QSignalSpy finished(&window, &MainWindow::runFinished);
  EXPECT_TRUE(window.startRun()) << window.statusText().toStdString();
  EXPECT_TRUE(finished.wait(120000)) << "the run did not finish";
  if (finished.isEmpty()) return -1;
  EXPECT_TRUE(finished.front().at(1).toString().isEmpty()) << finished.front().at(1).toString().toStdString();
  return finished.front().at(0).toLongLong();
}

TEST(Workbench, TwoSimRunsFillTheLiveChartsAndResultsAndCompareAsTheirTimingsSay) {
  test::clearSettings();
  test::TempDir dir;
  MainWindow window({dir / "ayar.db", QStringLiteral("en")});
  window.show();

  // Baseline: TTFT 40 ms, TPOT 4 ms, 200 requests.
  window.setupPanel()->setRunSpec(test::simRunSpec(40, 4, 200, 100.0, "baseline"));
  std::size_t updates = 0;
  QObject::connect(window.controller(), &RunController::updated, [&] { ++updates; });
  const qint64 baseline = runToTheEnd(window);
  ASSERT_GT(baseline, 0);
  EXPECT_GE(updates, 1u);

  // Live: one point per request (fewer than the decimation threshold), tokens/s and in-flight lines.
  EXPECT_EQ(window.controller()->records().size(), 200u);
  EXPECT_EQ(window.livePage()->latencyChart()->shownPoints(0).size(), 200);
  EXPECT_FALSE(window.livePage()->throughputChart()->shownPoints(0).isEmpty());
  EXPECT_FALSE(window.livePage()->stopButton()->isEnabled());

  // Results: histograms count every request, in a bar or as left off the axis (a few far outliers at
  // most); TTFT sits at the simulator's 40 ms.
  EXPECT_EQ(window.areas()->currentIndex(), MainWindow::ResultsArea);
  for (LatencyMetric metric : {LatencyMetric::Ttft, LatencyMetric::E2el}) {
    const DistributionChart* chart = window.resultsPage()->chart(metric);
    EXPECT_EQ(sum(chart->histogramCounts()) + chart->histogramOutside(), 200);
    EXPECT_LE(chart->histogramOutside(), 4);
  }
  const auto ttftMarkers = window.resultsPage()->chart(LatencyMetric::Ttft)->markers();
  ASSERT_FALSE(ttftMarkers.isEmpty());
  EXPECT_NEAR(ttftMarkers.front().x(), 40.0, 10.0);
  EXPECT_TRUE(
      window.resultsPage()->summaryView()->textBlock().contains(QStringLiteral("Serving Benchmark Result")));
  EXPECT_GT(window.resultsPage()->summaryView()->model()->rowCount(), 0);

  // Candidate: TTFT 20 ms, same TPOT.
  window.setupPanel()->setRunSpec(test::simRunSpec(20, 4, 200, 100.0, "candidate"));
  const qint64 candidate = runToTheEnd(window);
  ASSERT_GT(candidate, baseline);

  ResultStore& store = window.store();
  EXPECT_EQ(store.findRun(baseline)->status, RunStatus::Completed);
  EXPECT_EQ(store.findRun(candidate)->storedRequests, 200);
  EXPECT_EQ(window.historyModel()->rowCount(), 2);

  window.compareRuns(baseline, {candidate});
  EXPECT_EQ(window.areas()->currentIndex(), MainWindow::CompareArea);
  ComparePage* compare = window.comparePage();
  ASSERT_EQ(compare->runs().size(), 2u);
  EXPECT_EQ(compare->cdfChart()->cdfCount(), 2);
  EXPECT_EQ(compare->boxChart()->boxes().size(), 2);
  const ComparisonTableModel* table = compare->tableModel();
  if (table->intervalsPending()) {  // computed off the GUI thread
    QSignalSpy ready(table, &ComparisonTableModel::intervalsReady);
    ASSERT_TRUE(ready.wait(30000));
  }
  bool sawTtft = false;
  for (int r = 0; r < table->rowCount(); ++r) {
    const QString scenario = table->index(r, ComparisonTableModel::Scenario).data().toString();
    if (!scenario.startsWith(QStringLiteral("Mean TTFT"))) continue;
    sawTtft = true;
    const double ratio =
        table->index(r, ComparisonTableModel::Ratio).data(ComparisonTableModel::RatioRole).toDouble();
    EXPECT_NEAR(ratio, 2.0, 0.4);  // 40 ms -> 20 ms
    EXPECT_TRUE(
        table->index(r, ComparisonTableModel::Ratio).data().toString().endsWith(QStringLiteral("x faster")));
    // 200 requests a run: halving TTFT is far outside the runs' own spread.
    EXPECT_TRUE(
        table->index(r, ComparisonTableModel::Interval).data(ComparisonTableModel::ClearRole).toBool());
    EXPECT_GT(table->index(r, ComparisonTableModel::Interval).data(ComparisonTableModel::SortRole).toDouble(),
              1.0);
  }
  EXPECT_TRUE(sawTtft);
  // Above the figures, what differs: the candidate's timings, nothing else.
  const auto* differences = compare->findChild<QLabel*>(QStringLiteral("differences"));
  ASSERT_NE(differences, nullptr);
  EXPECT_TRUE(differences->isVisible());
  EXPECT_TRUE(differences->text().contains(
      QStringLiteral("<td>--sim-profile</td><td>fixed:40,4</td><td>fixed:20,4</td>")))
      << differences->text().toStdString();
  EXPECT_EQ(differences->text().count(QStringLiteral("<tr>")), 2) << differences->text().toStdString();
  // The table follows a change of the UI language, the runs' "simulated" mark included.
  const auto shownCandidate = [&] {
    return table->index(0, ComparisonTableModel::Candidate).data(Qt::ToolTipRole).toString();
  };
  EXPECT_TRUE(shownCandidate().endsWith(QStringLiteral("SIMULATED"))) << shownCandidate().toStdString();
  window.setLanguage(QStringLiteral("tr"));
  EXPECT_TRUE(shownCandidate().endsWith(QStringLiteral("SİMÜLASYON"))) << shownCandidate().toStdString();
  EXPECT_TRUE(differences->text().startsWith(QStringLiteral("<b>Neler farklı</b>")))
      << differences->text().toStdString();
  window.setLanguage(QStringLiteral("en"));
  EXPECT_TRUE(shownCandidate().endsWith(QStringLiteral("SIMULATED"))) << shownCandidate().toStdString();

  // The table lists the figures the user picks from the Figures menu, and the settings keep the choice;
  // the last figure cannot be unticked.
  const auto action = [&](const char* key) -> QAction* {
    for (QAction* a : compare->figuresMenu()->actions()) {
      if (a->data().toString() == QLatin1String(key)) return a;
    }
    return nullptr;
  };
  QAction* meanTtft = action("mean_ttft_ms");
  QAction* medianItl = action("median_itl_ms");
  ASSERT_TRUE(meanTtft && medianItl);
  EXPECT_EQ(compare->figuresMenu()->actions().size(), static_cast<qsizetype>(std::size(kAllRunFigures)));
  EXPECT_TRUE(meanTtft->isChecked());
  EXPECT_FALSE(medianItl->isChecked());
  EXPECT_EQ(meanTtft->text(), QStringLiteral("Mean TTFT"));
  const int rowsBefore = table->rowCount();
  meanTtft->trigger();
  medianItl->trigger();
  EXPECT_EQ(table->rowCount(), rowsBefore);
  const auto rowsStartingWith = [&](const QString& prefix) {
    int count = 0;
    for (int r = 0; r < table->rowCount(); ++r)
      count += table->index(r, ComparisonTableModel::Scenario).data().toString().startsWith(prefix) ? 1 : 0;
    return count;
  };
  EXPECT_EQ(rowsStartingWith(QStringLiteral("Mean TTFT")), 0);
  EXPECT_EQ(rowsStartingWith(QStringLiteral("Median ITL")), 1);
  const QStringList saved = QSettings().value(QStringLiteral("compare/figures")).toStringList();
  EXPECT_TRUE(saved.contains(QStringLiteral("median_itl_ms"))) << saved.join(u',').toStdString();
  EXPECT_FALSE(saved.contains(QStringLiteral("mean_ttft_ms"))) << saved.join(u',').toStdString();
  for (QAction* a : compare->figuresMenu()->actions()) {
    if (a->isChecked()) a->trigger();
  }
  EXPECT_EQ(compare->chosenFigures().size(), 1u);  // one stays
  EXPECT_GT(table->rowCount(), 0);
  // Back to the seeds' figures for what follows.
  const std::vector<RunFigure> defaults = ComparisonTableModel::defaultFigures();
  for (QAction* a : compare->figuresMenu()->actions()) {
    const bool wanted = std::find(defaults.begin(), defaults.end(),
                                  parseRunFigure(a->data().toString().toStdString())) != defaults.end();
    if (wanted && !a->isChecked()) a->trigger();
  }
  for (QAction* a : compare->figuresMenu()->actions()) {
    const bool wanted = std::find(defaults.begin(), defaults.end(),
                                  parseRunFigure(a->data().toString().toStdString())) != defaults.end();
    if (!wanted && a->isChecked()) a->trigger();
  }
  EXPECT_EQ(compare->chosenFigures(), defaults);
  EXPECT_EQ(table->rowCount(), rowsBefore);

  // Every export format, in Turkish, read back: JSON and CSV parsed, HTML and PDF naming both runs.
  compare->setReportLanguage(ReportLanguage::Turkish);
  const QString base = QString::fromStdString((dir / "comparison").string());
  for (const char* suffix : {".pdf", ".html", ".md", ".csv", ".json"}) {
    const QString error = compare->exportReport(base + QLatin1String(suffix));
    EXPECT_TRUE(error.isEmpty()) << suffix << ": " << error.toStdString();
  }
  const auto read = [&](const char* suffix) {
    QFile file(base + QLatin1String(suffix));
    EXPECT_TRUE(file.open(QIODevice::ReadOnly)) << suffix;
    return QString::fromUtf8(file.readAll());
  };
  const QString baselineName = compare->runs()[0].name, candidateName = compare->runs()[1].name;
  const auto json = nlohmann::json::parse(read(".json").toStdString());
  EXPECT_EQ(json["language"], "tr");
  EXPECT_EQ(json["data"]["baseline"], baselineName.toStdString());
  const double jsonSpeedup =
      json["data"]["candidates"][0]["figures"]["mean_ttft_ms"]["speedup"].get<double>();
  EXPECT_NEAR(jsonSpeedup, 2.0, 0.4);
  const QStringList csvLines = read(".csv").split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  ASSERT_GE(csvLines.size(), 3);
  EXPECT_TRUE(std::any_of(csvLines.begin(), csvLines.end(), [](const QString& line) {
    return line.contains(QStringLiteral("Ortalama TTFT")) && line.contains(QStringLiteral("daha hızlı"));
  }));
  const QString html = read(".html");
  EXPECT_TRUE(html.contains(baselineName.toHtmlEscaped()) && html.contains(candidateName.toHtmlEscaped()));
  EXPECT_TRUE(html.contains(QStringLiteral("data:image/png;base64,")));
  EXPECT_TRUE(read(".md").contains(QStringLiteral("daha hızlı")));
  EXPECT_TRUE(read(".pdf").startsWith(QStringLiteral("%PDF-")));
  QProcess pdftotext;
  pdftotext.start(QStringLiteral("pdftotext"), {base + QStringLiteral(".pdf"), QStringLiteral("-")});
  ASSERT_TRUE(pdftotext.waitForFinished(30000)) << "pdftotext (poppler-utils, scripts/setup.sh installs it)";
  const QString pdfText = QString::fromUtf8(pdftotext.readAllStandardOutput());
  EXPECT_TRUE(pdfText.contains(baselineName)) << pdfText.left(400).toStdString();
  EXPECT_TRUE(pdfText.contains(candidateName));
  EXPECT_TRUE(pdfText.contains(QStringLiteral("Çalıştırma karşılaştırması")));

  // History's "Set up again" brings the baseline's set-up back into Setup.
  ASSERT_TRUE(window.setUpAgain(baseline));
  const RunSpec again = window.setupPanel()->runSpec();
  EXPECT_EQ(again.label, "baseline");
  EXPECT_EQ(again.engine.device, "sim");
  EXPECT_EQ(again.profile.numPrompts, 200);
  const auto& flags = again.engine.flags;
  EXPECT_NE(std::find(flags.begin(), flags.end(), EngineFlag::option("--sim-profile", "fixed:40,4")),
            flags.end());
}

// The GPU chart of the Live area, fed through the run controller's extra sampler as NVML feeds it on a
// GPU host (core/telemetry's GpuMonitor; there is no driver here): known gauges, once a second, drawn
// on the chart while the run goes and stored with the run.
TEST(Workbench, GpuGaugesSampledDuringARunAreChartedAndStored) {
  test::clearSettings();
  test::TempDir dir;
  MainWindow window({dir / "ayar.db", QStringLiteral("en")});
  window.show();
  window.livePage()->setGpuAvailable(true);
  EXPECT_TRUE(window.livePage()->gpuChart()->isVisible());
  window.controller()->setExtraSampler([](double tS) {
    return std::vector<Sample>{
        {tS, "gpu0.utilization", 90.0}, {tS, "gpu0.memory_used", 120.5}, {tS, "gpu0.power", 650.0 + tS}};
  });
  window.setupPanel()->setRunSpec(test::simRunSpec(30, 4, 300, 100.0, "gpu"));  // about 3 s of load
  const qint64 run = runToTheEnd(window);
  ASSERT_GT(run, 0);
  TimeSeriesChart* gpu = window.livePage()->gpuChart();
  const QList<QPointF> utilisation = gpu->shownPoints(0), memory = gpu->shownPoints(1),
                       power = gpu->shownPoints(2);
  ASSERT_GE(utilisation.size(), 2);
  EXPECT_EQ(memory.size(), utilisation.size());
  for (int i = 0; i < utilisation.size(); ++i) {
    EXPECT_DOUBLE_EQ(utilisation[i].y(), 90.0);
    EXPECT_DOUBLE_EQ(memory[i].y(), 120.5);
    EXPECT_DOUBLE_EQ(power[i].y(), 650.0 + power[i].x());
  }
  int stored = 0;
  for (const Sample& sample : window.store().loadSamples(run))
    stored += sample.name == "gpu0.power" ? 1 : 0;
  EXPECT_EQ(stored, utilisation.size());
  window.livePage()->setGpuAvailable(false);
  EXPECT_FALSE(gpu->isVisible());
}

TEST(Workbench, StopKeepsWhatWasMeasuredAndTheRunListsAsStopped) {
  test::clearSettings();
  test::TempDir dir;
  MainWindow window({dir / "ayar.db", QStringLiteral("en")});
  window.setupPanel()->setRunSpec(test::simRunSpec(5, 2, 400, 20.0, "stopped"));  // 20 s of arrivals
  QSignalSpy finished(&window, &MainWindow::runFinished);
  ASSERT_TRUE(window.startRun());
  ASSERT_TRUE(test::waitFor([&] { return window.controller()->records().size() >= 20; }, 60s));
  window.livePage()->stopButton()->click();
  ASSERT_TRUE(finished.wait(60000));
  const qint64 id = finished.front().at(0).toLongLong();
  ASSERT_GT(id, 0);
  const auto run = window.store().findRun(id);
  ASSERT_TRUE(run);
  EXPECT_EQ(run->status, RunStatus::Cancelled);
  EXPECT_GE(run->storedRequests, 20);
  EXPECT_LT(run->storedRequests, 400);
  // The results show what finished.
  EXPECT_GE(sum(window.resultsPage()->chart(LatencyMetric::Ttft)->histogramCounts()), 20);
}

TEST(Workbench, BadSetupIsRefusedWithAMessageNamingTheField) {
  test::clearSettings();
  test::TempDir dir;
  MainWindow window({dir / "ayar.db", QStringLiteral("en")});
  RunSpec spec = test::simRunSpec(5, 2, 10, 10.0, "bad");
  spec.engine.flags.push_back(EngineFlag::option("--max-num-seqs", "0"));
  window.setupPanel()->setRunSpec(spec);
  EXPECT_FALSE(window.startRun());
  EXPECT_TRUE(window.statusText().contains(QStringLiteral("--max-num-seqs")))
      << window.statusText().toStdString();
  EXPECT_FALSE(window.controller()->isRunning());
}

TEST(SetupPanel, TheEditedCommandLineGoesBackIntoTheFlagForm) {
  test::clearSettings();
  test::TempDir dir;
  MainWindow window({dir / "ayar.db", QStringLiteral("en")});
  window.setupPanel()->setRunSpec(test::simRunSpec(5, 2, 10, 10.0, "cmd"));
  QLineEdit* line = window.setupPanel()->commandLine();
  const QString shown = line->text();
  EXPECT_TRUE(shown.startsWith(QStringLiteral("ayar-engine serve qwen3-0.6b"))) << shown.toStdString();
  EXPECT_TRUE(shown.contains(QStringLiteral("--sim-profile fixed:5,2"))) << shown.toStdString();
  line->setText(shown + QStringLiteral(" --max-num-seqs 32 --enforce-eager --some-new-flag=1"));
  emit line->editingFinished();
  const RunSpec spec = window.setupPanel()->runSpec();
  const auto& flags = spec.engine.flags;
  EXPECT_NE(std::find(flags.begin(), flags.end(), EngineFlag::option("--max-num-seqs", "32")), flags.end());
  EXPECT_NE(std::find(flags.begin(), flags.end(), EngineFlag::toggle("--enforce-eager")), flags.end());
  EXPECT_NE(std::find(flags.begin(), flags.end(), EngineFlag::rawArgument("--some-new-flag=1")), flags.end());
}

}  // namespace
}  // namespace ayar
