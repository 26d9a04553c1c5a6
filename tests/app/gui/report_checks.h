#pragma once

#include <QList>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <vector>

#include "app/report/report_export.h"

// Reports read back the way a person sees them: PDFs through poppler's tools (pdfinfo, pdftotext,
// pdfimages), HTML pages through a headless Chromium. scripts/setup.sh installs both; a missing tool
// fails the test that needs it, naming the package.
namespace ayar::test {

// Runs `program` with `arguments`; its standard output. A failure to start or a non-zero exit fails
// the calling test (ADD_FAILURE) and gives what it printed.
QString runTool(const QString& program, const QStringList& arguments, int timeoutMs = 60000);

int pdfPageCount(const QString& pdf);
// The text of one page (1-based), or of every page when page is 0, in reading order (-layout keeps
// the columns of a table apart as they are drawn). Ligatures (ﬁ) are read as their letters.
QString pdfText(const QString& pdf, int page = 0, bool layout = false);

// The lines of each page, trimmed, blank ones left out; one list per page as pdfinfo counts them.
QList<QStringList> pdfPageLines(const QString& pdf);

// A word as pdftotext -bbox places it, in points from the page's top left.
struct PdfWord {
  int page = 0;
  QRectF box;
  QString text;
};
QList<PdfWord> pdfWords(const QString& pdf);

// What a page shows, as pdftohtml -xml places it in pixels from the page's top left: a run of text
// (adjacent words of one line may run together) or an image. What is drawn outside the page (and
// clipped away) is left out.
struct PdfItem {
  int page = 0;
  QRectF box;
  QString text;  // empty for an image
  bool image = false;
};
// Every page's items, page by page, each page's from the top down.
QList<PdfItem> pdfLayout(const QString& pdf);

// A report's title, section titles, table and block captions and chart captions.
QStringList headingsAndCaptions(const ReportDocument& document, const std::vector<ReportChart>& charts);
// Those of `headings` that end a page of the PDF, standing alone on their line: nothing but the
// page's number (a line starting with `pageWord`) follows them on their page.
QStringList headingsEndingAPage(const QString& pdf, const QStringList& headings, const QString& pageWord);

// An image as `pdfimages -list` describes it: its pixels and the pixels per inch it is drawn at.
struct PdfImage {
  int page = 0;
  int width = 0, height = 0;
  double ppiX = 0, ppiY = 0;
  double shownWidthInches() const { return ppiX > 0 ? width / ppiX : 0; }
};
QList<PdfImage> pdfImages(const QString& pdf);

// Prints an HTML file to PDF with headless Chromium, as a browser lays it out (US Letter); returns
// the PDF's path, next to the HTML file.
QString chromiumPrintToPdf(const QString& html);

}  // namespace ayar::test
