// The Live, Results and Compare areas' charts as a performance engineer reads them: each figure on an
// axis that fits it, numbers in the UI language (also after a switch at run time), nothing cut short at
// the common screen sizes, and Compare's choices as they should start. Real simulator runs, a real store.
#include <gtest/gtest.h>

#include <QCheckBox>
#include <QComboBox>
#include <QListWidget>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTableView>

#include "app/gui/compare_page.h"
#include "app/gui/live_page.h"
#include "app/gui/main_window.h"
#include "app/gui/results_page.h"
#include "app/gui/setup_panel.h"
#include "core/interop/result_import.h"
#include "core/store/result_store.h"
#include "tests/app/gui/gui_test_support.h"
#include "tests/support/test_env.h"
#include "widgets/box_plot_chart.h"
#include "widgets/comparison_table_view.h"
#include "widgets/distribution_chart.h"
#include "widgets/run_summary_view.h"
#include "widgets/time_series_chart.h"

namespace ayar {
namespace {

using namespace std::chrono_literals;

qint64 runToTheEnd(MainWindow& window, const RunSpec& spec) {
  window.setupPanel()->setRunSpec(spec);
  QSignalSpy finished(&window, &MainWindow::runFinished);
  EXPECT_TRUE(window.startRun()) << window.statusText().toStdString();
  EXPECT_TRUE(finished.wait(120000)) << "the run did not finish";
  if (finished.isEmpty()) return -1;
  EXPECT_TRUE(finished.front().at(1).toString().isEmpty()) << finished.front().at(1).toString().toStdString();
  return finished.front().at(0).toLongLong();
}

// Lets queued layout and paint events run, so that the charts are laid out at the window's size.
void settle() {
  for (int i = 0; i < 5; ++i)
    QCoreApplication::processEvents();
}

// A tick step reads well when it is 1, 2 or 5 times a power of ten.
bool isRoundStep(double step) {
  const double mantissa = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
  return std::abs(mantissa - 1) < 1e-6 || std::abs(mantissa - 2) < 1e-6 || std::abs(mantissa - 5) < 1e-6;
}

// What a chart draws that Qt Charts cut short, and its legend entries that do not show whole.
std::vector<std::string> cutTexts(const ChartWidget& chart, const std::string& where) {
  std::vector<std::string> cut;
  for (const QString& text : chart.shownTexts()) {
    if (text.contains(QStringLiteral("..."))) cut.push_back(where + ": " + text.toStdString());
  }
  if (!chart.legendShowsWholeTexts())
    cut.push_back(where + ": legend " + chart.legendTexts().join(QLatin1Char('|')).toStdString());
  return cut;
}

// Every row of the table lies inside its viewport: nothing to scroll to.
bool showsEveryRow(const QTableView& table) {
  const QAbstractItemModel* model = table.model();
  if (!model || model->rowCount() == 0) return false;
  for (int r = 0; r < model->rowCount(); ++r) {
    if (!table.viewport()->rect().contains(table.visualRect(model->index(r, 0)))) return false;
  }
  return true;
}

// The English number text with its separators swapped, as Turkish writes it: "1,234.5" -> "1.234,5".
QString inTurkish(QString english) {
  english.replace(QLatin1Char(','), QChar(0x1));
  english.replace(QLatin1Char('.'), QLatin1Char(','));
  english.replace(QChar(0x1), QLatin1Char('.'));
  return english;
}

TEST(Live, TtftLatencyAndLoadAreEachReadOnAnAxisOfTheirOwnWithRoundTicks) {
  test::clearSettings();
  test::TempDir dir;
  MainWindow window({dir / "ayar.db", QStringLiteral("en")});
  window.show();
  // TTFT 30 ms, then 40 tokens of 20 ms: end-to-end latency near 800 ms, some thirty times TTFT.
  RunSpec spec = test::simRunSpec(30, 20, 150, 100.0, "live");
  spec.profile.randomOutputLen = 40;
  spec.profile.randomRangeRatio = 0.0;
  ASSERT_GT(runToTheEnd(window, spec), 0);
  window.showArea(MainWindow::LiveArea);
  settle();

  TimeSeriesChart* latency = window.livePage()->latencyChart();
  ASSERT_EQ(latency->seriesCount(), 2);
  const int ttftAxis = latency->seriesAxis(0), e2eAxis = latency->seriesAxis(1);
  EXPECT_NE(ttftAxis, e2eAxis) << "TTFT drawn on the end-to-end axis lies flat along its bottom";
  EXPECT_EQ(latency->valueAxisTitle(ttftAxis), QStringLiteral("TTFT (ms)"));
  EXPECT_EQ(latency->valueAxisTitle(e2eAxis), QStringLiteral("end-to-end (ms)"));
  double maxTtft = 0;
  for (const QPointF& p : latency->shownPoints(0))
    maxTtft = std::max(maxTtft, p.y());
  ASSERT_GT(maxTtft, 0);
  // TTFT's line spans at least half its axis' height.
  EXPECT_GE(maxTtft, latency->valueAxisRange(ttftAxis)[1] / 2) << latency->valueAxisRange(ttftAxis)[1];

  TimeSeriesChart* load = window.livePage()->serverChart();
  EXPECT_EQ(load->valueAxisTitle(0), QStringLiteral("requests"));
  ASSERT_EQ(load->seriesCount(), 4);
  const int kvAxis = load->seriesAxis(3);
  EXPECT_NE(kvAxis, 0) << "counts and percentages share an axis";
  EXPECT_EQ(load->seriesAxis(0), 0);
  EXPECT_EQ(load->valueAxisTitle(kvAxis), QStringLiteral("KV cache (%)"));
  EXPECT_EQ(load->valueAxisRange(kvAxis), (QList<qreal>{0.0, 100.0}));

  for (TimeSeriesChart* chart : {latency, window.livePage()->throughputChart(), load}) {
    EXPECT_TRUE(isRoundStep(chart->timeTickInterval())) << chart->title().toStdString();
    EXPECT_TRUE(isRoundStep(chart->tickInterval(0)))
        << chart->title().toStdString() << " " << chart->tickInterval(0);
    for (const QString& label : chart->shownAxisLabels(Qt::AlignLeft))
      EXPECT_FALSE(label.contains(QStringLiteral(".25")) || label.contains(QStringLiteral(".75")))
          << chart->title().toStdString() << ": " << label.toStdString();
    for (const auto& cut : cutTexts(*chart, chart->title().toStdString()))
      ADD_FAILURE() << "cut: " << cut;
  }
}

TEST(Results, ChartsCountTokenIntervalsAndFollowALanguageSwitchAtRunTime) {
  test::clearSettings();
  test::TempDir dir;
  MainWindow window({dir / "ayar.db", QStringLiteral("en")});
  window.resize(1600, 1000);
  window.show();
  ASSERT_GT(runToTheEnd(window, test::simRunSpec(40, 4, 200, 100.0, "results")), 0);
  settle();
  ResultsPage* results = window.resultsPage();
  DistributionChart* itl = results->chart(LatencyMetric::Itl);
  DistributionChart* ttft = results->chart(LatencyMetric::Ttft);
  EXPECT_EQ(itl->countAxisTitle(), QStringLiteral("token intervals"));
  EXPECT_TRUE(itl->legendTexts().front().startsWith(QStringLiteral("token intervals")));
  EXPECT_EQ(ttft->countAxisTitle(), QStringLiteral("requests"));
  EXPECT_EQ(ttft->valueAxisTitle(), QStringLiteral("TTFT (ms)"));
  static const QRegularExpression marker(QStringLiteral("^p\\d+ \\d+\\.\\d+ ms$"));
  const QStringList englishLegend = ttft->legendTexts();
  ASSERT_GE(englishLegend.size(), 3);
  for (const QString& text : englishLegend.mid(2))
    EXPECT_TRUE(marker.match(text).hasMatch()) << text.toStdString();
  // Axis labels as drawn, of every chart's value and count axes: a decimal point or a thousands
  // separator among them (which ones depends on the timings).
  std::vector<DistributionChart*> charts;
  for (LatencyMetric metric : kAllLatencyMetrics)
    charts.push_back(results->chart(metric));
  auto labelsOf = [&] {
    std::vector<QStringList> labels;
    for (DistributionChart* chart : charts) {
      labels.push_back(chart->shownAxisLabels(Qt::AlignBottom));
      labels.push_back(chart->shownAxisLabels(Qt::AlignLeft));
    }
    return labels;
  };
  const std::vector<QStringList> englishLabels = labelsOf();
  bool separators = false;
  for (const QStringList& axis : englishLabels) {
    EXPECT_GE(axis.size(), 2);
    for (const QString& label : axis)
      separators = separators || label.contains(QLatin1Char('.')) || label.contains(QLatin1Char(','));
  }
  EXPECT_TRUE(separators) << "no separator to see changed";

  // Every figure in view, rows as tall as a line of text.
  EXPECT_TRUE(showsEveryRow(*results->summaryView()->table()));

  window.setLanguage(QStringLiteral("tr"));
  settle();
  EXPECT_EQ(itl->countAxisTitle(), QStringLiteral("token aralıkları"));
  EXPECT_TRUE(itl->legendTexts().front().startsWith(QStringLiteral("token aralıkları")));
  EXPECT_EQ(ttft->countAxisTitle(), QStringLiteral("istek"));
  EXPECT_TRUE(ttft->legendTexts().front().startsWith(QStringLiteral("istek")));
  const QStringList turkishLegend = ttft->legendTexts();
  ASSERT_EQ(turkishLegend.size(), englishLegend.size());
  for (int i = 2; i < englishLegend.size(); ++i)
    EXPECT_EQ(turkishLegend[i], inTurkish(englishLegend[i]));
  const std::vector<QStringList> turkishLabels = labelsOf();
  for (std::size_t i = 0; i < englishLabels.size(); ++i) {
    QStringList expected;
    for (const QString& label : englishLabels[i])
      expected.append(inTurkish(label));
    EXPECT_EQ(turkishLabels[i], expected) << expected.join(QLatin1Char('|')).toStdString();
  }
  // Seconds are "sn" in Turkish.
  EXPECT_EQ(results->chart(LatencyMetric::E2el)->valueAxisTitle(),
            results->chart(LatencyMetric::E2el)->valueUnitMs() > 1
                ? QStringLiteral("Uçtan uca gecikme (sn)")
                : QStringLiteral("Uçtan uca gecikme (ms)"));

  window.setLanguage(QStringLiteral("en"));
  settle();
  EXPECT_EQ(ttft->legendTexts(), englishLegend);
  EXPECT_EQ(labelsOf(), englishLabels);
}

TEST(Compare, TheDefaultBaselineIsTheNewestCompletedRunAndCandidatesShowTheirStatusWithoutIt) {
  test::clearSettings();
  test::TempDir dir;
  {
    // A completed run, then a newer one that was stopped, as a store holds them after a restart.
    ResultStore store(dir / "ayar.db");
    auto runs = readImportedRuns(AYAR_INTEROP_FIXTURES "/vllm_detailed.json");
    ASSERT_FALSE(runs.empty());
    FinishedRun completed = toFinishedRun(runs.front());
    completed.info.label = "completed";
    store.addFinishedRun(completed);
    FinishedRun stopped = toFinishedRun(runs.front());
    stopped.info.label = "stopped";
    stopped.status = RunStatus::Cancelled;
    store.addFinishedRun(stopped);
  }
  MainWindow window({dir / "ayar.db", QStringLiteral("en")});
  window.show();
  ComparePage* compare = window.comparePage();
  ASSERT_EQ(compare->baselineChoice()->count(), 2);
  EXPECT_TRUE(compare->baselineChoice()->currentText().startsWith(QStringLiteral("#1 completed")))
      << compare->baselineChoice()->currentText().toStdString();
  EXPECT_TRUE(compare->baselineChoice()->currentText().endsWith(QStringLiteral("· completed")));
  QListWidget* candidates = compare->candidateChoices();
  ASSERT_EQ(candidates->count(), 1) << "the baseline is not its own candidate";
  EXPECT_TRUE(candidates->item(0)->text().startsWith(QStringLiteral("#2 stopped")));
  EXPECT_TRUE(candidates->item(0)->text().endsWith(QStringLiteral("· stopped")));
  EXPECT_FALSE(candidates->item(0)->toolTip().isEmpty());

  // Choosing the other run as the baseline puts the first one among the candidates, tick kept.
  candidates->item(0)->setCheckState(Qt::Checked);
  compare->baselineChoice()->setCurrentIndex(0);
  ASSERT_EQ(candidates->count(), 1);
  EXPECT_TRUE(candidates->item(0)->text().startsWith(QStringLiteral("#1 completed")));

  window.setLanguage(QStringLiteral("tr"));
  EXPECT_TRUE(compare->baselineChoice()->currentText().endsWith(QStringLiteral("· durduruldu")))
      << compare->baselineChoice()->currentText().toStdString();
  EXPECT_TRUE(candidates->item(0)->text().endsWith(QStringLiteral("· tamamlandı")))
      << candidates->item(0)->text().toStdString();
}

TEST(Compare, RunsTenTimesApartAreDrawnOnALogarithmicAxisThatTheUserCanTurnOff) {
  test::clearSettings();
  test::TempDir dir;
  MainWindow window({dir / "ayar.db", QStringLiteral("en")});
  window.show();
  const qint64 fast = runToTheEnd(window, test::simRunSpec(20, 4, 100, 100.0, "fast"));
  const qint64 slow = runToTheEnd(window, test::simRunSpec(400, 4, 100, 100.0, "slow"));
  const qint64 close = runToTheEnd(window, test::simRunSpec(30, 4, 60, 100.0, "close"));
  ASSERT_GT(close, slow);
  ASSERT_GT(slow, fast);
  window.compareRuns(slow, {fast});
  settle();
  ComparePage* compare = window.comparePage();
  EXPECT_TRUE(compare->logScaleChoice()->isChecked());
  EXPECT_TRUE(compare->cdfChart()->logScale());
  EXPECT_TRUE(compare->boxChart()->logScale());
  // Powers of ten around both runs, labelled.
  EXPECT_NEAR(compare->cdfChart()->valueRange()[0], 10.0, 0.01);
  EXPECT_DOUBLE_EQ(compare->cdfChart()->valueRange()[1], 1000.0);
  EXPECT_EQ(compare->cdfChart()->shownAxisLabels(Qt::AlignBottom),
            (QStringList{QStringLiteral("10"), QStringLiteral("100"), QStringLiteral("1,000")}));
  EXPECT_EQ(compare->boxChart()->shownAxisLabels(Qt::AlignLeft),
            (QStringList{QStringLiteral("10"), QStringLiteral("100"), QStringLiteral("1,000")}));

  EXPECT_TRUE(showsEveryRow(*compare->tableView()));

  compare->logScaleChoice()->setChecked(false);
  EXPECT_FALSE(compare->cdfChart()->logScale());
  EXPECT_FALSE(compare->boxChart()->logScale());
  EXPECT_EQ(compare->boxChart()->valueRange()[0], 0.0);

  // Runs close together stay on a linear axis.
  window.compareRuns(fast, {close});
  EXPECT_FALSE(compare->logScaleChoice()->isChecked());
}

// The areas at the screen sizes people use, in both languages: every legend, label and axis title
// whole, every row of the figures and of the comparison in view, each chart of a readable size.
TEST(ChartAreas, NothingIsCutAndTablesShowEveryRowAt1366x768And1920x1080InBothLanguages) {
  test::clearSettings();
  test::TempDir dir;
  MainWindow window({dir / "ayar.db", QStringLiteral("en")});
  window.show();
  const qint64 a = runToTheEnd(window, test::simRunSpec(45, 6, 120, 100.0, "baseline"));
  const qint64 b = runToTheEnd(window, test::simRunSpec(28, 4, 120, 100.0, "candidate"));
  RunSpec eager = test::simRunSpec(60, 9, 120, 100.0, "eager execution");
  const qint64 c = runToTheEnd(window, eager);
  ASSERT_GT(c, b);
  window.compareRuns(a, {b, c});
  for (const QSize size : {QSize(1366, 768), QSize(1920, 1080)}) {
    window.resize(size);
    for (const char* language : {"en", "tr"}) {
      window.setLanguage(QString::fromLatin1(language));
      const std::string at =
          std::to_string(size.width()) + "x" + std::to_string(size.height()) + " " + language;
      std::vector<std::string> cut;
      auto check = [&](const ChartWidget& chart, const char* name) {
        for (auto& text : cutTexts(chart, at + " " + name))
          cut.push_back(text);
      };

      window.showArea(MainWindow::ResultsArea);
      settle();
      for (LatencyMetric metric : kAllLatencyMetrics) {
        const DistributionChart* chart = window.resultsPage()->chart(metric);
        check(*chart, "results");
        EXPECT_GE(chart->height(), 240) << at;
        EXPECT_GE(chart->width(), 380) << at;
      }
      EXPECT_TRUE(showsEveryRow(*window.resultsPage()->summaryView()->table())) << at;
      if (size.width() >= 1920) {
        EXPECT_TRUE(window.resultsPage()->figuresBesideCharts())
            << at << " window " << window.width() << "x" << window.height() << " page "
            << window.resultsPage()->width() << " table "
            << window.resultsPage()->summaryView()->tableWidthForAllColumns();
      }

      window.showArea(MainWindow::CompareArea);
      settle();
      ComparePage* compare = window.comparePage();
      check(*compare->cdfChart(), "compare CDF");
      check(*compare->boxChart(), "box plot");
      EXPECT_FALSE(compare->boxChart()->categoryLabelsTruncated()) << at;
      EXPECT_EQ(compare->cdfChart()->legendTexts().size(), 3);
      EXPECT_TRUE(showsEveryRow(*compare->tableView())) << at;
      for (const ChartWidget* chart :
           {static_cast<ChartWidget*>(compare->cdfChart()), static_cast<ChartWidget*>(compare->boxChart())}) {
        EXPECT_GE(chart->height(), 250) << at;
        EXPECT_GE(chart->width(), 400) << at;
      }
      if (size.width() >= 1920) {
        EXPECT_TRUE(compare->chartsBesideTable()) << at;
      }

      window.showArea(MainWindow::LiveArea);
      settle();
      check(*window.livePage()->latencyChart(), "live latency");
      check(*window.livePage()->throughputChart(), "live throughput");
      check(*window.livePage()->serverChart(), "live load");
      for (const auto& text : cut)
        ADD_FAILURE() << "cut short: " << text;
    }
  }
}

}  // namespace
}  // namespace ayar
