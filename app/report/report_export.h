#pragma once

#include <QImage>
#include <QSize>
#include <QString>
#include <QStringList>
#include <vector>

#include "core/report/report_document.h"

namespace ayar {

// Charts are drawn for reports at this size in CSS pixels (1/96 inch), with kReportChartScale times
// as many image pixels, so that they stay sharp in print and on high-density screens. The HTML page
// shows them a little larger, the PDF at the text's width: their lettering reads like the body text.
inline constexpr QSize kReportChartSize{640, 380};
inline constexpr qreal kReportChartScale = 2.8;
// How wide the HTML page shows a chart of kReportChartSize, in CSS pixels (the page is 60rem wide).
inline constexpr int kHtmlChartWidth = 880;

// A chart drawn into a report.
struct ReportChart {
  QString title;  // the caption above the chart, in the report's language
  QImage image;   // kReportChartScale device pixels per CSS pixel (see QImage::devicePixelRatio)
  // Every text drawn inside the image (axis titles, legend and category names), for checks.
  QStringList drawnText;
};

enum class ReportFileFormat { Pdf, Html, Markdown, Csv, Json };

// The format a file name asks for by its suffix (.pdf, .html/.htm, .md, .csv, .json); Pdf otherwise.
ReportFileFormat reportFileFormatFor(const QString& path);
// PDF and HTML carry charts; the other formats are text a program or an editor reads.
bool reportFileHasCharts(ReportFileFormat format);
// The locale to build a report for `format` in: people read PDF, HTML and Markdown in the language's
// numbers, programs read CSV and JSON in the C locale's.
ReportLocale reportLocaleFor(ReportLanguage language, ReportFileFormat format);

// core's HTML page with the charts added as a section of embedded PNG images (data: URLs), so that
// the page stays one self-contained file.
QString reportHtmlWithCharts(const ReportDocument& document, const std::vector<ReportChart>& charts);

// Writes the report: PDF (A4, QTextDocument laid out on the page, charts embedded, headings and
// captions kept with what follows them, result blocks and short tables kept on one page, numbered
// pages), HTML with the charts embedded, Markdown, CSV and JSON as core renders them (no charts).
// Build the document with reportLocaleFor(language, format). Throws ayar::Error naming the path when
// it cannot be written.
void writeReportFile(const ReportDocument& document, const std::vector<ReportChart>& charts,
                     const QString& path, ReportFileFormat format);

}  // namespace ayar
