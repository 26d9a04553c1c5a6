#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace ayar {

// The two OpenAI-compatible streaming APIs, under the backend names `vllm bench serve` uses.
enum class ApiKind {
  Completions,      // backend "openai": POST /v1/completions, text in choices[0].text
  ChatCompletions,  // backend "openai-chat": POST /v1/chat/completions, text in choices[0].delta
};

// "openai" or "openai-chat"; anything else is an ayar::Error naming the value and the choices.
ApiKind parseBackendName(std::string_view name);
std::string_view backendName(ApiKind api);
std::string_view defaultEndpointPath(ApiKind api);

// What every request body of a run shares.
struct RequestBodyOptions {
  ApiKind api = ApiKind::Completions;
  std::string model;
  bool ignoreEos = false;       // vLLM's extension: generate exactly the asked length
  std::optional<int> logprobs;  // completions only: vLLM's --logprobs, sent as null when unset
  // Merged last, so it may override anything: vLLM's sampling parameters (temperature, top_p, ...)
  // followed by its --extra-body.
  nlohmann::json extraBody = nlohmann::json::object();
};

// The JSON body of one streaming request, as `vllm bench serve` builds it, with
// stream_options.include_usage so that the final chunk carries the server's token counts.
// Completions: {model, prompt, repetition_penalty: 1.0, max_tokens, logprobs, stream, stream_options};
// chat: {model, messages:[{role:"user", content:[{type:"text", text}]}], max_completion_tokens,
// stream, stream_options}; then ignore_eos when set, then the extra body. maxOutputTokens <= 0
// leaves the length to the server. `requestExtra` (an object, or null) is merged after
// options.extraBody. Invalid UTF-8 in the prompt is replaced by U+FFFD rather than rejected.
std::string buildRequestBody(const RequestBodyOptions& options, std::string_view prompt, int maxOutputTokens,
                             const nlohmann::json& requestExtra = nullptr);

// The output-token limit the body buildRequestBody writes asks for: max_tokens (completions) or
// max_completion_tokens (chat), from maxOutputTokens or, when they set it, the extra bodies (the
// later wins, as in the body). 0 when the body sets none or the extra body's value is not a count.
std::int64_t requestedMaxTokens(const RequestBodyOptions& options, int maxOutputTokens,
                                const nlohmann::json& requestExtra = nullptr);

}  // namespace ayar
