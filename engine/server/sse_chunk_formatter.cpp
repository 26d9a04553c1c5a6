#include "engine/server/sse_chunk_formatter.h"

#include "engine/server/json_text.h"

namespace ayar::engine {

SseChunkFormatter::SseChunkFormatter(ApiRoute route, std::string_view responseId, std::int64_t created,
                                     std::string_view model)
    : m_route(route) {
  m_head = R"(data: {"id":)";
  appendJsonString(m_head, responseId);
  m_head += route == ApiRoute::kCompletions ? R"(,"object":"text_completion")"
                                            : R"(,"object":"chat.completion.chunk")";
  m_head += R"(,"created":)";
  m_head += std::to_string(created);
  m_head += R"(,"model":)";
  appendJsonString(m_head, model);
  m_head += R"(,"choices":[)";
}

void SseChunkFormatter::appendChoiceStart(std::string& out, TextChannel channel) const {
  out += m_head;
  if (m_route == ApiRoute::kCompletions) {
    out += R"({"index":0,"text":")";
  } else if (channel == TextChannel::kContent) {
    out += R"({"index":0,"delta":{"content":")";
  } else {
    out += R"({"index":0,"delta":{"reasoning_content":")";
  }
}

void SseChunkFormatter::appendRoleChunk(std::string& out) const {
  out += m_head;
  out += R"({"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]})";
  out += "\n\n";
}

void SseChunkFormatter::appendTextChunk(std::string& out, std::string_view text, TextChannel channel) const {
  appendChoiceStart(out, channel);
  appendJsonEscaped(out, text);
  if (m_route == ApiRoute::kCompletions) {
    out += R"(","logprobs":null,"finish_reason":null,"stop_reason":null}]})";
  } else {
    out += R"("},"logprobs":null,"finish_reason":null}]})";
  }
  out += "\n\n";
}

void SseChunkFormatter::appendFinalChunk(std::string& out, std::string_view text, TextChannel channel,
                                         std::string_view finishReason, std::string_view stopReason) const {
  appendChoiceStart(out, channel);
  appendJsonEscaped(out, text);
  out += m_route == ApiRoute::kCompletions ? R"(","logprobs":null,"finish_reason":)"
                                           : R"("},"logprobs":null,"finish_reason":)";
  appendJsonString(out, finishReason);
  out += R"(,"stop_reason":)";
  if (stopReason.empty()) {
    out += "null";
  } else {
    appendJsonString(out, stopReason);
  }
  out += "}]}\n\n";
}

void SseChunkFormatter::appendUsageChunk(std::string& out, int promptTokens, int completionTokens) const {
  out += m_head;
  out += R"(],"usage":{"prompt_tokens":)";
  out += std::to_string(promptTokens);
  out += R"(,"total_tokens":)";
  out += std::to_string(promptTokens + completionTokens);
  out += R"(,"completion_tokens":)";
  out += std::to_string(completionTokens);
  out += "}}\n\n";
}

void SseChunkFormatter::appendDone(std::string& out) {
  out += "data: [DONE]\n\n";
}

}  // namespace ayar::engine
