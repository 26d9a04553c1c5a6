#include "core/load/record_finisher.h"

#include <nlohmann/json.hpp>
#include <utility>

namespace ayar {
namespace {

// A server's error message is kept whole up to this size, then cut: records should stay small.
constexpr std::size_t kMaxMessageBytes = 1000;

std::string trimmedExcerpt(std::string_view text, std::size_t limit = 300) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  text = text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
  if (text.size() <= limit) return std::string(text);
  return std::string(text.substr(0, limit)) + "...";
}

// How many output tokens the server sent: its usage count, else at least one a chunk with text.
std::int64_t tokensSent(const OpenAiStreamReader& reader) {
  if (reader.completionTokens() > 0) return reader.completionTokens();
  return static_cast<std::int64_t>(reader.textChunkCount());
}

// Why a response that ended as HTTP says it ends is still a failed request; none when it succeeded.
std::optional<std::string> answerFailure(const RequestRecord& record, const FinishedResponse& response,
                                         const OpenAiStreamReader& reader, std::size_t chunks) {
  const int status = response.httpStatus;
  if (status < 200 || status >= 300) {
    const std::string message = errorBodyMessage(response.errorBody);
    return "HTTP " + std::to_string(status) + (message.empty() ? " with an empty body" : ": " + message);
  }
  if (reader.failed()) return reader.error();
  if (chunks == 0)
    return "stream ended early: no chunk with choices (" + std::to_string(reader.eventCount()) + " events)";
  if (const std::int64_t sent = tokensSent(reader); record.maxTokens > 0 && sent > record.maxTokens) {
    return "protocol error: the server sent " + std::to_string(sent) + " output tokens" +
           (reader.completionTokens() > 0 ? "" : " (counting chunks)") + " where the request's limit was " +
           std::to_string(record.maxTokens);
  }
  // A stream that ended cleanly after chunks with choices but without [DONE] succeeded, as vLLM
  // counts it.
  return std::nullopt;
}

}  // namespace

std::string errorBodyMessage(const std::string& body) {
  const nlohmann::json json = nlohmann::json::parse(body, nullptr, false);
  if (json.is_object()) {
    const auto error = json.find("error");
    if (error != json.end()) {
      if (error->is_object()) {
        const auto message = error->find("message");
        if (message != error->end() && message->is_string()) {
          return trimmedExcerpt(message->get<std::string>(), kMaxMessageBytes);
        }
      }
      if (error->is_string()) return trimmedExcerpt(error->get<std::string>(), kMaxMessageBytes);
    }
    for (const char* key : {"message", "detail"}) {
      const auto value = json.find(key);
      if (value == json.end()) continue;
      if (value->is_string()) return trimmedExcerpt(value->get<std::string>(), kMaxMessageBytes);
      return trimmedExcerpt(value->dump(), kMaxMessageBytes);
    }
  }
  return trimmedExcerpt(body);
}

RequestRecord finishRecord(RequestRecord record, FinishedResponse response, OpenAiStreamReader& reader,
                           const TokenCounter& countTokens) {
  record.httpStatus = response.httpStatus;
  record.chunkTimesS = reader.takeChunkTimes();
  record.generatedText = reader.takeText();
  const std::size_t chunks = record.chunkTimesS.size();
  std::optional<std::string> failure = std::move(response.transportFailure);
  if (!failure) failure = answerFailure(record, response, reader, chunks);
  record.success = !failure;
  record.error = failure ? std::move(*failure) : std::string();
  // vLLM counts the text with the tokenizer when usage is missing or says 0.
  if (reader.completionTokens() > 0) {
    record.outputTokens = static_cast<int>(reader.completionTokens());
    record.outputTokensFromUsage = true;
  } else {
    record.outputTokensFromUsage = false;
    record.outputTokens = countTokens ? countTokens(record.generatedText) : static_cast<int>(chunks);
  }
  if (reader.promptTokens() >= 0) record.promptTokens = static_cast<int>(reader.promptTokens());
  return record;
}

}  // namespace ayar
