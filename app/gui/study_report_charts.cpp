#include "app/gui/study_report_charts.h"

#include "app/gui/report_charts.h"
#include "core/metrics/latency_values.h"
#include "core/store/result_store.h"
#include "core/study/study_report.h"
#include "core/study/study_runner.h"
#include "widgets/distribution_chart.h"

namespace ayar {

namespace {

// The per-request latency behind a deciding figure; end-to-end latency for the throughputs.
LatencyMetric latencyOf(RunFigure figure) {
  switch (figure) {
    case RunFigure::MeanTtft:
    case RunFigure::MedianTtft:
    case RunFigure::P99Ttft:
      return LatencyMetric::Ttft;
    case RunFigure::MeanTpot:
    case RunFigure::MedianTpot:
    case RunFigure::P99Tpot:
      return LatencyMetric::Tpot;
    case RunFigure::MeanItl:
    case RunFigure::MedianItl:
    case RunFigure::P99Itl:
      return LatencyMetric::Itl;
    default:
      return LatencyMetric::E2el;
  }
}

// Taller than a comparison's chart: a study's legend lists every configuration.
constexpr QSize kStudyChartSize{kReportChartSize.width(), kReportChartSize.height() + 60};

}  // namespace

std::vector<ReportChart> studyReportCharts(const std::filesystem::path& storePath, std::int64_t studyId,
                                           ReportLanguage language) {
  const ReportLocaleScope locale(language);
  const StudySpec study = StudyRunner::loadStored(storePath, studyId);
  const std::string code(reportLanguageCode(language));
  const LatencyMetric metric = latencyOf(study.decidingFigure);
  const std::string_view label = latencyMetricLabel(metric, language);
  const QString valueTitle = fromCatalogue(label) + QStringLiteral(" (ms)");
  const QString share = fromCatalogue(reportText(ReportText::ChartCumulativeShare, language));
  ResultStore store(storePath);
  const std::vector<StudyCell> cells = store.listStudyCells(studyId);
  std::vector<ReportChart> charts;
  for (const ProfileSpec& profile : study.profiles) {
    QList<Distribution> distributions;
    for (const StudyConfiguration& configuration : study.configurations()) {
      for (const StudyCell& cell : cells) {
        if (cell.phase != "options" || cell.configuration != configuration.name ||
            cell.profile != profile.name || cell.status != CellStatus::Done || !cell.runId)
          continue;
        distributions.append(
            {QString::fromStdString(localized(configuration.title, code, configuration.name)),
             latencyValuesMs(store.loadRequests(*cell.runId), metric)});
      }
    }
    if (distributions.isEmpty()) continue;
    DistributionChart chart;
    chart.setAxisTitles(valueTitle, QString(), share);
    chart.setDistributions(distributions);
    const std::string caption = formatReportText(ReportText::ComparisonCdfCaption, language, {label}) +
                                " — " + localized(profile.title, code, profile.name);
    QStringList drawn{valueTitle, share};
    drawn += chart.seriesNames();
    charts.push_back({QString::fromStdString(caption), reportChartImage(chart, kStudyChartSize), drawn});
  }
  return charts;
}

void writeStudyReportFile(const std::filesystem::path& storePath, std::int64_t studyId,
                          ReportLanguage language, const QString& path, ReportFileFormat format) {
  writeReportFile(buildStudyReport(storePath, studyId, reportLocaleFor(language, format)),
                  reportFileHasCharts(format) ? studyReportCharts(storePath, studyId, language)
                                              : std::vector<ReportChart>{},
                  path, format);
}

}  // namespace ayar
