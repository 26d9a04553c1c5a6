// A comparison's report files read back as a person sees them, in Turkish and English: the PDF
// through poppler (its text, its words' positions, its pages and images), the HTML page printed by a
// headless Chromium, Markdown as text, CSV and JSON as a program reads them. Each check names the
// defect it guards against.
#include <gtest/gtest.h>

#include <QBuffer>
#include <QCoreApplication>
#include <QFile>
#include <QImage>
#include <QRegularExpression>
#include <fstream>
#include <nlohmann/json.hpp>

#include "app/gui/compare_page.h"
#include "app/gui/main_window.h"
#include "app/gui/report_charts.h"
#include "app/gui/studies_page.h"
#include "core/interop/result_import.h"
#include "core/metrics/latency_values.h"
#include "core/report/comparison_report.h"
#include "core/report/message_text.h"
#include "core/store/result_store.h"
#include "tests/app/gui/gui_test_support.h"
#include "tests/app/gui/report_checks.h"
#include "tests/support/test_env.h"
#include "widgets/distribution_chart.h"

namespace ayar {
namespace {

// A store with two runs imported from vLLM result files: the fixture's requests as the baseline, and
// the same requests with every first token (and so every latency) 6 s later as the candidate, whose
// figures run into thousands of milliseconds ("6.052,00").
std::filesystem::path storeWithTwoRuns(const test::TempDir& dir) {
  std::ifstream in(AYAR_INTEROP_FIXTURES "/vllm_detailed.json");
  nlohmann::ordered_json slow = nlohmann::ordered_json::parse(in);
  for (auto& ttft : slow["ttfts"])
    ttft = ttft.get<double>() + 6.0;
  for (auto& latency : slow["latencies"])
    latency = latency.get<double>() + 6.0;
  slow["label"] = "slow";
  const auto slowFile = dir / "slow.json";
  std::ofstream(slowFile) << slow.dump();
  const auto store = dir / "ayar.db";
  ResultStore resultStore(store);
  for (const auto& file : {std::filesystem::path(AYAR_INTEROP_FIXTURES "/vllm_detailed.json"), slowFile})
    for (const auto& run : readImportedRuns(file))
      resultStore.addFinishedRun(toFinishedRun(run));
  return store;
}

std::vector<LoadedRun> loadRuns(const std::filesystem::path& store) {
  ResultStore resultStore(store);
  return {loadStoredRun(resultStore, 1), loadStoredRun(resultStore, 2)};
}

QString fromUtf8(const std::string& text) {
  return QString::fromStdString(text);
}

const ReportBlock& comparisonTable(const ReportDocument& document) {
  for (const auto& section : document.sections)
    for (const auto& block : section.blocks)
      if (block.kind == ReportBlock::Kind::Table) return block;
  throw std::runtime_error("no table");
}

// A Turkish number ("6.052,00", "72,67") or an English one ("6,052.00", "72.67").
QRegularExpression numberPattern(ReportLanguage language) {
  return QRegularExpression(language == ReportLanguage::Turkish
                                ? QStringLiteral("^[0-9]{1,3}(\\.[0-9]{3})*,[0-9]{2}$")
                                : QStringLiteral("^[0-9]{1,3}(,[0-9]{3})*\\.[0-9]{2}$"));
}

class ReportFiles : public ::testing::TestWithParam<ReportLanguage> {};

TEST_P(ReportFiles, ComparisonPdfHasPaddedCellsRightAlignedNumbersKeptHeadingsAndNoBlankPage) {
  const ReportLanguage language = GetParam();
  const bool turkish = language == ReportLanguage::Turkish;
  test::TempDir dir;
  const std::vector<LoadedRun> runs = loadRuns(storeWithTwoRuns(dir));
  const QString pdf = QString::fromStdString((dir / "comparison.pdf").string());
  writeComparisonReportFile(runs, language, pdf, ReportFileFormat::Pdf);
  std::vector<ComparisonReportRun> candidates{comparisonReportRun(runs[1])};
  const ReportDocument document = buildComparisonReport(comparisonReportRun(runs[0]), candidates, language);
  const std::vector<ReportChart> charts = comparisonReportCharts(runs, language);

  // Cells apart: the header read "Temel yapılandırmaAday" when cells had no padding. Every cell
  // keeps its padding on both sides: the header's words stand well apart.
  const QString layout = test::pdfText(pdf, 0, true);
  const QString baseline = fromUtf8(std::string(reportText(ReportText::ColumnBaseline, language)));
  const QString candidate = fromUtf8(std::string(reportText(ReportText::ColumnCandidate, language)));
  const QString ratio = fromUtf8(std::string(reportText(ReportText::ColumnRatio, language)));
  EXPECT_FALSE(layout.contains(baseline + candidate)) << layout.toStdString();
  EXPECT_TRUE(layout.contains(
      QRegularExpression(baseline + QStringLiteral(" +") + candidate + QStringLiteral(" +") + ratio)))
      << layout.toStdString();
  const QList<test::PdfWord> words = test::pdfWords(pdf);
  const auto header =
      std::find_if(words.begin(), words.end(), [&](const test::PdfWord& w) { return w.text == ratio; });
  ASSERT_NE(header, words.end());
  const auto onHeader = [&](const QString& text) {
    return std::find_if(words.begin(), words.end(), [&](const test::PdfWord& w) {
      return w.page == header->page && std::abs(w.box.top() - header->box.top()) < 1 && w.text == text;
    });
  };
  const auto baselineEnd = onHeader(baseline.section(QLatin1Char(' '), -1));
  const auto candidateWord = onHeader(candidate);
  ASSERT_NE(baselineEnd, words.end());
  ASSERT_NE(candidateWord, words.end());
  EXPECT_GT(candidateWord->box.left() - baselineEnd->box.right(), 6.0) << "points between two header cells";

  // Numbers in the language: "6.052,00" beside "116,38x daha yavaş", never "116.38x daha yavaş".
  const QString plain = test::pdfText(pdf);
  if (turkish) {
    EXPECT_TRUE(plain.contains(QRegularExpression(QStringLiteral("\\b[0-9]\\.[0-9]{3},[0-9]{2}\\b"))))
        << plain.toStdString();
    EXPECT_TRUE(plain.contains(QRegularExpression(QStringLiteral("[0-9]+,[0-9]{2}x daha yavaş"))))
        << plain.toStdString();
    EXPECT_FALSE(plain.contains(QRegularExpression(QStringLiteral("[0-9]\\.[0-9]{2}x daha"))))
        << plain.toStdString();
  } else {
    EXPECT_TRUE(plain.contains(QRegularExpression(QStringLiteral("\\b[0-9],[0-9]{3}\\.[0-9]{2}\\b"))))
        << plain.toStdString();
    EXPECT_TRUE(plain.contains(QRegularExpression(QStringLiteral("[0-9]+\\.[0-9]{2}x slower"))))
        << plain.toStdString();
  }

  // Numbers aligned right: in each number column every cell ends where the others end (left-aligned
  // cells of different widths start together instead).
  const ReportBlock& table = comparisonTable(document);
  // Each row's cells: the words of its line, left to right, that read as its numbers.
  QList<QList<QRectF>> columns(2);
  qreal lineTop = header->box.top();
  for (const auto& row : table.rows) {
    auto word = std::find_if(header, words.end(), [&](const test::PdfWord& w) {
      return w.page == header->page && w.box.top() > lineTop + 1 && w.text == fromUtf8(row[1]);
    });
    ASSERT_NE(word, words.end()) << row[1];
    lineTop = word->box.top();
    columns[0].append(word->box);
    word = std::find_if(word + 1, words.end(), [&](const test::PdfWord& w) {
      return std::abs(w.box.top() - lineTop) < 1 && w.text == fromUtf8(row[2]);
    });
    ASSERT_NE(word, words.end()) << row[2];
    EXPECT_TRUE(numberPattern(language).match(word->text).hasMatch()) << word->text.toStdString();
    columns[1].append(word->box);
  }
  for (int column = 0; column < 2; ++column) {
    const QList<QRectF>& cells = columns[column];
    double leftSpread = 0;
    for (const QRectF& box : cells) {
      EXPECT_NEAR(box.right(), cells.front().right(), 0.6) << "column " << column << " is not aligned right";
      leftSpread = std::max(leftSpread, std::abs(box.left() - cells.front().left()));
    }
    EXPECT_GT(leftSpread, 1.0) << "the column's numbers all have one width: the check proves nothing";
  }

  // Every page has content besides its number, the last one too; the numbers count the pages.
  const QList<QStringList> pageLines = test::pdfPageLines(pdf);
  const int pages = static_cast<int>(pageLines.size());
  ASSERT_GE(pages, 2);
  const QString pageWord =
      fromUtf8(formatReportText(ReportText::PageOf, language, {"", ""})).section(QLatin1Char(' '), 0, 0);
  for (int page = 1; page <= pages; ++page) {
    const QString footer = fromUtf8(
        formatReportText(ReportText::PageOf, language, {std::to_string(page), std::to_string(pages)}));
    const QStringList& lines = pageLines[page - 1];
    ASSERT_GE(lines.size(), 2) << "page " << page << " is blank but for its number";
    EXPECT_EQ(lines.last(), footer) << "page " << page;
  }
  // A heading or a caption never ends a page: what it introduces (text, a table, a chart) follows
  // it on the same page.
  EXPECT_EQ(test::headingsEndingAPage(pdf, test::headingsAndCaptions(document, charts), pageWord),
            QStringList());

  // Every latency charted (TTFT, TPOT, ITL, end-to-end), as cumulative distributions and box plots,
  // captioned and drawn in the report's language, sharp: the images keep their full resolution.
  ASSERT_EQ(charts.size(), 8u);
  for (const LatencyMetric metric : kAllLatencyMetrics) {
    const std::string_view name = latencyMetricLabel(metric, language);
    for (ReportText caption : {ReportText::ComparisonCdfCaption, ReportText::ComparisonBoxCaption}) {
      const QString title = fromUtf8(formatReportText(caption, language, {name}));
      EXPECT_TRUE(std::any_of(charts.begin(), charts.end(), [&](const ReportChart& c) {
        return c.title == title;
      })) << title.toStdString();
      EXPECT_TRUE(plain.contains(title)) << title.toStdString();
    }
  }
  for (const ReportChart& chart : charts) {
    EXPECT_GE(chart.image.width(), 1700);
    for (const QString& text : chart.drawnText) {
      if (!turkish) continue;
      for (const char* english : {"CDF", "Box", "Cumulative", "Share", "requests", "End-to-end", "latency"})
        EXPECT_FALSE(text.contains(QLatin1String(english))) << text.toStdString();
    }
  }
  // pdfimages lists an image once per page it touches, clipped away or not; pdftohtml the ones shown.
  const QList<test::PdfItem> items = test::pdfLayout(pdf);
  ASSERT_EQ(std::count_if(items.begin(), items.end(), [](const test::PdfItem& i) { return i.image; }), 8)
      << "a chart is cut across two pages";
  const QList<test::PdfImage> images = test::pdfImages(pdf);
  for (const test::PdfImage& image : images) {
    EXPECT_GE(image.width, 1700);
    // Shown across the text width, so that the charts' lettering reads like the text.
    EXPECT_GT(image.shownWidthInches(), 6.0);
  }
}

TEST_P(ReportFiles, ComparisonHtmlShowsEveryChartLargeAndSharpInABrowser) {
  const ReportLanguage language = GetParam();
  test::TempDir dir;
  const std::vector<LoadedRun> runs = loadRuns(storeWithTwoRuns(dir));
  const QString html = QString::fromStdString((dir / "comparison.html").string());
  writeComparisonReportFile(runs, language, html, ReportFileFormat::Html);
  QFile file(html);
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  const QString page = QString::fromUtf8(file.readAll());

  // The images: eight, shown 880 CSS pixels wide, each with about twice as many pixels.
  static const QRegularExpression image(
      QStringLiteral("<img src=\"data:image/png;base64,([A-Za-z0-9+/=]+)\" alt=\"[^\"]*\" width=\"(\\d+)\" "
                     "height=\"(\\d+)\""));
  int count = 0;
  for (auto it = image.globalMatch(page); it.hasNext(); ++count) {
    const auto match = it.next();
    EXPECT_EQ(match.captured(2).toInt(), kHtmlChartWidth);
    QImage png;
    ASSERT_TRUE(png.loadFromData(QByteArray::fromBase64(match.captured(1).toLatin1()), "PNG"));
    EXPECT_GE(png.width(), 2 * kHtmlChartWidth - 100);
    EXPECT_NEAR(double(png.height()) / png.width(),
                match.captured(3).toDouble() / match.captured(2).toDouble(), 0.01);
  }
  EXPECT_EQ(count, 8);

  // As Chromium lays the page out: every chart across the page (over six inches on US Letter) and
  // still sharp (over 200 pixels per inch), the ratios in the language's numbers.
  const QString printed = test::chromiumPrintToPdf(html);
  const QList<test::PdfImage> images = test::pdfImages(printed);
  ASSERT_EQ(images.size(), 8);
  for (const test::PdfImage& shown : images) {
    EXPECT_GT(shown.shownWidthInches(), 6.0);
    EXPECT_GT(shown.ppiX, 200.0);
  }
  const QString text = test::pdfText(printed);
  EXPECT_TRUE(text.contains(QRegularExpression(language == ReportLanguage::Turkish
                                                   ? QStringLiteral("[0-9]+,[0-9]{2}x daha yavaş")
                                                   : QStringLiteral("[0-9]+\\.[0-9]{2}x slower"))))
      << text.toStdString();
}

TEST_P(ReportFiles, MarkdownUsesTheLanguagesNumbersAndCsvAndJsonTheCLocales) {
  const ReportLanguage language = GetParam();
  const bool turkish = language == ReportLanguage::Turkish;
  test::TempDir dir;
  const std::vector<LoadedRun> runs = loadRuns(storeWithTwoRuns(dir));
  const auto read = [&](const char* name, ReportFileFormat format) {
    const QString path = QString::fromStdString((dir / name).string());
    writeComparisonReportFile(runs, language, path, format);
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::ReadOnly));
    return QString::fromUtf8(file.readAll());
  };
  const QString markdown = read("c.md", ReportFileFormat::Markdown);
  EXPECT_TRUE(markdown.contains(QRegularExpression(
      turkish ? QStringLiteral(
                    "\\| [0-9]+,[0-9]{2} \\| [0-9]\\.[0-9]{3},[0-9]{2} \\| [0-9]+,[0-9]{2}x daha yavaş \\| "
                    "[0-9]+,[0-9]{2}-[0-9]+,[0-9]{2} \\|")
              : QStringLiteral(
                    "\\| [0-9]+\\.[0-9]{2} \\| [0-9],[0-9]{3}\\.[0-9]{2} \\| [0-9]+\\.[0-9]{2}x slower \\| "
                    "[0-9]+\\.[0-9]{2}-[0-9]+\\.[0-9]{2} \\|"))))
      << markdown.toStdString();
  // vLLM's block stays vLLM's.
  EXPECT_TRUE(
      markdown.contains(QRegularExpression(QStringLiteral("Mean TTFT \\(ms\\): +[0-9]+\\.[0-9]{2} *\\n"))));

  const QString csv = read("c.csv", ReportFileFormat::Csv);
  EXPECT_TRUE(csv.contains(QRegularExpression(
      turkish ? QStringLiteral(",[0-9]+\\.[0-9]{2},[0-9]{4}\\.[0-9]{2},[0-9]+\\.[0-9]{2}x daha yavaş,"
                               "[0-9]+\\.[0-9]{2}-[0-9]+\\.[0-9]{2}\\r\\n")
              : QStringLiteral(",[0-9]+\\.[0-9]{2},[0-9]{4}\\.[0-9]{2},[0-9]+\\.[0-9]{2}x slower,"
                               "[0-9]+\\.[0-9]{2}-[0-9]+\\.[0-9]{2}\\r\\n"))))
      << csv.toStdString();
  const auto json = nlohmann::json::parse(read("c.json", ReportFileFormat::Json).toStdString());
  bool sawRow = false;
  for (const auto& section : json["sections"])
    for (const auto& block : section["blocks"])
      if (block["type"] == "table")
        for (const auto& row : block["rows"]) {
          sawRow = true;
          for (std::size_t i = 1; i < 3; ++i)
            EXPECT_TRUE(QRegularExpression(QStringLiteral("^[0-9]+\\.[0-9]{2}$"))
                            .match(QString::fromStdString(row[i].get<std::string>()))
                            .hasMatch())
                << row.dump();
        }
  EXPECT_TRUE(sawRow);
}

INSTANTIATE_TEST_SUITE_P(BothLanguages, ReportFiles,
                         ::testing::Values(ReportLanguage::Turkish, ReportLanguage::English),
                         [](const auto& param) {
                           return param.param == ReportLanguage::Turkish ? std::string("Turkish")
                                                                         : std::string("English");
                         });

// The report language follows the UI's until one is picked, in both areas; an export says, in the UI
// language, the whole path it wrote.
// A report's charts write numbers as the report's language does, whatever the window's: a Turkish
// report from an English window says "p50 52,4 ms", never "52.4". The chart widgets write numbers as
// the default locale does, and the report's charts are drawn inside a ReportLocaleScope; the window
// gets its own locale back.
TEST(ReportCharts, NumbersFollowTheReportsLanguageNotTheWindows) {
  test::TempDir dir;
  const std::vector<LoadedRun> runs = loadRuns(storeWithTwoRuns(dir));
  const std::vector<double> ttfts = latencyValuesMs(runs[0].records, LatencyMetric::Ttft);  // below a second
  for (const ReportLanguage window : {ReportLanguage::English, ReportLanguage::Turkish}) {
    const QLocale windowLocale = window == ReportLanguage::Turkish
                                     ? QLocale(QLocale::Turkish, QLocale::Turkey)
                                     : QLocale(QLocale::English, QLocale::UnitedStates);
    QLocale::setDefault(windowLocale);
    for (const ReportLanguage report : {ReportLanguage::English, ReportLanguage::Turkish}) {
      QStringList markers;
      {
        const ReportLocaleScope scope(report);
        DistributionChart chart;
        chart.setDistributions({{QStringLiteral("fast"), ttfts}}, {50, 90});
        for (const QString& name : chart.seriesNames())
          if (name.startsWith(QLatin1Char('p'))) markers << name;
      }
      ASSERT_EQ(markers.size(), 2) << markers.join(QLatin1Char('|')).toStdString();
      for (const QString& text : markers) {
        EXPECT_TRUE(text.contains(report == ReportLanguage::Turkish
                                      ? QRegularExpression(QStringLiteral("^p[0-9]+ [0-9]+,[0-9]+ ms$"))
                                      : QRegularExpression(QStringLiteral("^p[0-9]+ [0-9]+\\.[0-9]+ ms$"))))
            << text.toStdString();
      }
      EXPECT_EQ(QLocale().language(), windowLocale.language()) << "the window's locale is not back";
    }
  }
  QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
}

// A report that cannot be written says so in the reader's language, naming the file, for every format.
TEST(ReportExport, AFileThatCannotBeWrittenIsNamedInEachLanguage) {
  test::TempDir dir;
  const std::vector<LoadedRun> runs = loadRuns(storeWithTwoRuns(dir));
  const QString path = QString::fromStdString((dir / "no-such-folder" / "report").string());
  for (const ReportFileFormat format :
       {ReportFileFormat::Pdf, ReportFileFormat::Html, ReportFileFormat::Markdown}) {
    try {
      writeComparisonReportFile(runs, ReportLanguage::Turkish, path, format);
      ADD_FAILURE() << "a report was written into a folder that does not exist";
    } catch (const Error& error) {
      const QString turkish = QString::fromStdString(errorText(error, ReportLanguage::Turkish));
      EXPECT_TRUE(turkish.contains(QStringLiteral("yazılamıyor"))) << turkish.toStdString();
      EXPECT_TRUE(turkish.contains(path)) << turkish.toStdString();
      EXPECT_TRUE(
          QString::fromUtf8(error.what()).contains(QStringLiteral("cannot write the report to ") + path))
          << error.what();
    }
  }
}

TEST(ReportExport, FollowsTheUiLanguageUntilOneIsPickedAndSaysWhereItWrote) {
  test::clearSettings();
  test::TempDir dir;
  MainWindow window({storeWithTwoRuns(dir), QStringLiteral("tr")});
  ComparePage* compare = window.comparePage();
  StudiesPage* studies = window.studiesPage();
  QCoreApplication::processEvents();  // the language change the window started with
  EXPECT_EQ(compare->reportLanguage(), ReportLanguage::Turkish);
  EXPECT_EQ(studies->reportLanguage(), ReportLanguage::Turkish);
  window.setLanguage(QStringLiteral("en"));
  EXPECT_EQ(compare->reportLanguage(), ReportLanguage::English);
  EXPECT_EQ(studies->reportLanguage(), ReportLanguage::English);
  window.setLanguage(QStringLiteral("tr"));
  EXPECT_EQ(compare->reportLanguage(), ReportLanguage::Turkish);
  // A language picked beside the button stays when the UI's changes.
  compare->setReportLanguage(ReportLanguage::English);
  window.setLanguage(QStringLiteral("en"));
  window.setLanguage(QStringLiteral("tr"));
  EXPECT_EQ(compare->reportLanguage(), ReportLanguage::English);
  compare->setReportLanguage(ReportLanguage::Turkish);

  window.compareRuns(1, {2});
  ASSERT_EQ(compare->runs().size(), 2u);
  // A path with a detour: the message names the file as it lies.
  const std::filesystem::path sub = dir / "sub";
  std::filesystem::create_directories(sub);
  const QString asGiven = QString::fromStdString((sub / ".." / "rapor.pdf").string());
  const QString written = QString::fromStdString((dir / "rapor.pdf").string());
  EXPECT_TRUE(compare->exportReport(asGiven).isEmpty());
  EXPECT_EQ(window.statusText(), QStringLiteral("Rapor %1 dosyasına yazıldı").arg(written));
  EXPECT_EQ(test::pdfText(written).contains(QStringLiteral("Çalıştırma karşılaştırması")), true);
  window.setLanguage(QStringLiteral("en"));
  EXPECT_TRUE(compare->exportReport(written).isEmpty());
  EXPECT_EQ(window.statusText(), QStringLiteral("Report written to %1").arg(written));
}

}  // namespace
}  // namespace ayar
