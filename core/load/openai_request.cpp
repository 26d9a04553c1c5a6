#include "core/load/openai_request.h"

#include "core/error.h"
#include "core/report/message_text.h"

namespace ayar {

ApiKind parseBackendName(std::string_view name) {
  if (name == "openai") return ApiKind::Completions;
  if (name == "openai-chat") return ApiKind::ChatCompletions;
  throw MessageError({MessageText::LoadBackendUnknown, {std::string(name)}});
}

std::string_view backendName(ApiKind api) {
  return api == ApiKind::Completions ? "openai" : "openai-chat";
}

std::string_view defaultEndpointPath(ApiKind api) {
  return api == ApiKind::Completions ? "/v1/completions" : "/v1/chat/completions";
}

namespace {

void mergeExtra(nlohmann::json& body, const nlohmann::json& extra, MessageText what) {
  if (extra.is_null()) return;
  if (!extra.is_object()) {
    throw MessageError({MessageText::LoadExtraNotObject, {Message{what, {}}.asArgument(), extra.dump()}});
  }
  for (const auto& [key, value] : extra.items())
    body[key] = value;
}

}  // namespace

std::string buildRequestBody(const RequestBodyOptions& options, std::string_view prompt, int maxOutputTokens,
                             const nlohmann::json& requestExtra) {
  nlohmann::json body = nlohmann::json::object();
  body["model"] = options.model;
  if (options.api == ApiKind::Completions) {
    body["prompt"] = prompt;
    body["repetition_penalty"] = 1.0;
    if (maxOutputTokens > 0) body["max_tokens"] = maxOutputTokens;
    body["logprobs"] = options.logprobs ? nlohmann::json(*options.logprobs) : nlohmann::json(nullptr);
  } else {
    const nlohmann::json text = {{"type", "text"}, {"text", prompt}};
    body["messages"] =
        nlohmann::json::array({{{"role", "user"}, {"content", nlohmann::json::array({text})}}});
    if (maxOutputTokens > 0) body["max_completion_tokens"] = maxOutputTokens;
  }
  body["stream"] = true;
  body["stream_options"] = {{"include_usage", true}};
  if (options.ignoreEos) body["ignore_eos"] = true;
  mergeExtra(body, options.extraBody, MessageText::LoadExtraBodyAll);
  mergeExtra(body, requestExtra, MessageText::LoadExtraBodyOne);
  return body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::int64_t requestedMaxTokens(const RequestBodyOptions& options, int maxOutputTokens,
                                const nlohmann::json& requestExtra) {
  const char* key = options.api == ApiKind::Completions ? "max_tokens" : "max_completion_tokens";
  std::int64_t limit = maxOutputTokens > 0 ? maxOutputTokens : 0;
  for (const nlohmann::json* extra : {&options.extraBody, &requestExtra}) {
    if (!extra->is_object()) continue;
    const auto found = extra->find(key);
    if (found == extra->end()) continue;
    limit = found->is_number_integer() && found->get<std::int64_t>() > 0 ? found->get<std::int64_t>() : 0;
  }
  return limit;
}

}  // namespace ayar
