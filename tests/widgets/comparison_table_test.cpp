#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QLocale>

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
  EXPECT_EQ(lines[0], QStringLiteral("Benchmark scenario\tBaseline\tCandidate\tRatio"));
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
