#include <gtest/gtest.h>

#include <QApplication>
#include <QChartView>
#include <QFile>
#include <QImage>
#include <QLocale>
#include <QMouseEvent>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>

#include "widgets/box_plot_chart.h"
#include "widgets/distribution_chart.h"
#include "widgets/time_series_chart.h"

namespace ayar {
namespace {

// Shows a chart at a size and lets Qt lay it out, so that what it draws can be read back.
void showAt(ChartWidget& chart, QSize size) {
  chart.resize(size);
  chart.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&chart));
  for (int i = 0; i < 3; ++i)
    QCoreApplication::processEvents();
}

// The UI language for one test, as the workbench switches it: the locale first, then the event every
// widget gets.
class UiLanguage {
 public:
  explicit UiLanguage(QLocale::Language language) : m_previous(QLocale()) {
    QLocale::setDefault(
        QLocale(language, language == QLocale::Turkish ? QLocale::Turkey : QLocale::UnitedStates));
  }
  ~UiLanguage() { QLocale::setDefault(m_previous); }
  static void announce(QWidget& widget) {
    QEvent change(QEvent::LanguageChange);
    QCoreApplication::sendEvent(&widget, &change);
    for (int i = 0; i < 3; ++i)
      QCoreApplication::processEvents();
  }

 private:
  QLocale m_previous;
};

// A tick step reads well when it is 1, 2 or 5 times a power of ten.
bool isRoundStep(double step) {
  const double mantissa = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
  return std::abs(mantissa - 1) < 1e-6 || std::abs(mantissa - 2) < 1e-6 || std::abs(mantissa - 5) < 1e-6;
}

bool anyInExponentForm(const QStringList& texts) {
  static const QRegularExpression exponent(QStringLiteral("\\d[eE][+-]?\\d"));
  return std::any_of(texts.begin(), texts.end(), [](const QString& t) { return t.contains(exponent); });
}

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

TEST(ChartWidget, RoundScalesStepByOneTwoOrFiveTimesAPowerOfTen) {
  const auto a = ChartWidget::roundScale(0, 23.7, 5);
  EXPECT_EQ(a.step, 5.0);
  EXPECT_EQ(a.min, 0.0);
  EXPECT_EQ(a.max, 25.0);
  EXPECT_EQ(a.decimals, 0);
  const auto b = ChartWidget::roundScale(0, 0.93, 5);
  EXPECT_DOUBLE_EQ(b.step, 0.2);
  EXPECT_DOUBLE_EQ(b.max, 1.0);
  EXPECT_EQ(b.decimals, 1);
  const auto c = ChartWidget::roundScale(38.2, 41.3, 4);
  EXPECT_EQ(c.step, 1.0);
  EXPECT_EQ(c.min, 38.0);
  EXPECT_EQ(c.max, 42.0);
  for (double top : {0.7, 3.0, 6.25, 18.75, 25.0, 99.0, 1234.5, 98765.0}) {
    const auto scale = ChartWidget::roundScale(0, top, 5);
    EXPECT_TRUE(isRoundStep(scale.step)) << top << " -> " << scale.step;
    EXPECT_GE(scale.max, top);
    EXPECT_LE((scale.max - scale.min) / scale.step, 5.0 + 1e-9);
  }
}

TEST(ChartWidget, NumbersAreWrittenInTheUiLocale) {
  UiLanguage turkish(QLocale::Turkish);
  EXPECT_EQ(ChartWidget::formatNumber(0.25, 2), QStringLiteral("0,25"));
  EXPECT_EQ(ChartWidget::formatNumber(1234.5, 1), QStringLiteral("1.234,5"));
  EXPECT_EQ(ChartWidget::formatNumber(-0.001, 1), QStringLiteral("0,0"));
  EXPECT_EQ(ChartWidget::formatDurationMs(28.24), QStringLiteral("28,2 ms"));
  EXPECT_EQ(ChartWidget::formatDurationMs(1790.4), QStringLiteral("1,79 s"));
  EXPECT_EQ(ChartWidget::formatDurationMs(2330.0), QStringLiteral("2,33 s"));
  EXPECT_EQ(ChartWidget::formatDurationMs(4.0), QStringLiteral("4,00 ms"));
  EXPECT_EQ(ChartWidget::formatDurationMs(480.66), QStringLiteral("480,7 ms"));
  EXPECT_EQ(ChartWidget::formatDurationMs(123456.0), QStringLiteral("123,5 s"));
  EXPECT_EQ(ChartWidget::formatDuration(17900.0, 1.0), QStringLiteral("17.900 ms"));
}

TEST(TimeSeriesChart, TicksSitOnRoundValuesLabelledInTheUiLocaleAndFollowALanguageSwitch) {
  UiLanguage english(QLocale::English);
  TimeSeriesChart chart;
  const int s = chart.addSeries(QStringLiteral("KV cache"));
  chart.setPoints(s, {{0.0, 0.1}, {1.3, 0.62}, {2.4, 0.87}});
  showAt(chart, {640, 400});
  EXPECT_TRUE(isRoundStep(chart.tickInterval(0))) << chart.tickInterval(0);
  EXPECT_TRUE(isRoundStep(chart.timeTickInterval())) << chart.timeTickInterval();
  const QStringList y = chart.shownAxisLabels(Qt::AlignLeft);
  ASSERT_GE(y.size(), 3) << y.join(QLatin1Char('|')).toStdString();
  EXPECT_EQ(y.front(), QStringLiteral("0.0"));
  EXPECT_TRUE(y.contains(QStringLiteral("0.2"))) << y.join(QLatin1Char('|')).toStdString();
  const QStringList x = chart.shownAxisLabels(Qt::AlignBottom);
  ASSERT_GE(x.size(), 3);
  EXPECT_EQ(x.front(), QStringLiteral("0.0"));
  EXPECT_TRUE(x.contains(QStringLiteral("0.5"))) << x.join(QLatin1Char('|')).toStdString();

  UiLanguage turkish(QLocale::Turkish);
  UiLanguage::announce(chart);
  const QStringList yTr = chart.shownAxisLabels(Qt::AlignLeft);
  EXPECT_TRUE(yTr.contains(QStringLiteral("0,2"))) << yTr.join(QLatin1Char('|')).toStdString();
  EXPECT_FALSE(yTr.contains(QStringLiteral("0.2")));
  EXPECT_TRUE(chart.shownAxisLabels(Qt::AlignBottom).contains(QStringLiteral("0,5")));

  // Thousands are grouped as the locale groups them.
  chart.setPoints(s, {{0.0, 100.0}, {1.0, 4600.0}});
  for (int i = 0; i < 3; ++i)
    QCoreApplication::processEvents();
  EXPECT_TRUE(chart.shownAxisLabels(Qt::AlignLeft).contains(QStringLiteral("2.000")))
      << chart.shownAxisLabels(Qt::AlignLeft).join(QLatin1Char('|')).toStdString();
}

TEST(TimeSeriesChart, ASmallFigureOnItsOwnAxisIsNotFlattenedByALargeOne) {
  TimeSeriesChart chart;
  const int ttftAxis = chart.addValueAxis(Qt::AlignRight);
  const int ttft = chart.addSeries(QStringLiteral("TTFT"), ttftAxis);
  const int e2e = chart.addSeries(QStringLiteral("E2E"), 0);
  chart.setValueAxisTitle(0, QStringLiteral("E2E (s)"));
  chart.setValueAxisTitle(ttftAxis, QStringLiteral("TTFT (ms)"));
  QList<QPointF> ttftPoints, e2ePoints;
  for (int i = 0; i < 50; ++i) {
    ttftPoints.append({i * 0.1, 30.0 + (i % 5)});
    e2ePoints.append({i * 0.1, 2400.0 + 10 * (i % 7)});
  }
  chart.setPoints(ttft, ttftPoints);
  chart.setPoints(e2e, e2ePoints);
  EXPECT_EQ(chart.seriesAxis(ttft), ttftAxis);
  EXPECT_EQ(chart.seriesAxis(e2e), 0);
  EXPECT_EQ(chart.valueAxisSide(ttftAxis), Qt::AlignRight);
  // TTFT's axis reaches just above TTFT, so its line spans most of the height.
  const auto ttftRange = chart.valueAxisRange(ttftAxis);
  EXPECT_GE(ttftRange[1], 34.0);
  EXPECT_LE(ttftRange[1], 50.0);
  EXPECT_GE(chart.valueAxisRange(0)[1], 2460.0);
  EXPECT_TRUE(isRoundStep(chart.tickInterval(ttftAxis)));
  // A fixed axis keeps its range whatever the data.
  const int percent = chart.addValueAxis(Qt::AlignRight);
  chart.setFixedValueRange(percent, 0, 100);
  chart.setPoints(chart.addSeries(QStringLiteral("KV cache"), percent), {{0.0, 3.0}, {1.0, 7.0}});
  EXPECT_EQ(chart.valueAxisRange(percent), (QList<qreal>{0.0, 100.0}));
  showAt(chart, {700, 420});
  EXPECT_EQ(chart.shownAxisLabels(Qt::AlignRight, 1).back(), QStringLiteral("100"));
}

TEST(DistributionChart, PercentileLegendsTakeMillisecondsOrSecondsAndWholeNumbers) {
  UiLanguage turkish(QLocale::Turkish);
  DistributionChart chart;
  chart.setFigure(QStringLiteral("E2E"), QStringLiteral("istek"), QStringLiteral("CDF (%)"));
  std::vector<double> slow;
  for (int i = 0; i < 200; ++i)
    slow.push_back(1500.0 + 7.5 * i);  // 1.5 s to 2.99 s
  chart.setDistributions({{QStringLiteral("#1"), slow}}, {50, 90, 99});
  EXPECT_EQ(chart.valueAxisTitle(), QStringLiteral("E2E (s)"));
  EXPECT_EQ(chart.valueUnitMs(), 1000.0);
  const QStringList legend = chart.legendTexts();
  EXPECT_EQ(legend, (QStringList{QStringLiteral("istek"), QStringLiteral("CDF"), QStringLiteral("p50 2,25 s"),
                                 QStringLiteral("p90 2,84 s"), QStringLiteral("p99 2,98 s")}))
      << legend.join(QLatin1Char('|')).toStdString();
  EXPECT_FALSE(anyInExponentForm(legend));
  // The checks still read milliseconds.
  EXPECT_NEAR(chart.markers()[0].x(), 2246.25, 1e-9);
  EXPECT_NEAR(chart.histogramEdges().back(), 2992.5, 1e-9);

  std::vector<double> fast;
  for (int i = 0; i < 200; ++i)
    fast.push_back(28.0 + 0.01 * i);
  chart.setDistributions({{QStringLiteral("#2"), fast}}, {50, 99});
  EXPECT_EQ(chart.valueAxisTitle(), QStringLiteral("E2E (ms)"));
  EXPECT_EQ(chart.legendTexts().mid(2),
            (QStringList{QStringLiteral("p50 29,0 ms"), QStringLiteral("p99 30,0 ms")}));
}

TEST(DistributionChart, LegendWrapsOntoLinesRatherThanCuttingNames) {
  DistributionChart chart;
  chart.setFigure(QStringLiteral("ITL"), QStringLiteral("token intervals"), QStringLiteral("CDF (%)"));
  std::vector<double> values;
  for (int i = 0; i < 1000; ++i)
    values.push_back(1000.0 + i * 1.5);
  chart.setDistributions({{QStringLiteral("#1"), values}}, {50, 90, 95, 99});
  showAt(chart, {300, 260});
  EXPECT_EQ(chart.legendTexts().size(), 6);
  EXPECT_TRUE(chart.legendShowsWholeTexts());
  // Three runs' long names side by side.
  DistributionChart runs;
  runs.setFigure(QStringLiteral("TTFT"), QString(), QStringLiteral("CDF (%)"));
  runs.setDistributions({{QStringLiteral("#1 baseline (qwen3-8b)"), values},
                         {QStringLiteral("#2 prefix caching on (qwen3-8b)"), values},
                         {QStringLiteral("#3 max-num-seqs 512 (qwen3-8b)"), values}});
  showAt(runs, {420, 300});
  EXPECT_TRUE(runs.legendShowsWholeTexts());
  EXPECT_EQ(runs.legendTexts().size(), 3);
}

TEST(DistributionChart, HistogramAxisFitsTheValuesAndCountsWhatItLeavesOff) {
  // Token intervals as a batching engine streams them: nearly all about 39.5 ms, a few long stalls.
  std::vector<double> itl;
  for (int i = 0; i < 9990; ++i)
    itl.push_back(39.0 + (i % 100) * 0.01);
  for (int i = 0; i < 10; ++i)
    itl.push_back(400.0 + i);
  DistributionChart chart;
  chart.setFigure(QStringLiteral("ITL"), QStringLiteral("token intervals"), QStringLiteral("CDF (%)"));
  chart.setDistributions({{QStringLiteral("#1"), itl}}, {50, 99});
  const auto range = chart.valueRange();
  EXPECT_LT(range[1], 45.0) << "the stalls would squeeze the intervals into one bar";
  EXPECT_GT(range[1] - 39.99, 0.02 * (range[1] - range[0])) << "the bars would run along the frame";
  EXPECT_LT(38.99 - range[0], 40.0);
  EXPECT_EQ(chart.histogramOutside(), 10);
  EXPECT_EQ(chart.legendTexts().front(), QStringLiteral("token intervals (10 outside the axis)"));
  int counted = 0;
  for (int c : chart.histogramCounts())
    counted += c;
  EXPECT_EQ(counted, 9990);
  EXPECT_EQ(chart.countAxisTitle(), QStringLiteral("token intervals"));

  // All equal: the one bar stands in the middle of its axis, not at an edge.
  chart.setDistributions({{QStringLiteral("#1"), std::vector<double>(500, 40.0)}}, {50});
  const auto flat = chart.valueRange();
  EXPECT_LT(flat[0], 40.0 - 1.0);
  EXPECT_GT(flat[1], 40.0 + 1.0);
  EXPECT_EQ(chart.histogramOutside(), 0);
}

TEST(DistributionChart, ALanguageSwitchRewritesLegendsAndAxes) {
  UiLanguage english(QLocale::English);
  DistributionChart chart;
  chart.setFigure(QStringLiteral("TTFT"), QStringLiteral("requests"), QStringLiteral("CDF (%)"));
  std::vector<double> values;
  for (int i = 0; i < 200; ++i)
    values.push_back(28.0 + 0.005 * i);
  chart.setDistributions({{QStringLiteral("#1"), values}}, {50});
  showAt(chart, {480, 320});
  EXPECT_EQ(chart.legendTexts(),
            (QStringList{QStringLiteral("requests"), QStringLiteral("CDF"), QStringLiteral("p50 28.5 ms")}));
  EXPECT_TRUE(chart.shownAxisLabels(Qt::AlignBottom).contains(QStringLiteral("28.5")))
      << chart.shownAxisLabels(Qt::AlignBottom).join(QLatin1Char('|')).toStdString();

  UiLanguage turkish(QLocale::Turkish);
  // The page names the axes in the new language, then every widget hears of the switch.
  chart.setFigure(QStringLiteral("TTFT"), QStringLiteral("istek"), QStringLiteral("CDF (%)"));
  UiLanguage::announce(chart);
  EXPECT_EQ(chart.legendTexts(),
            (QStringList{QStringLiteral("istek"), QStringLiteral("CDF"), QStringLiteral("p50 28,5 ms")}));
  const QStringList x = chart.shownAxisLabels(Qt::AlignBottom);
  EXPECT_TRUE(x.contains(QStringLiteral("28,5"))) << x.join(QLatin1Char('|')).toStdString();
  EXPECT_FALSE(x.contains(QStringLiteral("28.5")));
}

TEST(DistributionChart, RunsFarApartShareALogarithmicAxis) {
  UiLanguage english(QLocale::English);
  std::vector<double> fast, slow;
  for (int i = 0; i < 300; ++i) {
    fast.push_back(20.0 + 0.02 * i);
    slow.push_back(2000.0 + 2.0 * i);
  }
  DistributionChart chart;
  chart.setFigure(QStringLiteral("TTFT"), QString(), QStringLiteral("CDF (%)"));
  chart.setDistributions({{QStringLiteral("#1"), slow}, {QStringLiteral("#2"), fast}});
  showAt(chart, {560, 360});
  chart.setLogScale(true);  // as a user ticks it, on a chart already shown
  EXPECT_TRUE(chart.logScale());
  const auto range = chart.valueRange();
  EXPECT_NEAR(range[0], 10.0, 0.01);
  EXPECT_DOUBLE_EQ(range[1], 10000.0);
  EXPECT_EQ(chart.cdfPoints(1).front().x(), 20.0);
  for (int i = 0; i < 3; ++i)
    QCoreApplication::processEvents();
  // Powers of ten, in seconds: the slow run reaches two.
  const QStringList labels = chart.shownAxisLabels(Qt::AlignBottom);
  EXPECT_EQ(labels, (QStringList{QStringLiteral("0.01"), QStringLiteral("0.1"), QStringLiteral("1"),
                                 QStringLiteral("10")}))
      << labels.join(QLatin1Char('|')).toStdString();
  chart.setLogScale(false);
  EXPECT_LE(chart.valueRange()[0], 20.0);
}

TEST(BoxPlotChart, ThreeRunsNamesAreNotCutAndFarRunsGetALogarithmicAxis) {
  UiLanguage english(QLocale::English);
  std::vector<double> a, b, c;
  for (int i = 0; i < 100; ++i) {
    a.push_back(45.0 + 0.03 * i);
    b.push_back(28.0 + 0.02 * i);
    c.push_back(480.0 + 0.1 * i);
  }
  BoxPlotChart chart;
  chart.setFigure(QStringLiteral("TTFT"));
  chart.setDistributions({{QStringLiteral("#1 baseline"), a},
                          {QStringLiteral("#2 candidate"), b},
                          {QStringLiteral("#3 prefix caching on"), c}});
  showAt(chart, {430, 300});
  EXPECT_GE(chart.shownAxisLabels(Qt::AlignLeft).size(), 3);
  EXPECT_FALSE(chart.categoryLabelsTruncated())
      << chart.shownAxisLabels(Qt::AlignBottom).join(QLatin1Char('|')).toStdString();
  EXPECT_EQ(chart.categories().size(), 3);
  EXPECT_EQ(chart.valueAxisTitle(), QStringLiteral("TTFT (ms)"));
  chart.setLogScale(true);
  EXPECT_NEAR(chart.valueRange()[0], 10.0, 0.01);
  EXPECT_DOUBLE_EQ(chart.valueRange()[1], 1000.0);
  EXPECT_NEAR(chart.boxes()[1].median, 28.99, 1e-9);
  for (int i = 0; i < 3; ++i)
    QCoreApplication::processEvents();
  EXPECT_EQ(chart.shownAxisLabels(Qt::AlignLeft),
            (QStringList{QStringLiteral("10"), QStringLiteral("100"), QStringLiteral("1,000")}))
      << chart.shownAxisLabels(Qt::AlignLeft).join(QLatin1Char('|')).toStdString();
}

TEST(ChartWidget, TheCrosshairReadsTheValuesUnderThePointerInTheUiLocale) {
  UiLanguage turkish(QLocale::Turkish);
  TimeSeriesChart chart;
  chart.setAxisTitles(QStringLiteral("zaman (sn)"), QStringLiteral("ms"));
  chart.setPoints(chart.addSeries(QStringLiteral("TTFT")), {{0.0, 0.0}, {10.0, 1.0}});
  showAt(chart, {640, 400});
  QWidget* viewport = chart.chartView()->viewport();
  const QPoint middle = viewport->rect().center();
  QMouseEvent move(QEvent::MouseMove, QPointF(middle), viewport->mapToGlobal(QPointF(middle)), Qt::NoButton,
                   Qt::NoButton, Qt::NoModifier);
  QCoreApplication::sendEvent(viewport, &move);
  const QString text = chart.crosshairText();
  ASSERT_FALSE(text.isEmpty());
  EXPECT_TRUE(text.contains(QStringLiteral("zaman (sn): "))) << text.toStdString();
  EXPECT_TRUE(text.contains(QLatin1Char(','))) << text.toStdString();
  EXPECT_FALSE(text.contains(QLatin1Char('.'))) << text.toStdString();
  QEvent leave(QEvent::Leave);
  QCoreApplication::sendEvent(chart.chartView(), &leave);
  EXPECT_TRUE(chart.crosshairText().isEmpty());
}

}  // namespace
}  // namespace ayar
