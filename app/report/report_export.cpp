#include "app/report/report_export.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QFile>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextTable>
#include <QUrl>
#include <cmath>

#include "core/error.h"
#include "core/report/message_text.h"

namespace ayar {

namespace {

// The PDF's page: A4 with these margins (mm), the page number in the bottom kFooterMm of the text area.
constexpr qreal kMarginMm = 16.0;
constexpr qreal kFooterMm = 8.0;
// Layout units of the PDF: three device pixels per CSS pixel, so that lengths in the HTML (cell
// padding, image sizes) scale by a whole number.
constexpr int kPdfResolution = 288;

QString headingText(const ReportDocument& document, ReportText id) {
  return QString::fromUtf8(reportText(id, document.language).data(),
                           static_cast<qsizetype>(reportText(id, document.language).size()))
      .toHtmlEscaped();
}

QByteArray pngOf(const QImage& image) {
  QByteArray png;
  QBuffer buffer(&png);
  buffer.open(QIODevice::WriteOnly);
  image.save(&buffer, "PNG");
  return png;
}

// The size a chart is shown at, in CSS pixels, `width` wide.
QSize shownSize(const QImage& image, int width) {
  const QSizeF logical = image.deviceIndependentSize();
  if (logical.width() <= 0) return {width, width * 9 / 16};
  return {width, static_cast<int>(std::lround(width * logical.height() / logical.width()))};
}

// The charts as a browser shows them: figures with a caption, the image as a data: URL.
QString browserChartsSection(const ReportDocument& document, const std::vector<ReportChart>& charts) {
  if (charts.empty()) return {};
  QString html = QStringLiteral("<h2>") + headingText(document, ReportText::ComparisonCharts) +
                 QStringLiteral("</h2>\n");
  for (const ReportChart& chart : charts) {
    const QSize size = shownSize(chart.image, kHtmlChartWidth);
    html += QStringLiteral(
                "<figure style=\"margin: 1.2rem 0 2rem;\">\n<figcaption style=\"font-weight: 600; "
                "margin-bottom: 0.4rem;\">%1</figcaption>\n<img src=\"data:image/png;base64,%2\" alt=\"%1\" "
                "width=\"%3\" height=\"%4\" style=\"max-width: 100%; height: auto;\">\n</figure>\n")
                .arg(chart.title.toHtmlEscaped(), QString::fromLatin1(pngOf(chart.image).toBase64()))
                .arg(size.width())
                .arg(size.height());
  }
  return html;
}

// The charts as QTextDocument lays them out: the caption a paragraph of its own (kept with the image
// by keepTogether()), the image a document resource `width` CSS pixels wide.
QString richTextChartsSection(const ReportDocument& document, const std::vector<ReportChart>& charts,
                              int width) {
  if (charts.empty()) return {};
  QString html = QStringLiteral("<h2>") + headingText(document, ReportText::ComparisonCharts) +
                 QStringLiteral("</h2>\n");
  for (std::size_t i = 0; i < charts.size(); ++i) {
    const QSize size = shownSize(charts[i].image, width);
    html += QStringLiteral("<p><b>%1</b></p>\n<p><img src=\"chart%2.png\" width=\"%3\" height=\"%4\"></p>\n")
                .arg(charts[i].title.toHtmlEscaped())
                .arg(i)
                .arg(size.width())
                .arg(size.height());
  }
  return html;
}

// core's page with the charts where the document puts them.
QString withCharts(const std::string& html, const QString& charts) {
  QString page = QString::fromStdString(html);
  const QString marker =
      QString::fromUtf8(kHtmlChartsMarker.data(), static_cast<qsizetype>(kHtmlChartsMarker.size()));
  const qsizetype at = page.indexOf(marker);
  if (at < 0) return page.replace(QStringLiteral("</body>"), charts + QStringLiteral("</body>"));
  return page.replace(at, marker.size(), charts);
}

// The system's words (Qt's, in English) follow the file after a colon, when there are any.
MessageError cannotWrite(const QString& path, const QString& why) {
  return MessageError({MessageText::ReportCannotWrite,
                       {path.toStdString(), why.isEmpty() ? std::string() : ": " + why.toStdString()}});
}

void writeBytes(const QString& path, const QByteArray& bytes) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(bytes) != bytes.size())
    throw cannotWrite(path, file.errorString());
}

// Page geometry of a laid-out QTextDocument.
class Pages {
 public:
  // QTextDocumentLayout lays a changed document out lazily, in steps an event loop would drive;
  // pageCount() finishes the layout first, so that every position read here is current.
  explicit Pages(const QTextDocument& document)
      : m_document(document), m_height(document.pageSize().height()), m_count(document.pageCount()) {}

  // Where a block's first line starts and its last line ends. The layout moves a line that would
  // cross a page's end to the next page within its block, so these are not the block's rectangle.
  qreal top(const QTextBlock& block) const {
    const QTextLayout* layout = block.layout();
    return origin(block) + (layout->lineCount() > 0 ? layout->lineAt(0).y() : 0.0);
  }
  qreal bottom(const QTextBlock& block) const {
    const QTextLayout* layout = block.layout();
    if (layout->lineCount() == 0) return origin(block);
    const QTextLine last = layout->lineAt(layout->lineCount() - 1);
    return origin(block) + last.y() + last.height();
  }
  int pageAt(qreal y) const { return static_cast<int>(std::floor(y / m_height)); }
  int firstPage(const QTextBlock& block) const { return pageAt(top(block) + 0.5); }
  int lastPage(const QTextBlock& block) const { return pageAt(bottom(block) - 0.5); }
  qreal height() const { return m_height; }
  int count() const { return m_count; }

 private:
  // The document position of the block's layout, where its lines' y() count from.
  qreal origin(const QTextBlock& block) const {
    return m_document.documentLayout()->blockBoundingRect(block).top();
  }

  const QTextDocument& m_document;
  qreal m_height;
  int m_count;
};

bool isPre(const QTextBlock& block) {
  return block.blockFormat().nonBreakableLines();
}

bool inTable(const QTextBlock& block) {
  return QTextCursor(block).currentTable() != nullptr;
}

bool holdsImage(const QTextBlock& block) {
  for (auto it = block.begin(); !it.atEnd(); ++it) {
    if (it.fragment().charFormat().isImageFormat()) return true;
  }
  return false;
}

bool isEmpty(const QTextBlock& block) {
  return block.length() <= 1;
}

QTextBlock nextContent(QTextBlock block) {
  for (block = block.next(); block.isValid() && isEmpty(block) && !holdsImage(block); block = block.next()) {
  }
  return block;
}

// Headings and captions belong with what follows them: a heading, a table's or a result block's
// caption, a chart's caption.
bool keepsWithNext(const QTextBlock& block) {
  if (inTable(block) || isPre(block) || isEmpty(block) || holdsImage(block)) return false;
  if (block.blockFormat().headingLevel() > 0) return true;
  const QTextBlock next = nextContent(block);
  if (!next.isValid()) return false;
  if (inTable(next) || isPre(next) || holdsImage(next)) return true;
  // A one-line lead-in ("Profile: ...") stays with the caption it leads to.
  return block.layout()->lineCount() == 1 && block.textList() == nullptr && keepsWithNext(next);
}

// The first block of the run of keepsWithNext() blocks that ends at `block`.
QTextBlock chainStart(QTextBlock block) {
  for (QTextBlock previous = block.previous(); previous.isValid(); previous = previous.previous()) {
    if (isEmpty(previous)) continue;
    if (!keepsWithNext(previous)) break;
    block = previous;
  }
  return block;
}

bool breakBefore(const QTextBlock& block) {
  QTextBlockFormat format = block.blockFormat();
  if (format.pageBreakPolicy() & QTextFormat::PageBreak_AlwaysBefore) return false;
  format.setPageBreakPolicy(format.pageBreakPolicy() | QTextFormat::PageBreak_AlwaysBefore);
  QTextCursor(block).setBlockFormat(format);
  return true;
}

// One pass over the laid-out document: a page break before every heading or caption that ends a
// page while what it introduces starts the next one, and before a result block or a table (with its
// captions) that a page end would cut but one page holds. True when something moved.
bool keepTogetherPass(QTextDocument& document) {
  const Pages pages(document);
  for (QTextBlock block = document.firstBlock(); block.isValid(); block = block.next()) {
    if (keepsWithNext(block)) {
      const QTextBlock next = nextContent(block);
      if (pages.firstPage(next) > pages.lastPage(block) && breakBefore(chainStart(block))) return true;
      continue;
    }
    // A result block (preformatted lines) or a table: the blocks from here to its end.
    const bool pre = isPre(block) && !isPre(block.previous());
    QTextTable* table =
        inTable(block) && !inTable(block.previous()) ? QTextCursor(block).currentTable() : nullptr;
    if (!pre && !table) continue;
    QTextBlock last = block;
    if (pre) {
      while (last.next().isValid() && isPre(last.next()))
        last = last.next();
    } else {
      last = table->lastCursorPosition().block();
    }
    const qreal top = pages.top(block);
    const qreal bottom = pages.bottom(last);
    if (pages.pageAt(top) == pages.pageAt(bottom - 0.5) || bottom - top > pages.height() * 0.9) continue;
    QTextBlock start = block.previous();
    while (start.isValid() && isEmpty(start))
      start = start.previous();
    if (start.isValid() && keepsWithNext(start)) {
      if (breakBefore(chainStart(start))) return true;
    } else if (table) {
      QTextFrameFormat format = table->frameFormat();
      if (!(format.pageBreakPolicy() & QTextFormat::PageBreak_AlwaysBefore)) {
        format.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
        table->setFrameFormat(format);
        return true;
      }
    } else if (breakBefore(block)) {
      return true;
    }
  }
  return false;
}

// The number of pages with content: the layout may end with an empty block (or its margin) on a page
// of its own, which is not printed.
int contentPages(const QTextDocument& document) {
  const Pages pages(document);
  for (QTextBlock block = document.lastBlock(); block.isValid(); block = block.previous()) {
    if (isEmpty(block) && !holdsImage(block)) continue;
    return std::min(pages.count(), pages.lastPage(block) + 1);
  }
  return 1;
}

void writePdf(const ReportDocument& document, const std::vector<ReportChart>& charts, const QString& path) {
  // QPdfWriter reports nothing when it cannot open its file.
  {
    QFile probe(path);
    if (!probe.open(QIODevice::WriteOnly | QIODevice::Truncate)) throw cannotWrite(path, probe.errorString());
  }
  QPdfWriter writer(path);
  writer.setPageSize(QPageSize(QPageSize::A4));
  writer.setPageMargins(QMarginsF(kMarginMm, kMarginMm, kMarginMm, kMarginMm), QPageLayout::Millimeter);
  writer.setResolution(kPdfResolution);
  writer.setTitle(QString::fromStdString(document.title));
  writer.setCreator(QStringLiteral("Ayar"));
  const QRect area = writer.pageLayout().paintRectPixels(kPdfResolution);
  const qreal footer = kFooterMm / 25.4 * kPdfResolution;
  const QSizeF page(area.width(), area.height() - footer);

  QTextDocument text;
  text.documentLayout()->setPaintDevice(&writer);
  text.setPageSize(page);
  text.setDocumentMargin(0);
  QFont font = text.defaultFont();
  font.setPointSizeF(10);
  text.setDefaultFont(font);
  // QTextDocument reads images from its resources, not from data: URLs.
  for (std::size_t i = 0; i < charts.size(); ++i)
    text.addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("chart%1.png").arg(i)),
                     charts[i].image);
  const int chartWidth =
      std::min(kReportChartSize.width(), static_cast<int>(page.width() * 96.0 / kPdfResolution));
  text.setHtml(withCharts(renderHtml(document, HtmlDialect::QtRichText),
                          richTextChartsSection(document, charts, chartWidth)));
  // Each pass moves one thing to the next page and lays the document out again; a report has far
  // fewer headings and tables than this bound.
  for (int pass = 0; pass < 500 && keepTogetherPass(text); ++pass) {
  }

  const int pageCount = contentPages(text);
  QPainter painter;
  if (!painter.begin(&writer)) throw cannotWrite(path, QString());
  // Charts are line drawings: kept as PNG-like lossless images, not JPEG.
  painter.setRenderHint(QPainter::LosslessImageRendering);
  QFont footerFont = font;
  footerFont.setPointSizeF(8);
  for (int i = 0; i < pageCount; ++i) {
    if (i > 0) writer.newPage();
    painter.save();
    const QRectF clip(0, i * page.height(), page.width(), page.height());
    painter.translate(0, -clip.top());
    painter.setClipRect(clip);
    QAbstractTextDocumentLayout::PaintContext context;
    context.clip = clip;
    context.palette.setColor(QPalette::Text, Qt::black);
    text.documentLayout()->draw(&painter, context);
    painter.restore();
    painter.setFont(footerFont);
    painter.setPen(QColor(110, 110, 110));
    const std::string number = formatReportText(ReportText::PageOf, document.language,
                                                {std::to_string(i + 1), std::to_string(pageCount)});
    painter.drawText(QRectF(0, page.height(), page.width(), footer), Qt::AlignRight | Qt::AlignBottom,
                     QString::fromStdString(number));
  }
  painter.end();
}

}  // namespace

ReportFileFormat reportFileFormatFor(const QString& path) {
  const QString lower = path.toLower();
  if (lower.endsWith(QStringLiteral(".html")) || lower.endsWith(QStringLiteral(".htm")))
    return ReportFileFormat::Html;
  if (lower.endsWith(QStringLiteral(".md"))) return ReportFileFormat::Markdown;
  if (lower.endsWith(QStringLiteral(".csv"))) return ReportFileFormat::Csv;
  if (lower.endsWith(QStringLiteral(".json"))) return ReportFileFormat::Json;
  return ReportFileFormat::Pdf;
}

bool reportFileHasCharts(ReportFileFormat format) {
  return format == ReportFileFormat::Pdf || format == ReportFileFormat::Html;
}

ReportLocale reportLocaleFor(ReportLanguage language, ReportFileFormat format) {
  const bool machine = format == ReportFileFormat::Csv || format == ReportFileFormat::Json;
  return ReportLocale(language, machine ? NumberStyle::C : NumberStyle::Language);
}

QString reportHtmlWithCharts(const ReportDocument& document, const std::vector<ReportChart>& charts) {
  return withCharts(renderHtml(document), browserChartsSection(document, charts));
}

void writeReportFile(const ReportDocument& document, const std::vector<ReportChart>& charts,
                     const QString& path, ReportFileFormat format) {
  switch (format) {
    case ReportFileFormat::Html:
      writeBytes(path, reportHtmlWithCharts(document, charts).toUtf8());
      return;
    case ReportFileFormat::Markdown:
      writeBytes(path, QByteArray::fromStdString(renderReport(document, ReportFormat::Markdown)));
      return;
    case ReportFileFormat::Csv:
      writeBytes(path, QByteArray::fromStdString(renderReport(document, ReportFormat::Csv)));
      return;
    case ReportFileFormat::Json:
      writeBytes(path, QByteArray::fromStdString(renderReport(document, ReportFormat::Json)));
      return;
    case ReportFileFormat::Pdf:
      writePdf(document, charts, path);
      return;
  }
}

}  // namespace ayar
