#pragma once

#include <QLocale>
#include <QWidget>
#include <string_view>
#include <vector>

#include "app/gui/stored_run.h"
#include "app/report/report_export.h"
#include "core/report/comparison_report.h"

namespace ayar {

// While it lives, the default locale is `language`'s, so that the chart widgets, which write their
// numbers as the default locale does (the window's language), write a report's as its language does:
// a Turkish report from an English window says "2,33 s". The window's locale is back afterwards.
class ReportLocaleScope {
 public:
  explicit ReportLocaleScope(ReportLanguage language);
  ~ReportLocaleScope();
  ReportLocaleScope(const ReportLocaleScope&) = delete;
  ReportLocaleScope& operator=(const ReportLocaleScope&) = delete;

 private:
  QLocale m_window;
};

// A chart widget drawn for a report, offscreen: `logicalSize` CSS pixels with kReportChartScale
// times as many image pixels, on white (the light theme, whatever the window's).
QImage reportChartImage(QWidget& chart, QSize logicalSize = kReportChartSize);

// The comparison's charts, drawn offscreen for a report in `language` (every text in the image from
// core's report catalogue): for TTFT, TPOT, ITL and end-to-end latency, the runs' cumulative
// distributions overlaid and their box plots. A latency no run has values of is left out.
std::vector<ReportChart> comparisonReportCharts(const std::vector<LoadedRun>& runs, ReportLanguage language);

// A loaded run as a comparison report names and shows it.
ComparisonReportRun comparisonReportRun(const LoadedRun& run);

// A phrase of core's report catalogue (UTF-8) as the workbench shows it.
QString fromCatalogue(std::string_view text);

// Writes the comparison of `runs` (the first is the baseline) to `path` as `format`, in `language`,
// listing `figures`, with comparisonReportCharts() in PDF and HTML. Throws ayar::Error as writeReportFile
// does.
void writeComparisonReportFile(const std::vector<LoadedRun>& runs, ReportLanguage language,
                               const QString& path, ReportFileFormat format,
                               const std::vector<RunFigure>& figures = defaultComparisonFigures());

}  // namespace ayar
