#include "app/gui/headless_report.h"

#include <QSettings>

#include "app/gui/language.h"
#include "app/gui/report_charts.h"
#include "app/gui/stored_run.h"
#include "app/gui/study_report_charts.h"
#include "app/report/report_export.h"
#include "core/error.h"
#include "core/store/result_store.h"
#include "core/store/store_path.h"

namespace ayar {

namespace {

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
    // Without --lang, the language the workbench would open in: the one last chosen, else the system's.
    const QString code =
        !language.isEmpty()
            ? language
            : QSettings().value(QStringLiteral("ui/language"), Language::systemDefault()).toString();
    const ReportLanguage reportLanguage = parseReportLanguage(code.toStdString());
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
    writeComparisonReportFile(runs, reportLanguage, output, fileFormat);
    return {};
  } catch (const Error& e) {
    return QString::fromUtf8(e.what());
  }
}

}  // namespace ayar
