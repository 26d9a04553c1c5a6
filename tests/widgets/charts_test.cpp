#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <algorithm>
#include <cmath>

#include "widgets/box_plot_chart.h"
#include "widgets/distribution_chart.h"
#include "widgets/time_series_chart.h"

namespace ayar {
namespace {

TEST(TimeSeriesChart, FewPointsAreDrawnAllInTimeOrderAndTheAxesCoverThem) {
  TimeSeriesChart chart;
  const int ttft = chart.addSeries(QStringLiteral("TTFT"));
  const int e2e = chart.addSeries(QStringLiteral("E2E"));
  chart.setPoints(ttft, {{2.0, 30.0}, {0.5, 12.0}, {1.0, 48.0}});
  chart.setPoints(e2e, {{0.5, 100.0}});
  EXPECT_EQ(chart.seriesCount(), 2);
  EXPECT_EQ(chart.shownPoints(ttft), (QList<QPointF>{{0.5, 12.0}, {1.0, 48.0}, {2.0, 30.0}}));
  EXPECT_EQ(chart.shownPoints(e2e), (QList<QPointF>{{0.5, 100.0}}));
  const auto ranges = chart.axisRanges();
  EXPECT_EQ(ranges[0], 0.0);
  EXPECT_GE(ranges[1], 2.0);
  EXPECT_GE(ranges[3], 105.0);
  chart.clearPoints();
  EXPECT_TRUE(chart.shownPoints(ttft).isEmpty());
}

TEST(TimeSeriesChart, ManyPointsAreDecimatedKeepingEverySlicesLowestAndHighest) {
  TimeSeriesChart chart;
  const int s = chart.addSeries(QStringLiteral("TTFT"));
  QList<QPointF> points;
  for (int i = 0; i < 100000; ++i)
    points.append(QPointF(i * 0.001, 10.0 + (i % 7)));
  points[54321].setY(900.0);  // one spike
  points[777].setY(0.5);      // one dip
  chart.setPoints(s, points);
  const auto shown = chart.shownPoints(s);
  EXPECT_LE(shown.size(), TimeSeriesChart::kMaxShownPoints);
  EXPECT_GE(shown.size(), TimeSeriesChart::kMaxShownPoints / 2);
  EXPECT_TRUE(shown.contains(points[54321]));
  EXPECT_TRUE(shown.contains(points[777]));
  EXPECT_TRUE(std::is_sorted(shown.begin(), shown.end(), [](auto& a, auto& b) { return a.x() < b.x(); }));
  EXPECT_GE(chart.axisRanges()[3], 900.0);
}

TEST(DistributionChart, OneRunShowsItsHistogramCdfAndPercentileMarkers) {
  DistributionChart chart;
  std::vector<double> values;
  for (int i = 1; i <= 100; ++i)
    values.push_back(i);
  chart.setDistributions({{QStringLiteral("run 1"), values}}, {50.0, 99.0});
  const auto counts = chart.histogramCounts();
  ASSERT_EQ(counts.size(), 10);  // sqrt(100) bins over [1, 100]
  int total = 0;
  for (int c : counts)
    total += c;
  EXPECT_EQ(total, 100);
  EXPECT_EQ(counts.front(), 10);
  EXPECT_EQ(chart.histogramEdges().size(), 11);
  ASSERT_EQ(chart.cdfCount(), 1);
  const auto cdf = chart.cdfPoints(0);
  ASSERT_EQ(cdf.size(), 100);
  EXPECT_EQ(cdf.front(), QPointF(1.0, 1.0));
  EXPECT_EQ(cdf.back(), QPointF(100.0, 100.0));
  const auto markers = chart.markers();
  ASSERT_EQ(markers.size(), 2);
  EXPECT_DOUBLE_EQ(markers[0].x(), 50.5);  // numpy's linear percentile
  EXPECT_DOUBLE_EQ(markers[0].y(), 50.0);
  EXPECT_NEAR(markers[1].x(), 99.01, 1e-9);
  EXPECT_TRUE(chart.seriesNames().contains(QStringLiteral("run 1")));
}

TEST(DistributionChart, SeveralRunsOverlayTheirCdfsWithoutHistogram) {
  DistributionChart chart;
  std::vector<double> a, b;
  for (int i = 0; i < 5000; ++i) {
    a.push_back(i);
    b.push_back(2.0 * i);
  }
  chart.setDistributions({{QStringLiteral("baseline"), a}, {QStringLiteral("candidate"), b}}, {99.0});
  EXPECT_TRUE(chart.histogramCounts().isEmpty());
  EXPECT_TRUE(chart.markers().isEmpty());
  ASSERT_EQ(chart.cdfCount(), 2);
  const auto cdfA = chart.cdfPoints(0);
  const auto cdfB = chart.cdfPoints(1);
  EXPECT_EQ(cdfA.size(), DistributionChart::kMaxCdfPoints);
  EXPECT_EQ(cdfA.back(), QPointF(4999.0, 100.0));
  EXPECT_EQ(cdfB.back(), QPointF(9998.0, 100.0));
  EXPECT_EQ(chart.seriesNames(), (QStringList{QStringLiteral("baseline"), QStringLiteral("candidate")}));
}

TEST(ChartWidget, SavesThePictureAsPngAndSvg) {
  QTemporaryDir dir;
  TimeSeriesChart chart;
  chart.resize(640, 400);
  chart.setTitle(QStringLiteral("TTFT over time"));
  chart.setPoints(chart.addSeries(QStringLiteral("TTFT")), {{0.0, 10.0}, {1.0, 20.0}});
  const QString png = dir.filePath(QStringLiteral("chart.png"));
  const QString svg = dir.filePath(QStringLiteral("chart.svg"));
  ASSERT_TRUE(chart.exportImage(png));
  ASSERT_TRUE(chart.exportSvg(svg));
  const QImage image(png);
  EXPECT_EQ(image.size(), QSize(640, 400));
  QFile file(svg);
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  const QByteArray text = file.readAll();
  EXPECT_TRUE(text.contains("<svg"));
  EXPECT_TRUE(text.contains("TTFT over time"));
}

TEST(BoxPlotChart, BoxesHoldQuartilesMedianAndTukeyWhiskers) {
  BoxPlotChart chart;
  std::vector<double> a{1, 2, 3, 4, 5, 6, 7, 8, 9, 100};  // 100 lies beyond 1.5 IQR
  std::vector<double> b{10, 20, 30};
  chart.setDistributions({{QStringLiteral("#1"), a}, {QStringLiteral("#2"), b}});
  const auto boxes = chart.boxes();
  ASSERT_EQ(boxes.size(), 2);
  EXPECT_DOUBLE_EQ(boxes[0].lowerQuartile, 3.25);
  EXPECT_DOUBLE_EQ(boxes[0].median, 5.5);
  EXPECT_DOUBLE_EQ(boxes[0].upperQuartile, 7.75);
  EXPECT_DOUBLE_EQ(boxes[0].low, 1.0);
  EXPECT_DOUBLE_EQ(boxes[0].high, 9.0);
  EXPECT_EQ(boxes[1], (BoxFigures{10, 15, 20, 25, 30}));
  EXPECT_EQ(chart.categories(), (QStringList{QStringLiteral("#1"), QStringLiteral("#2")}));
}

}  // namespace
}  // namespace ayar
