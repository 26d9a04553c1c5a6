#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/tokenizer/tokenizer.h"
#include "engine/backend/backend.h"

namespace ayar::engine {

enum class ApiRoute { kCompletions, kChatCompletions };

// A /v1/completions or /v1/chat/completions body, type-checked and range-checked. What needs the
// model or the tokenizer (the served name, the prompt's length, token ids in the vocabulary) is checked
// by the caller.
struct CompletionRequest {
  ApiRoute route = ApiRoute::kCompletions;
  std::string model;  // empty when the client left it out (vLLM then uses the served model)

  // completions: exactly one of promptText / promptTokenIds is set.
  std::optional<std::string> promptText;
  std::vector<TokenId> promptTokenIds;
  // chat
  std::vector<ChatMessage> messages;
  bool enableThinking = true;  // chat_template_kwargs.enable_thinking
  bool addGenerationPrompt = true;

  bool stream = false;
  bool includeUsage = false;     // stream_options.include_usage
  std::optional<int> maxTokens;  // max_completion_tokens, else max_tokens; unset: up to max-model-len
  int minTokens = 0;
  bool ignoreEos = false;
  std::vector<std::string> stop;  // stop strings, found in the decoded text
  std::vector<TokenId> stopTokenIds;
  bool skipSpecialTokens = true;
  SamplingParams sampling;
};

// Defaults a request starts from (vLLM takes them from the model's generation_config.json).
struct SamplingDefaults {
  float temperature = 1.0f;
  float topP = 1.0f;
  int topK = 0;
};

// Parses and validates a request body; throws ApiError (400) naming the field and what to send instead.
CompletionRequest parseCompletionRequest(ApiRoute route, std::string_view body,
                                         const SamplingDefaults& defaults = {});

}  // namespace ayar::engine
