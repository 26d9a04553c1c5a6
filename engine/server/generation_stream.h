#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/tokenizer/tokenizer.h"
#include "engine/scheduler/engine_loop.h"
#include "engine/server/completion_request.h"
#include "engine/server/http_server.h"
#include "engine/server/reasoning_parser.h"
#include "engine/server/server_metrics.h"
#include "engine/server/sse_chunk_formatter.h"
#include "engine/server/stop_string_matcher.h"

namespace ayar::engine {

struct GenerationStreamSetup {
  ApiRoute route = ApiRoute::kCompletions;
  std::string responseId;  // "cmpl-..." / "chatcmpl-..."
  std::int64_t created = 0;
  std::string model;  // the served name
  bool stream = false;
  bool includeUsage = false;
  int promptTokens = 0;
  int minTokens = 0;
  std::vector<std::string> stop;
  bool skipSpecialTokens = true;
  // Set for chat with --reasoning-parser qwen3.
  std::optional<Qwen3ReasoningParser> reasoning;
  Clock::time_point arrival = Clock::now();
};

// Turns one request's engine events into its HTTP response: detokenizes incrementally (never half a
// UTF-8 character), finds stop strings across token boundaries, splits reasoning from content, and
// writes vLLM's SSE chunks (or, unstreamed, the whole JSON at the end). Lives on its connection's io
// thread; the engine loop only holds a reference to it.
class GenerationStream {
 public:
  GenerationStream(GenerationStreamSetup setup, const Tokenizer& tokenizer, ServerMetrics& metrics,
                   std::shared_ptr<HttpConnection> connection);

  // Sends the response head of a streamed response.
  void start();

  enum class EventResult { kContinue, kAbortEngineRequest };
  // One engine event, with the time the loop delivered it. kAbortEngineRequest: the output ended here
  // (a stop string) while the engine would go on; the caller aborts the engine request.
  EventResult onEvent(const GenerationEvent& event, Clock::time_point deliveredAt);
  // Writes what the events since the last flush produced (one write per connection per drain).
  void flush();
  // The client went away or the server stops: nothing more is written.
  void cancel();

  const std::string& responseId() const { return m_setup.responseId; }
  bool done() const { return m_done; }
  // Output is waiting for flush().
  bool needsFlush() const { return m_needsFlush; }
  // Lets the caller put each stream once in its list of streams to flush after a batch of events.
  bool queuedForFlush() const { return m_queuedForFlush; }
  void setQueuedForFlush(bool queued) { m_queuedForFlush = queued; }

 private:
  void appendToken(TokenId token, bool lastOfOutput, FinishReason finish);
  StopStringMatcher::Result feed(std::string_view text);
  void emitText(std::string_view text, TextChannel channel);
  void finish(std::string_view finishReason, std::string_view stopReason, std::string_view text,
              TextChannel channel);
  void respondUnstreamed(std::string_view finishReason, std::string_view stopReason);

  GenerationStreamSetup m_setup;
  ServerMetrics& m_metrics;
  std::shared_ptr<HttpConnection> m_connection;  // released (on the io thread) once the response ends
  SseChunkFormatter m_formatter;
  const Tokenizer& m_tokenizer;
  IncrementalDecoder m_decoder;
  StopStringMatcher m_stopMatcher;

  int m_completionTokens = 0;
  bool m_done = false;
  bool m_roleSent = false;
  bool m_needsFlush = false;
  bool m_queuedForFlush = false;
  Clock::time_point m_lastTokenAt{};
  Clock::time_point m_firstTokenAt{};
  Clock::time_point m_firstScheduledAt{};  // from the engine's events; epoch until the first token
  std::string m_released;                  // scratch: text released by the stop matcher for the current token
  // Unstreamed responses collect the whole text.
  std::string m_content;
  std::string m_reasoningContent;
};

}  // namespace ayar::engine
