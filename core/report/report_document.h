#pragma once

#include <deque>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/report/report_text.h"

namespace ayar {

// One piece of a report section.
struct ReportBlock {
  enum class Kind {
    Paragraph,  // running text
    List,       // items, one line each
    Code,       // a command to copy (monospace)
    Result,     // a preformatted result block (the "Serving Benchmark Result" text) with a caption
    Table,      // header + rows of cells
  };
  Kind kind = Kind::Paragraph;
  std::string caption;              // Code and Result: "Serving command", "Benchmark result"; Table: its name
  std::string text;                 // Paragraph, Code, Result
  std::vector<std::string> items;   // List
  std::vector<std::string> header;  // Table
  std::vector<std::vector<std::string>> rows;  // Table; a row may be shorter than the header
  std::vector<std::size_t> numericColumns;     // Table: the columns of numbers, aligned right
  // Table: numeric columns whose cells may break between words on a printed page (a ratio followed by
  // its verdict); the cells of the other numeric columns keep to one line.
  std::vector<std::size_t> wrappingColumns;

  static ReportBlock paragraph(std::string text);
  static ReportBlock list(std::vector<std::string> items);
  static ReportBlock code(std::string caption, std::string text);
  static ReportBlock result(std::string caption, std::string text);
  static ReportBlock table(std::string caption, std::vector<std::string> header,
                           std::vector<std::vector<std::string>> rows,
                           std::vector<std::size_t> numericColumns = {});

  bool isNumericColumn(std::size_t column) const;
  bool isWrappingColumn(std::size_t column) const;
};

struct ReportSection {
  std::string title;
  int level = 2;  // 2 for a top section, 3 and 4 below it (Markdown's ## ... ####)
  std::vector<ReportBlock> blocks;
};

// A report as data: what a study or a comparison says, built in one language (every phrase from the
// report catalogue) and rendered to each format. Renderers format nothing themselves: the cells are
// text already, their numbers written as the builder's ReportLocale says (reportLocaleFor: the
// language's numbers for Markdown, HTML and PDF, the C locale's for CSV and JSON), so a file reads the
// same whatever the process locale.
struct ReportDocument {
  ReportLanguage language = ReportLanguage::English;
  std::string title;
  // A deque, so that a section added later leaves references to earlier ones valid.
  std::deque<ReportSection> sections;
  // Machine-readable figures behind the text (the JSON rendering carries them under "data").
  nlohmann::json data = nlohmann::json::object();
  // Where a rendering that draws charts (the workbench's PDF and HTML) puts them: before the section
  // of this index (renderHtml marks the place with kHtmlChartsMarker); past the last one, at the end.
  std::size_t chartsBeforeSection = std::numeric_limits<std::size_t>::max();

  ReportSection& addSection(std::string title, int level = 2);
};

enum class ReportFormat { Markdown, Html, Csv, Json };
// "md"/"markdown", "html", "csv", "json"; anything else is an ayar::Error naming the text.
ReportFormat parseReportFormat(std::string_view name);
// People read Markdown and HTML: numbers in the language's style; CSV and JSON are machine files: C.
NumberStyle numberStyleFor(ReportFormat format);
// The locale to build a report in `language` for `format` with.
ReportLocale reportLocaleFor(ReportLanguage language, ReportFormat format);

// Markdown: # title, ## sections, pipe tables (| escaped; number columns aligned right), fenced code
// and result blocks.
std::string renderMarkdown(const ReportDocument& document);

// Who reads the HTML. A browser follows the style sheet; Qt's rich text engine (QTextDocument: the
// workbench's report view, the PDF) knows little CSS, so that page carries HTML 4's table attributes
// (padding, borders, alignment) and sizes in points.
enum class HtmlDialect { Browser, QtRichText };
// One self-contained HTML page (inline style, no external resources), every text escaped.
std::string renderHtml(const ReportDocument& document, HtmlDialect dialect = HtmlDialect::Browser);
// The comment renderHtml writes where the document's charts belong (see chartsBeforeSection).
inline constexpr std::string_view kHtmlChartsMarker = "<!-- charts -->";
// Every table of the report, one after another: a header line "section,<columns>" and rows led by
// the section's title, a blank line between tables. RFC 4180 quoting (csvField of request_csv.h).
std::string renderCsv(const ReportDocument& document);
// {"title", "language", "sections": [{"title", "level", "blocks": [...]}], "data": {...}}.
std::string renderJson(const ReportDocument& document);
std::string renderReport(const ReportDocument& document, ReportFormat format);

// HTML-escapes & < > " '.
std::string htmlEscape(std::string_view text);

}  // namespace ayar
