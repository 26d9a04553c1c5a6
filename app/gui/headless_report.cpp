#include "app/gui/headless_report.h"

#include "app/gui/stored_run.h"
#include "app/gui/study_report_charts.h"
#include "app/report/report_export.h"
#include "core/error.h"
#include "core/metrics/latency_values.h"
#include "core/report/comparison_report.h"
#include "core/store/result_store.h"
#include "core/store/store_path.h"
#include "widgets/box_plot_chart.h"
#include "widgets/distribution_chart.h"

namespace ayar {

namespace {

ComparisonReportRun reportRun(const LoadedRun& run) {
  ComparisonReportRun r;
  r.name = run.name.toStdString();
  r.summary = run.summary;
  r.requestRate = run.requestRate;
  r.simulated = run.facts.simulated;
  return r;
}

// The runs' TTFT distributions drawn offscreen, as the Compare area draws them.
std::vector<ReportChart> ttftCharts(const std::vector<LoadedRun>& runs, ReportLanguage language) {
  QList<Distribution> cdfs, boxes;
  for (const LoadedRun& run : runs) {
    cdfs.append({run.name, latencyValuesMs(run.records, LatencyMetric::Ttft)});
    boxes.append({run.shortName, cdfs.back().values});
  }
  DistributionChart cdf;
  cdf.resize(900, 520);
  cdf.setAxisTitles(QStringLiteral("TTFT (ms)"), QString(), QStringLiteral("CDF (%)"));
  cdf.setDistributions(cdfs, {50, 90, 99});
  BoxPlotChart box;
  box.resize(900, 520);
  box.setValueTitle(QStringLiteral("TTFT (ms)"));
  box.setDistributions(boxes);
  return {{QString::fromStdString(formatReportText(ReportText::ComparisonCdfCaption, language, {"TTFT"})),
           cdf.toImage()},
          {QString::fromStdString(formatReportText(ReportText::ComparisonBoxCaption, language, {"TTFT"})),
           box.toImage()}};
}

ReportFileFormat parseFormat(const QString& format, const QString& output) {
  if (format.isEmpty()) return reportFileFormatFor(output);
  if (format == QLatin1String("pdf")) return ReportFileFormat::Pdf;
  if (format == QLatin1String("html")) return ReportFileFormat::Html;
  if (format == QLatin1String("md") || format == QLatin1String("markdown")) return ReportFileFormat::Markdown;
  if (format == QLatin1String("csv")) return ReportFileFormat::Csv;
  if (format == QLatin1String("json")) return ReportFileFormat::Json;
  throw Error("--format " + format.toStdString() + ": use pdf, html, md, csv or json");
}

}  // namespace

QString writeHeadlessReport(const std::filesystem::path& storePath, const QString& what,
                            const QString& format, const QString& language, const QString& output) {
  try {
    if (output.isEmpty()) throw Error("--report needs --output FILE (where to write the report)");
    const ReportFileFormat fileFormat = parseFormat(format, output);
    const ReportLanguage reportLanguage =
        parseReportLanguage(language.isEmpty() ? std::string("en") : language.toStdString());
    const std::filesystem::path store = storePath.empty() ? defaultStorePath() : storePath;
    if (what.startsWith(QLatin1String("study:"))) {
      bool ok = false;
      const qint64 id = what.mid(6).toLongLong(&ok);
      if (!ok || id <= 0)
        throw Error("--report " + what.toStdString() + ": give study:ID with a study's number");
      writeStudyReportFile(store, id, reportLanguage, output, fileFormat);
      return {};
    }
    std::vector<std::int64_t> ids;
    for (const QString& part : what.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
      bool ok = false;
      const qint64 id = part.trimmed().toLongLong(&ok);
      if (!ok || id <= 0)
        throw Error("--report " + what.toStdString() +
                    ": give run ids separated by commas (ayar-cli runs list shows them) or study:ID");
      ids.push_back(id);
    }
    if (ids.empty()) throw Error("--report needs run ids or study:ID");
    ResultStore resultStore(store);
    std::vector<LoadedRun> runs;
    for (std::int64_t id : ids)
      runs.push_back(loadStoredRun(resultStore, id));
    std::vector<ComparisonReportRun> candidates;
    for (std::size_t i = 1; i < runs.size(); ++i)
      candidates.push_back(reportRun(runs[i]));
    const ReportDocument document =
        buildComparisonReport(reportRun(runs.front()), candidates, reportLanguage);
    writeReportFile(document, ttftCharts(runs, reportLanguage), output, fileFormat);
    return {};
  } catch (const Error& e) {
    return QString::fromUtf8(e.what());
  }
}

}  // namespace ayar
