#include "core/report/request_csv.h"

#include <charconv>
#include <fstream>

#include "core/error.h"
#include "core/report/message_text.h"

namespace ayar {

namespace {

std::string fixed(double value, int decimals) {
  char buffer[400];
  const auto result =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, decimals);
  return std::string(buffer, result.ptr);
}

}  // namespace

std::string csvField(std::string_view text) {
  const bool needsQuotes = text.find_first_of(",\"\r\n") != std::string_view::npos ||
                           (!text.empty() && (text.front() == ' ' || text.back() == ' '));
  if (!needsQuotes) return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string requestsCsv(std::span<const RequestRecord> records) {
  std::string out =
      "index,scheduled_s,start_s,ttft_ms,tpot_ms,e2el_ms,itl_count,prompt_tokens,output_tokens,success,"
      "http_status,error\n";
  for (const RequestRecord& r : records) {
    const bool hasChunk = !r.chunkTimesS.empty();
    out += std::to_string(r.index);
    out += ',' + fixed(r.scheduledS, 6);
    out += ',' + fixed(r.startS, 6);
    out += ',' + (hasChunk ? fixed(r.ttftS() * 1000.0, 3) : std::string());
    out += ',';
    if (r.success && r.outputTokens > 1)
      out += fixed((r.latencyS() - r.ttftS()) / (r.outputTokens - 1) * 1000.0, 3);
    out += ',' + (hasChunk ? fixed(r.latencyS() * 1000.0, 3) : std::string());
    out += ',' + std::to_string(hasChunk ? r.chunkTimesS.size() - 1 : 0);
    out += ',' + std::to_string(r.promptTokens);
    out += ',' + std::to_string(r.outputTokens);
    out += r.success ? ",true" : ",false";
    out += ',' + std::to_string(r.httpStatus);
    out += ',' + csvField(r.error);
    out += '\n';
  }
  return out;
}

void writeRequestsCsv(const std::filesystem::path& path, std::span<const RequestRecord> records) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw MessageError({MessageText::CsvCannotWrite, {path.string()}});
  out << requestsCsv(records);
  out.close();
  if (!out) throw MessageError({MessageText::CsvWriteFailed, {path.string()}});
}

}  // namespace ayar
