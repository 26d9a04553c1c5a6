#include "core/report/report_document.h"

#include <algorithm>

#include "core/error.h"
#include "core/report/message_text.h"
#include "core/report/request_csv.h"

namespace ayar {

namespace {

const char* kindName(ReportBlock::Kind kind) {
  switch (kind) {
    case ReportBlock::Kind::Paragraph:
      return "paragraph";
    case ReportBlock::Kind::List:
      return "list";
    case ReportBlock::Kind::Code:
      return "code";
    case ReportBlock::Kind::Result:
      return "result";
    case ReportBlock::Kind::Table:
      return "table";
  }
  return "paragraph";
}

// A table cell in Markdown: pipes escaped, line breaks as spaces.
std::string markdownCell(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

// A fence longer than any run of backticks in the text.
std::string fenceFor(std::string_view text) {
  std::size_t longest = 0;
  std::size_t run = 0;
  for (const char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return std::string(std::max<std::size_t>(3, longest + 1), '`');
}

std::string withNewline(std::string text) {
  if (text.empty() || text.back() != '\n') text += '\n';
  return text;
}

constexpr std::string_view kHtmlStyle = R"css(
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; max-width: 60rem; margin: 2rem auto;
       padding: 0 1rem; color: #1c1c1c; line-height: 1.45; }
h1 { font-size: 1.7rem; } h2 { font-size: 1.35rem; margin-top: 2rem; border-bottom: 1px solid #ddd; }
h3 { font-size: 1.1rem; } h4 { font-size: 1rem; }
table { border-collapse: collapse; margin: 0.8rem 0; }
th, td { border: 1px solid #ccc; padding: 0.3rem 0.6rem; text-align: left; vertical-align: top; }
th { background: #f2f2f2; }
th.num, td.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
pre { background: #f6f6f6; border: 1px solid #e2e2e2; padding: 0.6rem; overflow-x: auto; }
.caption { font-weight: 600; margin-bottom: 0.2rem; }
)css";

// Qt's rich text engine reads points and px, not rem; tables take their padding and borders from
// the table's attributes.
constexpr std::string_view kQtRichTextStyle = R"css(
body { color: #1c1c1c; font-size: 10pt; }
h1 { font-size: 18pt; } h2 { font-size: 14pt; margin-top: 14px; } h3 { font-size: 12pt; } h4 { font-size: 10.5pt; }
table { border-collapse: collapse; margin-top: 4px; margin-bottom: 8px; }
th, td { border-width: 1px; border-style: solid; border-color: #c4c4c4; }
th { background-color: #eeeeee; }
pre { background-color: #f4f4f4; font-size: 8.5pt; }
)css";

}  // namespace

ReportBlock ReportBlock::paragraph(std::string text) {
  ReportBlock block;
  block.kind = Kind::Paragraph;
  block.text = std::move(text);
  return block;
}

ReportBlock ReportBlock::list(std::vector<std::string> items) {
  ReportBlock block;
  block.kind = Kind::List;
  block.items = std::move(items);
  return block;
}

ReportBlock ReportBlock::code(std::string caption, std::string text) {
  ReportBlock block;
  block.kind = Kind::Code;
  block.caption = std::move(caption);
  block.text = std::move(text);
  return block;
}

ReportBlock ReportBlock::result(std::string caption, std::string text) {
  ReportBlock block;
  block.kind = Kind::Result;
  block.caption = std::move(caption);
  block.text = std::move(text);
  return block;
}

ReportBlock ReportBlock::table(std::string caption, std::vector<std::string> header,
                               std::vector<std::vector<std::string>> rows,
                               std::vector<std::size_t> numericColumns) {
  ReportBlock block;
  block.kind = Kind::Table;
  block.caption = std::move(caption);
  block.header = std::move(header);
  block.rows = std::move(rows);
  block.numericColumns = std::move(numericColumns);
  return block;
}

bool ReportBlock::isNumericColumn(std::size_t column) const {
  return std::find(numericColumns.begin(), numericColumns.end(), column) != numericColumns.end();
}

bool ReportBlock::isWrappingColumn(std::size_t column) const {
  return std::find(wrappingColumns.begin(), wrappingColumns.end(), column) != wrappingColumns.end();
}

ReportSection& ReportDocument::addSection(std::string sectionTitle, int level) {
  sections.push_back({std::move(sectionTitle), level, {}});
  return sections.back();
}

ReportFormat parseReportFormat(std::string_view name) {
  if (name == "md" || name == "markdown") return ReportFormat::Markdown;
  if (name == "html") return ReportFormat::Html;
  if (name == "csv") return ReportFormat::Csv;
  if (name == "json") return ReportFormat::Json;
  throw MessageError({MessageText::ReportFormatUnknown, {std::string(name)}});
}

NumberStyle numberStyleFor(ReportFormat format) {
  return format == ReportFormat::Csv || format == ReportFormat::Json ? NumberStyle::C : NumberStyle::Language;
}

ReportLocale reportLocaleFor(ReportLanguage language, ReportFormat format) {
  return ReportLocale(language, numberStyleFor(format));
}

std::string htmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string renderMarkdown(const ReportDocument& document) {
  std::string out = "# " + document.title + "\n";
  for (const ReportSection& section : document.sections) {
    out += "\n" + std::string(static_cast<std::size_t>(std::clamp(section.level, 2, 6)), '#') + " " +
           section.title + "\n";
    for (const ReportBlock& block : section.blocks) {
      out += "\n";
      switch (block.kind) {
        case ReportBlock::Kind::Paragraph:
          out += withNewline(block.text);
          break;
        case ReportBlock::Kind::List:
          for (const std::string& item : block.items)
            out += "- " + item + "\n";
          break;
        case ReportBlock::Kind::Code:
        case ReportBlock::Kind::Result: {
          if (!block.caption.empty()) out += "**" + block.caption + "**\n\n";
          const std::string fence = fenceFor(block.text);
          out += fence + (block.kind == ReportBlock::Kind::Code ? "bash" : "text") + "\n" +
                 withNewline(block.text) + fence + "\n";
          break;
        }
        case ReportBlock::Kind::Table: {
          if (!block.caption.empty()) out += "**" + block.caption + "**\n\n";
          out += "|";
          for (const std::string& cell : block.header)
            out += " " + markdownCell(cell) + " |";
          out += "\n|";
          for (std::size_t i = 0; i < block.header.size(); ++i)
            out += block.isNumericColumn(i) ? " ---: |" : " --- |";
          out += "\n";
          for (const auto& row : block.rows) {
            out += "|";
            for (std::size_t i = 0; i < block.header.size(); ++i)
              out += " " + (i < row.size() ? markdownCell(row[i]) : std::string()) + " |";
            out += "\n";
          }
          break;
        }
      }
    }
  }
  return out;
}

std::string renderHtml(const ReportDocument& document, HtmlDialect dialect) {
  const bool qt = dialect == HtmlDialect::QtRichText;
  std::string out = "<!DOCTYPE html>\n<html lang=\"" + std::string(reportLanguageCode(document.language)) +
                    "\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + htmlEscape(document.title) +
                    "</title>\n<style>" + std::string(qt ? kQtRichTextStyle : kHtmlStyle) +
                    "</style>\n</head>\n<body>\n<h1>" + htmlEscape(document.title) + "</h1>\n";
  // A cell's opening tag: numbers aligned right and kept on one line, by class for a browser and by
  // attribute for Qt. Qt's tables do not widen for a long unbroken cell: they squeeze the other
  // columns, down to a few letters a line, so there a wrapping column's cells may break between words.
  // A browser keeps them whole and breaks the text columns at their spaces instead.
  const auto cell = [qt](const char* tag, const ReportBlock& table, std::size_t column) {
    const bool numeric = table.isNumericColumn(column);
    if (!qt) return std::string("<") + tag + (numeric ? " class=\"num\">" : ">");
    if (!numeric) return std::string("<") + tag + " align=\"left\">";
    return std::string("<") + tag +
           (table.isWrappingColumn(column) ? " align=\"right\">"
                                           : " align=\"right\" style=\"white-space: nowrap\">");
  };
  for (std::size_t index = 0; index < document.sections.size(); ++index) {
    const ReportSection& section = document.sections[index];
    if (index == document.chartsBeforeSection) out += std::string(kHtmlChartsMarker) + "\n";
    const std::string level = std::to_string(std::clamp(section.level, 2, 6));
    out += "<h" + level + ">" + htmlEscape(section.title) + "</h" + level + ">\n";
    for (const ReportBlock& block : section.blocks) {
      switch (block.kind) {
        case ReportBlock::Kind::Paragraph:
          out += "<p>" + htmlEscape(block.text) + "</p>\n";
          break;
        case ReportBlock::Kind::List:
          out += "<ul>\n";
          for (const std::string& item : block.items)
            out += "<li>" + htmlEscape(item) + "</li>\n";
          out += "</ul>\n";
          break;
        case ReportBlock::Kind::Code:
        case ReportBlock::Kind::Result:
          if (!block.caption.empty())
            out += "<div class=\"caption\">" + htmlEscape(block.caption) + "</div>\n";
          out += "<pre><code>" + htmlEscape(block.text) + "</code></pre>\n";
          break;
        case ReportBlock::Kind::Table:
          if (!block.caption.empty())
            out += "<div class=\"caption\">" + htmlEscape(block.caption) + "</div>\n";
          out += qt ? "<table border=\"1\" cellspacing=\"0\" cellpadding=\"5\">\n<thead><tr>"
                    : "<table>\n<thead><tr>";
          for (std::size_t i = 0; i < block.header.size(); ++i)
            out += cell("th", block, i) + htmlEscape(block.header[i]) + "</th>";
          out += "</tr></thead>\n<tbody>\n";
          for (const auto& row : block.rows) {
            out += "<tr>";
            for (std::size_t i = 0; i < block.header.size(); ++i)
              out += cell("td", block, i) + (i < row.size() ? htmlEscape(row[i]) : std::string()) + "</td>";
            out += "</tr>\n";
          }
          out += "</tbody>\n</table>\n";
          break;
      }
    }
  }
  if (document.chartsBeforeSection >= document.sections.size()) out += std::string(kHtmlChartsMarker) + "\n";
  out += "</body>\n</html>\n";
  return out;
}

std::string renderCsv(const ReportDocument& document) {
  std::string out;
  for (const ReportSection& section : document.sections) {
    for (const ReportBlock& block : section.blocks) {
      if (block.kind != ReportBlock::Kind::Table) continue;
      if (!out.empty()) out += "\r\n";
      const std::string lead =
          csvField(block.caption.empty() ? section.title : section.title + ": " + block.caption);
      out += csvField(reportText(ReportText::ColumnSection, document.language));
      for (const std::string& cell : block.header)
        out += "," + csvField(cell);
      out += "\r\n";
      for (const auto& row : block.rows) {
        out += lead;
        for (std::size_t i = 0; i < block.header.size(); ++i)
          out += "," + (i < row.size() ? csvField(row[i]) : std::string());
        out += "\r\n";
      }
    }
  }
  return out;
}

std::string renderJson(const ReportDocument& document) {
  nlohmann::ordered_json root;
  root["title"] = document.title;
  root["language"] = std::string(reportLanguageCode(document.language));
  root["sections"] = nlohmann::ordered_json::array();
  for (const ReportSection& section : document.sections) {
    nlohmann::ordered_json item;
    item["title"] = section.title;
    item["level"] = section.level;
    item["blocks"] = nlohmann::ordered_json::array();
    for (const ReportBlock& block : section.blocks) {
      nlohmann::ordered_json entry;
      entry["type"] = kindName(block.kind);
      if (!block.caption.empty()) entry["caption"] = block.caption;
      switch (block.kind) {
        case ReportBlock::Kind::Paragraph:
        case ReportBlock::Kind::Code:
        case ReportBlock::Kind::Result:
          entry["text"] = block.text;
          break;
        case ReportBlock::Kind::List:
          entry["items"] = block.items;
          break;
        case ReportBlock::Kind::Table:
          entry["header"] = block.header;
          entry["rows"] = block.rows;
          break;
      }
      item["blocks"].push_back(std::move(entry));
    }
    root["sections"].push_back(std::move(item));
  }
  root["data"] = nlohmann::ordered_json::parse(document.data.dump());
  return root.dump(2) + "\n";
}

std::string renderReport(const ReportDocument& document, ReportFormat format) {
  switch (format) {
    case ReportFormat::Markdown:
      return renderMarkdown(document);
    case ReportFormat::Html:
      return renderHtml(document);
    case ReportFormat::Csv:
      return renderCsv(document);
    case ReportFormat::Json:
      return renderJson(document);
  }
  return renderMarkdown(document);
}

}  // namespace ayar
