#include "app/gui/report_charts.h"

#include <QPainter>

#include "core/metrics/latency_values.h"
#include "core/study/study_report.h"
#include "widgets/box_plot_chart.h"
#include "widgets/distribution_chart.h"

namespace ayar {

QString fromCatalogue(std::string_view text) {
  return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

ReportLocaleScope::ReportLocaleScope(ReportLanguage language) : m_window(QLocale()) {
  QLocale::setDefault(language == ReportLanguage::Turkish ? QLocale(QLocale::Turkish, QLocale::Turkey)
                                                          : QLocale(QLocale::English, QLocale::UnitedStates));
}

ReportLocaleScope::~ReportLocaleScope() {
  QLocale::setDefault(m_window);
}

QImage reportChartImage(QWidget& chart, QSize logicalSize) {
  chart.resize(logicalSize);
  // A report is a white page: no window grey around the chart.
  QPalette white = chart.palette();
  for (const QPalette::ColorRole role : {QPalette::Window, QPalette::Base})
    white.setColor(role, Qt::white);
  chart.setPalette(white);
  const QSize pixels(static_cast<int>(std::lround(logicalSize.width() * kReportChartScale)),
                     static_cast<int>(std::lround(logicalSize.height() * kReportChartScale)));
  QImage image(pixels, QImage::Format_RGB32);
  image.setDevicePixelRatio(kReportChartScale);
  image.fill(Qt::white);
  QPainter painter(&image);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setRenderHint(QPainter::TextAntialiasing);
  // Drawn through the painter, not grabbed: lines and text at the image's full resolution.
  chart.render(&painter);
  painter.end();
  return image;
}

std::vector<ReportChart> comparisonReportCharts(const std::vector<LoadedRun>& runs, ReportLanguage language) {
  const ReportLocaleScope locale(language);
  std::vector<ReportChart> charts;
  const QString share = fromCatalogue(reportText(ReportText::ChartCumulativeShare, language));
  for (const LatencyMetric metric : kAllLatencyMetrics) {
    const std::string_view label = latencyMetricLabel(metric, language);
    QList<Distribution> cdfs, boxes;
    bool anyValues = false;
    for (const LoadedRun& run : runs) {
      cdfs.append({run.name, latencyValuesMs(run.records, metric)});
      boxes.append({run.shortName, cdfs.back().values});
      anyValues = anyValues || !cdfs.back().values.empty();
    }
    if (!anyValues) continue;
    const QString valueTitle = fromCatalogue(label) + QStringLiteral(" (ms)");

    DistributionChart cdf;
    cdf.setAxisTitles(valueTitle, QString(), share);
    cdf.setDistributions(cdfs);
    QStringList cdfText{valueTitle, share};
    cdfText += cdf.seriesNames();
    charts.push_back(
        {QString::fromStdString(formatReportText(ReportText::ComparisonCdfCaption, language, {label})),
         reportChartImage(cdf), cdfText});

    BoxPlotChart box;
    box.setValueTitle(valueTitle);
    box.setDistributions(boxes);
    QStringList boxText{valueTitle};
    boxText += box.categories();
    charts.push_back(
        {QString::fromStdString(formatReportText(ReportText::ComparisonBoxCaption, language, {label})),
         reportChartImage(box), boxText});
  }
  return charts;
}

ComparisonReportRun comparisonReportRun(const LoadedRun& run) {
  ComparisonReportRun r;
  r.name = run.name.toStdString();
  r.summary = run.summary;
  r.requestRate = run.requestRate;
  r.simulated = run.facts.simulated;
  r.syntheticDataset = run.facts.syntheticDataset;
  r.requestValuesMs = latencyValuesByMetric(run.records);
  r.setup = storedRunSetup(run.run);
  return r;
}

void writeComparisonReportFile(const std::vector<LoadedRun>& runs, ReportLanguage language,
                               const QString& path, ReportFileFormat format,
                               const std::vector<RunFigure>& figures) {
  std::vector<ComparisonReportRun> candidates;
  for (std::size_t i = 1; i < runs.size(); ++i)
    candidates.push_back(comparisonReportRun(runs[i]));
  const ReportDocument document = buildComparisonReport(comparisonReportRun(runs.front()), candidates,
                                                        reportLocaleFor(language, format), figures);
  writeReportFile(
      document,
      reportFileHasCharts(format) ? comparisonReportCharts(runs, language) : std::vector<ReportChart>{}, path,
      format);
}

}  // namespace ayar
