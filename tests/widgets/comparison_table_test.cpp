#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QLocale>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>
#include <cmath>
#include <random>

#include "widgets/comparison_table_model.h"
#include "widgets/comparison_table_view.h"
#include "widgets/run_summary_model.h"

namespace ayar {
namespace {

RunSummary summary(double meanTtftMs, double outputThroughput) {
  RunSummary s;
  s.completed = 10;
  s.ttft.meanMs = meanTtftMs;
  s.ttft.samples = 10;
  s.outputThroughput = outputThroughput;
  return s;
}

// The row of `figure` for the first candidate.
int rowOf(const ComparisonTableModel& model, RunFigure figure, ReportLanguage language) {
  const QString label = QString::fromUtf8(runFigureLabel(figure, language).data());
  for (int r = 0; r < model.rowCount(); ++r) {
    if (model.index(r, ComparisonTableModel::Scenario)
            .data()
            .toString()
            .startsWith(label + QStringLiteral(" (")))
      return r;
  }
  return -1;
}

TEST(ComparisonTableModel, PassesTheModelTesterThroughResetsAndLanguageChanges) {
  ComparisonTableModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setComparison({QStringLiteral("#1"), summary(126, 100)}, {{QStringLiteral("#2"), summary(100, 105)}});
  model.setLanguage(ReportLanguage::Turkish);
  model.setComparison({QStringLiteral("#1"), summary(126, 100)},
                      {{QStringLiteral("#2"), summary(100, 105)}, {QStringLiteral("#3"), summary(90, 80)}});
  EXPECT_GT(model.rowCount(), 0);
  model.clear();
  EXPECT_EQ(model.rowCount(), 0);
}

TEST(ComparisonTableModel, RatiosReadFasterAndSlowerInEnglish) {
  ComparisonTableModel model;
  // TTFT 126 -> 100 ms: the candidate is 1.26x faster. Output throughput 100 -> 95.24 tok/s: 1.05x slower.
  model.setComparison({QStringLiteral("#1"), summary(126, 100)},
                      {{QStringLiteral("#2"), summary(100, 95.238)}},
                      {RunFigure::MeanTtft, RunFigure::OutputThroughput});
  model.setLanguage(ReportLanguage::English, QLocale(QLocale::English));
  ASSERT_EQ(model.rowCount(), 2);
  const int ttft = rowOf(model, RunFigure::MeanTtft, ReportLanguage::English);
  const int tput = rowOf(model, RunFigure::OutputThroughput, ReportLanguage::English);
  ASSERT_GE(ttft, 0);
  ASSERT_GE(tput, 0);
  EXPECT_EQ(model.index(ttft, ComparisonTableModel::Ratio).data().toString(), QStringLiteral("1.26x faster"));
  EXPECT_EQ(model.index(tput, ComparisonTableModel::Ratio).data().toString(), QStringLiteral("1.05x slower"));
  EXPECT_EQ(model.index(ttft, ComparisonTableModel::Baseline).data().toString(), QStringLiteral("126.00"));
  EXPECT_NEAR(model.index(ttft, ComparisonTableModel::Ratio).data(ComparisonTableModel::RatioRole).toDouble(),
              1.26, 1e-9);
  EXPECT_EQ(model.headerData(ComparisonTableModel::Scenario, Qt::Horizontal).toString(),
            QStringLiteral("Benchmark scenario"));
  EXPECT_EQ(model.headerData(ComparisonTableModel::Ratio, Qt::Horizontal).toString(),
            QStringLiteral("Ratio"));
  // Better in green, worse in red.
  const auto better = model.index(ttft, ComparisonTableModel::Ratio).data(Qt::ForegroundRole).value<QBrush>();
  const auto worse = model.index(tput, ComparisonTableModel::Ratio).data(Qt::ForegroundRole).value<QBrush>();
  EXPECT_GT(better.color().green(), better.color().red());
  EXPECT_GT(worse.color().red(), worse.color().green());
}

TEST(ComparisonTableModel, RatiosReadDahaHizliAndDahaYavasInTurkishWithTurkishNumbers) {
  ComparisonTableModel model;
  model.setComparison({QStringLiteral("#1"), summary(126, 100)},
                      {{QStringLiteral("#2"), summary(100, 95.238)}},
                      {RunFigure::MeanTtft, RunFigure::OutputThroughput});
  model.setLanguage(ReportLanguage::Turkish, QLocale(QLocale::Turkish, QLocale::Turkey));
  const int ttft = rowOf(model, RunFigure::MeanTtft, ReportLanguage::Turkish);
  const int tput = rowOf(model, RunFigure::OutputThroughput, ReportLanguage::Turkish);
  ASSERT_GE(ttft, 0);
  ASSERT_GE(tput, 0);
  // The ratio's number reads as the numbers beside it: a decimal comma.
  EXPECT_EQ(model.index(ttft, ComparisonTableModel::Ratio).data().toString(),
            QStringLiteral("1,26x daha hızlı"));
  EXPECT_EQ(model.index(tput, ComparisonTableModel::Ratio).data().toString(),
            QStringLiteral("1,05x daha yavaş"));
  EXPECT_EQ(model.index(ttft, ComparisonTableModel::Baseline).data().toString(), QStringLiteral("126,00"));
  EXPECT_EQ(model.headerData(ComparisonTableModel::Baseline, Qt::Horizontal).toString(),
            QStringLiteral("Temel yapılandırma"));
}

// A run with its requests' TTFTs: log-normal around `medianMs`, drawn from `seed`.
ComparedRun runWithRequests(const QString& name, std::uint64_t seed, double medianMs) {
  std::mt19937_64 random(seed);
  std::lognormal_distribution<double> draw(std::log(medianMs), 0.5);
  std::vector<double> ttfts(400);
  for (double& value : ttfts)
    value = draw(random);
  ComparedRun run{name, summary(sampleStatistic(ttfts, SampleStatistic::Mean), 100.0), {}};
  run.values[LatencyMetric::Ttft] = std::move(ttfts);
  return run;
}

// A ratio within the runs' own spread says so and is neither green nor red; a clear one keeps its
// colour; the interval sits beside it, in the language's numbers; a throughput has none.
TEST(ComparisonTableModel, LatencyRatiosCarryTheirIntervalAndNoiseIsNotAGain) {
  ComparisonTableModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setComparison(runWithRequests(QStringLiteral("#1"), 1, 40.0),
                      {runWithRequests(QStringLiteral("#2 same"), 2, 40.0),
                       runWithRequests(QStringLiteral("#3 faster"), 3, 30.0)},
                      {RunFigure::MeanTtft, RunFigure::OutputThroughput});
  model.setLanguage(ReportLanguage::Turkish, QLocale(QLocale::Turkish, QLocale::Turkey));
  ASSERT_EQ(model.rowCount(), 4);
  // The figures and ratios at once; the intervals come from a worker thread, and until then a ratio is
  // neither a gain nor a loss.
  QSignalSpy ready(&model, &ComparisonTableModel::intervalsReady);
  ASSERT_TRUE(model.intervalsPending());
  EXPECT_EQ(model.index(2, ComparisonTableModel::Interval).data().toString(), QStringLiteral("…"));
  EXPECT_FALSE(model.index(2, ComparisonTableModel::Ratio).data(Qt::ForegroundRole).isValid());
  EXPECT_TRUE(model.noiseLegend().isEmpty());
  ASSERT_TRUE(ready.wait(30000));
  EXPECT_FALSE(model.intervalsPending());
  const QRegularExpression range(QStringLiteral("^[0-9],[0-9]{2}-[0-9],[0-9]{2}$"));
  // Rows are candidate by candidate: #2's TTFT, #2's throughput, #3's TTFT, #3's throughput.
  const QModelIndex sameRatio = model.index(0, ComparisonTableModel::Ratio);
  EXPECT_TRUE(sameRatio.data().toString().startsWith(QStringLiteral("≈ 1,")))
      << sameRatio.data().toString().toStdString();
  EXPECT_TRUE(sameRatio.data(Qt::ToolTipRole).toString().endsWith(QStringLiteral(": belirgin bir fark yok")))
      << sameRatio.data(Qt::ToolTipRole).toString().toStdString();
  EXPECT_EQ(model.noiseLegend(),
            QStringLiteral("≈ belirgin bir fark yok: oranın %95 güven aralığı 1'i içeriyor"));
  EXPECT_FALSE(sameRatio.data(Qt::ForegroundRole).isValid());
  EXPECT_FALSE(sameRatio.data(ComparisonTableModel::ClearRole).toBool());
  EXPECT_TRUE(range.match(model.index(0, ComparisonTableModel::Interval).data().toString()).hasMatch());
  const QModelIndex fasterRatio = model.index(2, ComparisonTableModel::Ratio);
  EXPECT_TRUE(fasterRatio.data().toString().endsWith(QStringLiteral("x daha hızlı")))
      << fasterRatio.data().toString().toStdString();
  EXPECT_TRUE(fasterRatio.data(ComparisonTableModel::ClearRole).toBool());
  EXPECT_FALSE(fasterRatio.data().toString().startsWith(QStringLiteral("≈")));
  const auto green = fasterRatio.data(Qt::ForegroundRole).value<QBrush>();
  EXPECT_GT(green.color().green(), green.color().red());
  EXPECT_GT(model.index(2, ComparisonTableModel::Interval).data(ComparisonTableModel::SortRole).toDouble(),
            1.0);
  EXPECT_EQ(model.index(3, ComparisonTableModel::Interval).data().toString(), QStringLiteral("yok"));
  EXPECT_EQ(model.headerData(ComparisonTableModel::Interval, Qt::Horizontal).toString(),
            QStringLiteral("%95 güven aralığı"));
  EXPECT_TRUE(model.headerData(ComparisonTableModel::Interval, Qt::Horizontal, Qt::ToolTipRole)
                  .toString()
                  .contains(QStringLiteral("bootstrap")));
}

// A comparison set while the one before is still being resampled keeps only its own intervals.
TEST(ComparisonTableModel, ANewerComparisonDropsTheOlderOnesIntervals) {
  ComparisonTableModel model;
  QSignalSpy ready(&model, &ComparisonTableModel::intervalsReady);
  model.setComparison(runWithRequests(QStringLiteral("#1"), 1, 40.0),
                      {runWithRequests(QStringLiteral("#2"), 2, 40.0)}, {RunFigure::MeanTtft});
  model.setComparison(runWithRequests(QStringLiteral("#1"), 1, 40.0),
                      {runWithRequests(QStringLiteral("#3 faster"), 3, 20.0)}, {RunFigure::MeanTtft});
  ASSERT_TRUE(ready.wait(30000));
  QTest::qWait(200);  // the first comparison's worker has finished too by now; its results must be gone
  EXPECT_EQ(ready.count(), 1);
  EXPECT_TRUE(model.index(0, ComparisonTableModel::Interval).data(ComparisonTableModel::ClearRole).toBool());
  EXPECT_GT(model.index(0, ComparisonTableModel::Interval).data(ComparisonTableModel::SortRole).toDouble(),
            1.5);
  model.clear();
  EXPECT_FALSE(model.intervalsPending());
}

TEST(ComparisonTableView, SortsByTheNumbersAndCopiesAsTabSeparatedText) {
  ComparisonTableModel model;
  model.setComparison({QStringLiteral("#1"), summary(126, 100)},
                      {{QStringLiteral("#2"), summary(100, 95.238)}},
                      {RunFigure::MeanTtft, RunFigure::OutputThroughput});
  model.setLanguage(ReportLanguage::English, QLocale(QLocale::English));
  ComparisonTableView view;
  view.setComparisonModel(&model);
  view.sortByColumn(ComparisonTableModel::Ratio, Qt::DescendingOrder);
  EXPECT_EQ(view.model()->index(0, ComparisonTableModel::Ratio).data().toString(),
            QStringLiteral("1.26x faster"));
  const QStringList lines = view.toTabSeparated().split(QLatin1Char('\n'));
  ASSERT_EQ(lines.size(), 3);
  EXPECT_EQ(lines[0], QStringLiteral("Benchmark scenario\tBaseline\tCandidate\tRatio\t95% CI"));
  EXPECT_TRUE(model.noiseLegend().isEmpty()) << "no interval, no mark";
}

TEST(RunSummaryModel, PassesTheModelTesterAndShowsValuesInTheUiLocale) {
  RunSummaryModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  RunSummary s = summary(12.5, 1234.5);
  model.setSummary(s);
  model.setLanguage(ReportLanguage::Turkish, QLocale(QLocale::Turkish, QLocale::Turkey));
  bool found = false;
  for (int r = 0; r < model.rowCount(); ++r) {
    if (model.index(r, RunSummaryModel::Figure).data().toString() == QStringLiteral("Ortalama TTFT")) {
      EXPECT_EQ(model.index(r, RunSummaryModel::Value).data().toString(), QStringLiteral("12,50"));
      EXPECT_EQ(model.index(r, RunSummaryModel::Unit).data().toString(), QStringLiteral("ms"));
      found = true;
    }
  }
  EXPECT_TRUE(found);
  model.clear();
  EXPECT_EQ(model.rowCount(), 0);
}

}  // namespace
}  // namespace ayar
