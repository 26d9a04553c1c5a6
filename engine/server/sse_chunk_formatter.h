#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/server/completion_request.h"
#include "engine/server/reasoning_parser.h"

namespace ayar::engine {

// Writes the `data: {...}\n\n` events of one streamed response in vLLM's shapes, by appending text to
// preformatted pieces: the per-token path builds no JSON tree and allocates nothing of its own.
class SseChunkFormatter {
 public:
  SseChunkFormatter(ApiRoute route, std::string_view responseId, std::int64_t created,
                    std::string_view model);

  // Chat only: the first chunk, delta {"role": "assistant", "content": ""}.
  void appendRoleChunk(std::string& out) const;
  // One token's text (possibly empty), finish_reason null.
  void appendTextChunk(std::string& out, std::string_view text, TextChannel channel) const;
  // The last chunk with choices: its text and the finish reason ("stop", "length", "abort");
  // `stopReason` is the stop string that ended the output (empty: null).
  void appendFinalChunk(std::string& out, std::string_view text, TextChannel channel,
                        std::string_view finishReason, std::string_view stopReason) const;
  // stream_options.include_usage: a chunk with empty choices and the token counts.
  void appendUsageChunk(std::string& out, int promptTokens, int completionTokens) const;
  static void appendDone(std::string& out);

 private:
  void appendChoiceStart(std::string& out, TextChannel channel) const;

  ApiRoute m_route;
  std::string m_head;  // data: {"id":...,"object":...,"created":...,"model":...,"choices":[
};

}  // namespace ayar::engine
