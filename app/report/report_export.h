#pragma once

#include <QImage>
#include <QString>
#include <vector>

#include "core/report/report_document.h"

namespace ayar {

// A chart drawn into a report.
struct ReportChart {
  QString title;
  QImage image;
};

enum class ReportFileFormat { Pdf, Html, Markdown, Csv, Json };

// The format a file name asks for by its suffix (.pdf, .html/.htm, .md, .csv, .json); Pdf otherwise.
ReportFileFormat reportFileFormatFor(const QString& path);

// core's HTML page with the charts added as a section of embedded PNG images (data: URLs), so that
// the page stays one self-contained file.
QString reportHtmlWithCharts(const ReportDocument& document, const std::vector<ReportChart>& charts);

// Writes the report: PDF through QTextDocument into QPdfWriter (A4, charts embedded), HTML with the
// charts embedded, Markdown, CSV and JSON as core renders them (no charts). Throws ayar::Error naming
// the path when it cannot be written.
void writeReportFile(const ReportDocument& document, const std::vector<ReportChart>& charts,
                     const QString& path, ReportFileFormat format);

}  // namespace ayar
