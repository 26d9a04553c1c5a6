#pragma once

#include <span>

#include "core/tokenizer/tokenizer.h"

namespace ayar::engine {

enum class TextChannel { kContent, kReasoning };

// vLLM's qwen3 reasoning parser, token by token: what the model writes before `</think>` is reasoning
// (`reasoning_content`), what follows is the answer (`content`); the `<think>` and `</think>` tokens
// themselves are not text. Streaming cannot look ahead, so an output without `</think>` is all
// reasoning, and the non-streaming answer is split the same way so that both agree.
class Qwen3ReasoningParser {
 public:
  struct ThinkTokens {
    TokenId imStart = 151644;
    TokenId thinkStart = 151667;
    TokenId thinkEnd = 151668;
  };

  // `prompt` is the templated prompt: with enable_thinking=false Qwen3's template already closes the
  // thinking block (`<think>\n\n</think>\n\n` after the generation prompt), so the answer is all content.
  Qwen3ReasoningParser(const ThinkTokens& tokens, std::span<const TokenId> prompt) : m_tokens(tokens) {
    for (auto it = prompt.rbegin(); it != prompt.rend() && *it != m_tokens.imStart; ++it) {
      if (*it == m_tokens.thinkEnd) m_channel = TextChannel::kContent;
    }
  }

  struct Route {
    bool isText = true;           // false for the <think> / </think> tokens
    bool reasoningEnded = false;  // this token was the </think> that switches to content
  };

  Route route(TokenId id) {
    if (id == m_tokens.thinkStart) return {false, false};
    if (id == m_tokens.thinkEnd) {
      const bool ended = m_channel == TextChannel::kReasoning;
      m_channel = TextChannel::kContent;
      return {false, ended};
    }
    return {true, false};
  }

  TextChannel channel() const { return m_channel; }

 private:
  ThinkTokens m_tokens;
  TextChannel m_channel = TextChannel::kReasoning;
};

}  // namespace ayar::engine
