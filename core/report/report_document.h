#pragma once

#include <deque>
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

  static ReportBlock paragraph(std::string text);
  static ReportBlock list(std::vector<std::string> items);
  static ReportBlock code(std::string caption, std::string text);
  static ReportBlock result(std::string caption, std::string text);
  static ReportBlock table(std::string caption, std::vector<std::string> header,
                           std::vector<std::vector<std::string>> rows);
};

struct ReportSection {
  std::string title;
  int level = 2;  // 2 for a top section, 3 and 4 below it (Markdown's ## ... ####)
  std::vector<ReportBlock> blocks;
};

// A report as data: what a study or a comparison says, built once in one language (every phrase
// from the report catalogue) and rendered to each format. Renderers format nothing themselves: the
// cells are text already (numbers written in the C locale), so a file reads the same whatever the
// process locale.
struct ReportDocument {
  ReportLanguage language = ReportLanguage::English;
  std::string title;
  // A deque, so that a section added later leaves references to earlier ones valid.
  std::deque<ReportSection> sections;
  // Machine-readable figures behind the text (the JSON rendering carries them under "data").
  nlohmann::json data = nlohmann::json::object();

  ReportSection& addSection(std::string title, int level = 2);
};

enum class ReportFormat { Markdown, Html, Csv, Json };
// "md"/"markdown", "html", "csv", "json"; anything else is an ayar::Error naming the text.
ReportFormat parseReportFormat(std::string_view name);

// Markdown: # title, ## sections, pipe tables (| escaped), fenced code and result blocks.
std::string renderMarkdown(const ReportDocument& document);
// One self-contained HTML page (inline style, no external resources), every text escaped.
std::string renderHtml(const ReportDocument& document);
// Every table of the report, one after another: a header line "section,<columns>" and rows led by
// the section's title, a blank line between tables. RFC 4180 quoting (csvField of request_csv.h).
std::string renderCsv(const ReportDocument& document);
// {"title", "language", "sections": [{"title", "level", "blocks": [...]}], "data": {...}}.
std::string renderJson(const ReportDocument& document);
std::string renderReport(const ReportDocument& document, ReportFormat format);

// HTML-escapes & < > " '.
std::string htmlEscape(std::string_view text);

}  // namespace ayar
