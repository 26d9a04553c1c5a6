#include "engine/server/generation_stream.h"

#include <chrono>
#include <nlohmann/json.hpp>
#include <utility>

namespace ayar::engine {

namespace {

double secondsBetween(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

std::string_view finishReasonText(FinishReason finish) {
  switch (finish) {
    case FinishReason::kStop:
      return "stop";
    case FinishReason::kAbort:
      return "abort";
    default:
      return "length";
  }
}

RequestOutcome outcomeOf(std::string_view finishReason) {
  if (finishReason == "stop") return RequestOutcome::kStop;
  if (finishReason == "length") return RequestOutcome::kLength;
  return RequestOutcome::kAbort;
}

}  // namespace

GenerationStream::GenerationStream(GenerationStreamSetup setup, const Tokenizer& tokenizer,
                                   ServerMetrics& metrics, std::shared_ptr<HttpConnection> connection)
    : m_setup(std::move(setup)),
      m_metrics(metrics),
      m_connection(std::move(connection)),
      m_formatter(m_setup.route, m_setup.responseId, m_setup.created, m_setup.model),
      m_tokenizer(tokenizer),
      m_decoder(tokenizer, m_setup.skipSpecialTokens),
      m_stopMatcher(m_setup.stop) {}

void GenerationStream::start() {
  if (!m_setup.stream || !m_connection) return;
  m_connection->beginStream("text/event-stream; charset=utf-8");
  m_connection->flush();
}

GenerationStream::EventResult GenerationStream::onEvent(const GenerationEvent& event,
                                                        Clock::time_point deliveredAt) {
  if (m_done) return EventResult::kContinue;
  if (event.firstScheduledAt != Clock::time_point{}) m_firstScheduledAt = event.firstScheduledAt;
  for (std::size_t i = 0; i < event.tokens.size() && !m_done; ++i) {
    ++m_completionTokens;
    if (m_completionTokens == 1) {
      m_metrics.observeTimeToFirstToken(secondsBetween(m_setup.arrival, deliveredAt));
      m_firstTokenAt = deliveredAt;
    } else {
      m_metrics.observeInterTokenLatency(secondsBetween(m_lastTokenAt, deliveredAt));
    }
    m_lastTokenAt = deliveredAt;
    const bool lastOfOutput = i + 1 == event.tokens.size() && event.finish != FinishReason::kNone;
    appendToken(event.tokens[i], lastOfOutput, event.finish);
  }
  if (m_done) {
    // A stop string ended the output before the engine finished: the engine must stop too.
    return event.finish == FinishReason::kNone ? EventResult::kAbortEngineRequest : EventResult::kContinue;
  }
  if (event.finish != FinishReason::kNone) {
    // The last event carried no token (an abort, or a finish decided after the last token).
    m_released.clear();
    const auto stop = feed(m_decoder.flush());
    if (stop.stopped) {
      finish("stop", stop.matched, m_released, TextChannel::kContent);
    } else {
      m_stopMatcher.flush(m_released);
      const TextChannel channel = m_setup.reasoning ? m_setup.reasoning->channel() : TextChannel::kContent;
      finish(finishReasonText(event.finish), {}, m_released, channel);
    }
  }
  return EventResult::kContinue;
}

StopStringMatcher::Result GenerationStream::feed(std::string_view text) {
  // As vLLM: no stop string counts before min_tokens tokens were generated.
  if (m_completionTokens < m_setup.minTokens) {
    m_released.append(text);
    return {};
  }
  return m_stopMatcher.push(text, m_released);
}

void GenerationStream::appendToken(TokenId token, bool lastOfOutput, FinishReason finishReason) {
  m_released.clear();
  TextChannel channel = TextChannel::kContent;
  bool isText = true;
  if (m_setup.reasoning) {
    channel = m_setup.reasoning->channel();
    const auto route = m_setup.reasoning->route(token);
    isText = route.isText;
    if (route.reasoningEnded) {
      // Whatever is still held back belongs to the reasoning: release it before the channel changes.
      const auto stop = feed(m_decoder.flush());
      if (stop.stopped) return finish("stop", stop.matched, m_released, TextChannel::kReasoning);
      m_stopMatcher.flush(m_released);
      if (!m_released.empty()) {
        emitText(m_released, TextChannel::kReasoning);
        m_released.clear();
      }
      channel = TextChannel::kContent;
    }
  }
  // The model's vocabulary can be larger than the tokenizer's (Qwen3 pads 151669 ids to 151936):
  // such ids are counted and streamed like any token, with no text, as transformers decodes them.
  const bool hasText = !m_tokenizer.tokenBytes(token).empty();
  if (isText && hasText) {
    const auto stop = feed(m_decoder.push(token));
    if (stop.stopped) return finish("stop", stop.matched, m_released, channel);
  }
  if (lastOfOutput) {
    const auto stop = feed(m_decoder.flush());
    if (stop.stopped) return finish("stop", stop.matched, m_released, channel);
    m_stopMatcher.flush(m_released);
    return finish(finishReasonText(finishReason), {}, m_released, channel);
  }
  // vLLM sends no chunk for the <think> / </think> tokens themselves.
  if (isText || !m_released.empty()) emitText(m_released, channel);
}

void GenerationStream::emitText(std::string_view text, TextChannel channel) {
  if (!m_setup.stream) {
    (channel == TextChannel::kReasoning ? m_reasoningContent : m_content).append(text);
    return;
  }
  if (!m_connection) return;
  std::string& out = m_connection->streamBuffer();
  if (m_setup.route == ApiRoute::kChatCompletions && !m_roleSent) {
    m_formatter.appendRoleChunk(out);
    m_roleSent = true;
  }
  m_formatter.appendTextChunk(out, text, channel);
  m_needsFlush = true;
}

void GenerationStream::flush() {
  m_needsFlush = false;
  if (m_connection) m_connection->flush();
}

void GenerationStream::finish(std::string_view finishReason, std::string_view stopReason,
                              std::string_view text, TextChannel channel) {
  m_done = true;
  m_needsFlush = false;
  m_metrics.observeFinished(outcomeOf(finishReason), secondsBetween(m_setup.arrival, Clock::now()));
  if (m_completionTokens > 0 && m_firstScheduledAt != Clock::time_point{}) {
    m_metrics.observePhases({secondsBetween(m_setup.arrival, m_firstScheduledAt),
                             secondsBetween(m_firstScheduledAt, m_firstTokenAt),
                             secondsBetween(m_firstTokenAt, m_lastTokenAt),
                             secondsBetween(m_firstScheduledAt, m_lastTokenAt)});
  }
  if (!m_connection) return;
  if (m_setup.stream) {
    std::string& out = m_connection->streamBuffer();
    if (m_setup.route == ApiRoute::kChatCompletions && !m_roleSent) {
      m_formatter.appendRoleChunk(out);
      m_roleSent = true;
    }
    m_formatter.appendFinalChunk(out, text, channel, finishReason, stopReason);
    if (m_setup.includeUsage) m_formatter.appendUsageChunk(out, m_setup.promptTokens, m_completionTokens);
    SseChunkFormatter::appendDone(out);
    m_connection->endStream();
  } else {
    (channel == TextChannel::kReasoning ? m_reasoningContent : m_content).append(text);
    respondUnstreamed(finishReason, stopReason);
  }
  m_connection.reset();
}

void GenerationStream::respondUnstreamed(std::string_view finishReason, std::string_view stopReason) {
  using nlohmann::json;
  json choice;
  choice["index"] = 0;
  if (m_setup.route == ApiRoute::kCompletions) {
    choice["text"] = m_content;
    choice["logprobs"] = nullptr;
  } else {
    json message;
    message["role"] = "assistant";
    if (m_setup.reasoning) {
      message["reasoning_content"] = m_reasoningContent.empty() ? json(nullptr) : json(m_reasoningContent);
      message["content"] = m_content.empty() && m_setup.reasoning->channel() == TextChannel::kReasoning
                               ? json(nullptr)
                               : json(m_content);
    } else {
      message["content"] = m_content;
      message["reasoning_content"] = nullptr;
    }
    message["tool_calls"] = json::array();
    choice["message"] = std::move(message);
    choice["logprobs"] = nullptr;
  }
  choice["finish_reason"] = finishReason;
  choice["stop_reason"] = stopReason.empty() ? json(nullptr) : json(stopReason);

  json body;
  body["id"] = m_setup.responseId;
  body["object"] = m_setup.route == ApiRoute::kCompletions ? "text_completion" : "chat.completion";
  body["created"] = m_setup.created;
  body["model"] = m_setup.model;
  body["choices"] = json::array({std::move(choice)});
  body["usage"] = {{"prompt_tokens", m_setup.promptTokens},
                   {"total_tokens", m_setup.promptTokens + m_completionTokens},
                   {"completion_tokens", m_completionTokens},
                   {"prompt_tokens_details", nullptr}};
  m_connection->respond(200, "application/json", body.dump(-1, ' ', false, json::error_handler_t::replace),
                        {});
}

void GenerationStream::cancel() {
  if (m_done) return;
  m_done = true;
  m_needsFlush = false;
  m_metrics.observeFinished(RequestOutcome::kAbort, secondsBetween(m_setup.arrival, Clock::now()));
  m_connection.reset();
}

}  // namespace ayar::engine
