#include "app/report/report_export.h"

#include <QBuffer>
#include <QFile>
#include <QPageSize>
#include <QPdfWriter>
#include <QTextDocument>
#include <QUrl>

#include "core/error.h"

namespace ayar {

namespace {

QString chartsSection(const ReportDocument& document, const std::vector<ReportChart>& charts, bool dataUrls) {
  if (charts.empty()) return {};
  QString html =
      QStringLiteral("<h2>") +
      QString::fromUtf8(reportText(ReportText::ComparisonCharts, document.language).data()).toHtmlEscaped() +
      QStringLiteral("</h2>\n");
  for (std::size_t i = 0; i < charts.size(); ++i) {
    QString source = QStringLiteral("chart%1.png").arg(i);
    if (dataUrls) {
      QByteArray png;
      QBuffer buffer(&png);
      buffer.open(QIODevice::WriteOnly);
      charts[i].image.save(&buffer, "PNG");
      source = QStringLiteral("data:image/png;base64,") + QString::fromLatin1(png.toBase64());
    }
    // Caption above the image, both in one paragraph: QTextDocument knows no <figure>, and a caption
    // below could land on the next PDF page.
    html += QStringLiteral("<p><b>%2</b><br><img src=\"%1\" alt=\"%2\" width=\"460\"></p>\n")
                .arg(source, charts[i].title.toHtmlEscaped());
  }
  return html;
}

QString insertBeforeBodyEnd(QString html, const QString& extra) {
  const qsizetype end = html.lastIndexOf(QStringLiteral("</body>"));
  if (end < 0) return html + extra;
  html.insert(end, extra);
  return html;
}

void writeBytes(const QString& path, const QByteArray& bytes) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(bytes) != bytes.size())
    throw Error("cannot write the report to " + path.toStdString() + ": " + file.errorString().toStdString() +
                "; choose a folder you can write to");
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

QString reportHtmlWithCharts(const ReportDocument& document, const std::vector<ReportChart>& charts) {
  return insertBeforeBodyEnd(QString::fromStdString(renderHtml(document)),
                             chartsSection(document, charts, true));
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
      break;
  }
  // QTextDocument reads images from its resources, not from data: URLs.
  QTextDocument text;
  for (std::size_t i = 0; i < charts.size(); ++i)
    text.addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("chart%1.png").arg(i)),
                     charts[i].image);
  text.setHtml(insertBeforeBodyEnd(QString::fromStdString(renderHtml(document)),
                                   chartsSection(document, charts, false)));
  QPdfWriter writer(path);
  writer.setPageSize(QPageSize(QPageSize::A4));
  writer.setResolution(144);
  writer.setTitle(QString::fromStdString(document.title));
  writer.setCreator(QStringLiteral("Ayar"));
  QFile probe(path);
  if (!probe.open(QIODevice::WriteOnly | QIODevice::Append))
    throw Error("cannot write the report to " + path.toStdString() + ": " +
                probe.errorString().toStdString() + "; choose a folder you can write to");
  probe.close();
  text.print(&writer);
}

}  // namespace ayar
