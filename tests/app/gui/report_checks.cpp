#include "tests/app/gui/report_checks.h"

#include <gtest/gtest.h>

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QUrl>
#include <QXmlStreamReader>
#include <algorithm>
#include <cmath>

namespace ayar::test {

QString runTool(const QString& program, const QStringList& arguments, int timeoutMs) {
  QProcess process;
  process.start(program, arguments);
  if (!process.waitForStarted(10000)) {
    ADD_FAILURE() << program.toStdString() << " did not start: install it (scripts/setup.sh does: "
                  << (program == QLatin1String("chromium") ? "chromium" : "poppler-utils") << ")";
    return {};
  }
  if (!process.waitForFinished(timeoutMs)) {
    process.kill();
    process.waitForFinished();
    ADD_FAILURE() << program.toStdString() << " " << arguments.join(QLatin1Char(' ')).toStdString()
                  << " did not finish";
    return {};
  }
  const QString out = QString::fromUtf8(process.readAllStandardOutput());
  if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0)
    ADD_FAILURE() << program.toStdString() << " " << arguments.join(QLatin1Char(' ')).toStdString()
                  << " failed: " << process.readAllStandardError().toStdString();
  return out;
}

int pdfPageCount(const QString& pdf) {
  const QRegularExpression pages(QStringLiteral("^Pages:\\s+(\\d+)$"), QRegularExpression::MultilineOption);
  const auto match = pages.match(runTool(QStringLiteral("pdfinfo"), {pdf}));
  return match.hasMatch() ? match.captured(1).toInt() : 0;
}

QString pdfText(const QString& pdf, int page, bool layout) {
  QStringList arguments;
  if (layout) arguments << QStringLiteral("-layout");
  if (page > 0)
    arguments << QStringLiteral("-f") << QString::number(page) << QStringLiteral("-l")
              << QString::number(page);
  arguments << pdf << QStringLiteral("-");
  return runTool(QStringLiteral("pdftotext"), arguments).normalized(QString::NormalizationForm_KC);
}

QList<QStringList> pdfPageLines(const QString& pdf) {
  QList<QStringList> pages;
  const int count = pdfPageCount(pdf);
  for (int page = 1; page <= count; ++page) {
    QStringList lines;
    for (const QString& line : pdfText(pdf, page).split(QLatin1Char('\n'))) {
      const QString trimmed = line.trimmed().remove(QLatin1Char('\f'));
      if (!trimmed.isEmpty()) lines.append(trimmed);
    }
    pages.append(lines);
  }
  return pages;
}

QList<PdfWord> pdfWords(const QString& pdf) {
  const QString html =
      runTool(QStringLiteral("pdftotext"), {QStringLiteral("-bbox"), pdf, QStringLiteral("-")})
          .normalized(QString::NormalizationForm_KC);
  QList<PdfWord> words;
  int page = 0;
  static const QRegularExpression tag(
      QStringLiteral("<page |<word xMin=\"([0-9.]+)\" yMin=\"([0-9.]+)\" xMax=\"([0-9.]+)\" "
                     "yMax=\"([0-9.]+)\">([^<]*)</word>"));
  for (auto it = tag.globalMatch(html); it.hasNext();) {
    const auto match = it.next();
    if (match.captured(0).startsWith(QLatin1String("<page"))) {
      ++page;
      continue;
    }
    PdfWord word;
    word.page = page;
    word.box = QRectF(QPointF(match.captured(1).toDouble(), match.captured(2).toDouble()),
                      QPointF(match.captured(3).toDouble(), match.captured(4).toDouble()));
    // pdftotext writes the word as HTML text.
    word.text = match.captured(5)
                    .replace(QStringLiteral("&lt;"), QStringLiteral("<"))
                    .replace(QStringLiteral("&gt;"), QStringLiteral(">"))
                    .replace(QStringLiteral("&quot;"), QStringLiteral("\""))
                    .replace(QStringLiteral("&amp;"), QStringLiteral("&"));
    words.append(word);
  }
  return words;
}

QList<PdfItem> pdfLayout(const QString& pdf) {
  QTemporaryDir out;  // pdftohtml writes the images it finds beside its XML
  runTool(QStringLiteral("pdftohtml"),
          {QStringLiteral("-xml"), QStringLiteral("-q"), pdf, out.filePath(QStringLiteral("layout"))});
  QFile file(out.filePath(QStringLiteral("layout.xml")));
  if (!file.open(QIODevice::ReadOnly)) {
    ADD_FAILURE() << "pdftohtml wrote no XML for " << pdf.toStdString();
    return {};
  }
  QList<PdfItem> items;
  QXmlStreamReader xml(&file);
  int page = 0;
  double pageHeight = 0;
  const auto box = [&xml] {
    const auto a = xml.attributes();
    return QRectF(a.value(QLatin1String("left")).toDouble(), a.value(QLatin1String("top")).toDouble(),
                  a.value(QLatin1String("width")).toDouble(), a.value(QLatin1String("height")).toDouble());
  };
  while (!xml.atEnd()) {
    if (xml.readNext() != QXmlStreamReader::StartElement) continue;
    if (xml.name() == QLatin1String("page")) {
      page = xml.attributes().value(QLatin1String("number")).toInt();
      pageHeight = xml.attributes().value(QLatin1String("height")).toDouble();
    } else if (xml.name() == QLatin1String("image") || xml.name() == QLatin1String("text")) {
      const bool image = xml.name() == QLatin1String("image");
      const QRectF at = box();
      const QString text = image ? QString()
                                 : xml.readElementText(QXmlStreamReader::IncludeChildElements)
                                       .normalized(QString::NormalizationForm_KC)
                                       .trimmed();
      // Drawn outside the page (clipped away): not shown.
      if (at.top() < pageHeight && at.bottom() > 0) items.append({page, at, text, image});
    }
  }
  std::stable_sort(items.begin(), items.end(), [](const PdfItem& a, const PdfItem& b) {
    return a.page != b.page ? a.page < b.page : a.box.top() < b.box.top();
  });
  return items;
}

QStringList headingsAndCaptions(const ReportDocument& document, const std::vector<ReportChart>& charts) {
  QStringList out{
      QString::fromStdString(document.title),
      QString::fromStdString(std::string(reportText(ReportText::ComparisonCharts, document.language)))};
  for (const auto& section : document.sections) {
    out << QString::fromStdString(section.title);
    for (const auto& block : section.blocks)
      if (!block.caption.empty()) out << QString::fromStdString(block.caption);
  }
  for (const auto& chart : charts)
    out << chart.title;
  return out;
}

QStringList headingsEndingAPage(const QString& pdf, const QStringList& headings, const QString& pageWord) {
  const QList<PdfItem> items = pdfLayout(pdf);
  QStringList stranded;
  int found = 0;
  for (const PdfItem& item : items) {
    if (item.image || !headings.contains(item.text)) continue;
    // A heading stands alone on its line; a table cell with the same words has others beside it.
    const bool alone = std::none_of(items.begin(), items.end(), [&](const PdfItem& other) {
      return &other != &item && other.page == item.page && std::abs(other.box.top() - item.box.top()) < 2;
    });
    if (!alone) continue;
    ++found;
    const bool followed = std::any_of(items.begin(), items.end(), [&](const PdfItem& next) {
      return next.page == item.page && next.box.top() >= item.box.bottom() - 1 &&
             !next.text.startsWith(pageWord);
    });
    if (!followed) stranded << QStringLiteral("page %1: %2").arg(item.page).arg(item.text);
  }
  if (found == 0) ADD_FAILURE() << "none of the headings is in " << pdf.toStdString();
  return stranded;
}

QList<PdfImage> pdfImages(const QString& pdf) {
  QList<PdfImage> images;
  const QStringList lines =
      runTool(QStringLiteral("pdfimages"), {QStringLiteral("-list"), pdf}).split(QLatin1Char('\n'));
  // page num type width height color comp bpc enc interp object ID x-ppi y-ppi size ratio
  for (const QString& line : lines) {
    const QStringList f = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    bool ok = false;
    if (f.size() < 14 || f[0].toInt(&ok) <= 0 || !ok || f[2] != QLatin1String("image")) continue;
    images.append({f[0].toInt(), f[3].toInt(), f[4].toInt(), f[12].toDouble(), f[13].toDouble()});
  }
  return images;
}

QString chromiumPrintToPdf(const QString& html) {
  const QString pdf = html + QStringLiteral(".chromium.pdf");
  QTemporaryDir profile;
  runTool(QStringLiteral("chromium"),
          {QStringLiteral("--headless"), QStringLiteral("--no-sandbox"), QStringLiteral("--disable-gpu"),
           QStringLiteral("--disable-background-networking"), QStringLiteral("--disable-component-update"),
           QStringLiteral("--disable-sync"), QStringLiteral("--no-first-run"),
           QStringLiteral("--user-data-dir=") + profile.path(), QStringLiteral("--no-pdf-header-footer"),
           QStringLiteral("--print-to-pdf=") + pdf,
           QUrl::fromLocalFile(QFileInfo(html).absoluteFilePath()).toString()},
          120000);
  return pdf;
}

}  // namespace ayar::test
