#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/load/sse_parser.h"

namespace ayar {

// What one streamed OpenAI chunk (the JSON of one SSE event) says, for either API.
struct StreamChunk {
  bool hasChoices = false;  // `choices` is a non-empty array: the chunk counts for TTFT/ITL
  // choices[0].text (completions) or choices[0].delta.reasoning_content / reasoning / content
  // (chat), unescaped, in the order they appear; empty when null or absent.
  std::string text;
  bool hasUsage = false;               // `usage` is an object
  std::int64_t promptTokens = -1;      // usage.prompt_tokens, -1 when absent
  std::int64_t completionTokens = -1;  // usage.completion_tokens, -1 when absent
  bool isError = false;                // {"error": {...}} or vLLM's older {"object": "error", "message": ...}
  std::string errorMessage;
};

// Reads one chunk with a small scanner made for this shape (it runs once per chunk): strings are
// unescaped exactly, \u escapes (surrogate pairs included) become UTF-8, a lone surrogate becomes
// U+FFFD, everything else is skipped but still checked. Returns false when `json` is not valid JSON
// (bytes that are not UTF-8 in a string included) or not an object; `problem` then says why.
bool parseStreamChunk(std::string_view json, StreamChunk& chunk, std::string& problem);

// True for the `[DONE]` sentinel that ends an OpenAI stream.
inline bool isDoneMarker(std::string_view eventData) {
  return eventData == "[DONE]";
}

// Follows one streamed response body: SSE framing, then each chunk's meaning. Fed the body's bytes
// with the time they arrived (seconds since the request started); every event completed by those
// bytes arrived then.
class OpenAiStreamReader {
 public:
  void feed(std::string_view bytes, double arrivalS);

  // Arrival of each chunk with non-empty choices, in order (TTFT first, E2E last).
  const std::vector<double>& chunkTimesS() const { return m_chunkTimesS; }
  std::vector<double> takeChunkTimes() { return std::move(m_chunkTimesS); }
  const std::string& text() const { return m_text; }
  std::string takeText() { return std::move(m_text); }

  bool sawDone() const { return m_sawDone; }
  bool sawChoices() const { return !m_chunkTimesS.empty(); }
  // An error object arrived, a chunk was not valid JSON, or an event was too large.
  bool failed() const { return !m_error.empty(); }
  const std::string& error() const { return m_error; }
  // From the last chunk that carried usage; -1 when no chunk did.
  std::int64_t promptTokens() const { return m_promptTokens; }
  std::int64_t completionTokens() const { return m_completionTokens; }
  std::size_t eventCount() const { return m_eventCount; }
  // Chunks whose choices carried text: each is at least one output token (a chat stream's role chunk
  // and a closing chunk with only the finish reason carry none).
  std::size_t textChunkCount() const { return m_textChunks; }

  void reset();
  // Makes room for a stream of about `expectedChunks` chunks, so that the hot path does not grow
  // its buffers chunk by chunk (each growth can be a system call in a thread's malloc arena).
  void reserve(std::size_t expectedChunks);

 private:
  void onEvent(std::string_view data, double arrivalS);
  void noteForeignLine();

  SseParser m_parser;
  StreamChunk m_chunk;  // reused so that steady-state chunks allocate nothing
  std::string m_problem;
  std::vector<double> m_chunkTimesS;
  std::string m_text;
  std::string m_error;
  std::int64_t m_promptTokens = -1;
  std::int64_t m_completionTokens = -1;
  std::size_t m_eventCount = 0;
  std::size_t m_textChunks = 0;
  bool m_sawDone = false;
};

}  // namespace ayar
