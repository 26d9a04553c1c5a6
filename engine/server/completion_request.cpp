#include "engine/server/completion_request.h"

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "engine/server/api_error.h"
#include "engine/server/json_text.h"

namespace ayar::engine {

namespace {

using nlohmann::json;

std::string typeName(const json& value) {
  switch (value.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return "a boolean";
    case json::value_t::string:
      return "a string";
    case json::value_t::array:
      return "an array";
    case json::value_t::object:
      return "an object";
    case json::value_t::number_float:
      return "a number with a fraction";
    default:
      return "an integer";
  }
}

// The field that holds the number the parser could not hold in a double (1e999), found by parsing the
// body again while following its keys; refused with 400 naming it.
[[noreturn]] void throwNumberOverflow(std::string_view body, const json::out_of_range& error) {
  struct Level {
    bool array = false;
    std::string key;
    std::size_t index = 0;
  };
  std::vector<Level> levels;
  const json::parser_callback_t follow = [&levels](int, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
        levels.push_back({});
        break;
      case json::parse_event_t::array_start:
        levels.push_back({true, {}, 0});
        break;
      case json::parse_event_t::key:
        if (!levels.empty()) levels.back().key = parsed.get<std::string>();
        break;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        if (!levels.empty()) levels.pop_back();
        if (!levels.empty() && levels.back().array) ++levels.back().index;
        break;
      case json::parse_event_t::value:
        if (!levels.empty() && levels.back().array) ++levels.back().index;
        break;
    }
    return true;
  };
  try {
    const json ignored = json::parse(body, follow);
  } catch (const json::exception&) {
    // Expected: the same overflow, now with `levels` at the number.
  }
  std::string field;
  for (const Level& level : levels) {
    if (level.array) {
      field += "[" + std::to_string(level.index) + "]";
    } else if (!level.key.empty()) {
      field += (field.empty() ? "" : ".") + level.key;
    }
  }
  // nlohmann's message quotes the number: "number overflow parsing '1e999'".
  const std::string what = error.what();
  const auto open = what.find('\'');
  const auto close = what.rfind('\'');
  const std::string number =
      open != std::string::npos && close > open ? what.substr(open + 1, close - open - 1) : "a number";
  if (field.empty()) {
    throw ApiError::badRequest("The request body holds " + number +
                               ", a number too large for a double: send a finite number.");
  }
  throw ApiError::badRequest(
      "'" + field + "' is " + number + ", a number too large for a double: send a finite number.", field);
}

[[noreturn]] void throwWrongType(const std::string& field, const char* expected, const json& value) {
  throw ApiError::badRequest("'" + field + "' must be " + expected + ", got " + typeName(value) + ".", field);
}

// The field, or nullptr when it is absent or null (OpenAI clients send null for "use the default").
const json* findField(const json& object, const char* field) {
  const auto it = object.find(field);
  if (it == object.end() || it->is_null()) return nullptr;
  return &*it;
}

std::optional<bool> optionalBool(const json& object, const char* field) {
  const json* value = findField(object, field);
  if (value == nullptr) return std::nullopt;
  if (!value->is_boolean()) throwWrongType(field, "true or false", *value);
  return value->get<bool>();
}

// Integers, also written as 16.0 (pydantic accepts those too).
std::optional<std::int64_t> optionalInteger(const json& object, const char* field) {
  const json* value = findField(object, field);
  if (value == nullptr) return std::nullopt;
  if (value->is_number_integer()) {
    if (value->is_number_unsigned() && value->get<std::uint64_t>() > std::uint64_t{1} << 62) {
      throw ApiError::badRequest(std::string("'") + field + "' is too large.", field);
    }
    return value->get<std::int64_t>();
  }
  if (value->is_number_float()) {
    const double number = value->get<double>();
    if (std::isfinite(number) && std::trunc(number) == number) {
      if (std::fabs(number) >= 4e18) {
        throw ApiError::badRequest(std::string("'") + field + "' is too large.", field);
      }
      return static_cast<std::int64_t>(number);
    }
  }
  throwWrongType(field, "an integer", *value);
}

std::optional<double> optionalNumber(const json& object, const char* field) {
  const json* value = findField(object, field);
  if (value == nullptr) return std::nullopt;
  if (!value->is_number()) throwWrongType(field, "a number", *value);
  const double number = value->get<double>();
  if (!std::isfinite(number))
    throw ApiError::badRequest(std::string("'") + field + "' must be finite.", field);
  return number;
}

// A number as a person wrote it: 0.5, 1e-50, 3.4028234663852886e+38 (std::to_string would say 0.000000).
std::string numberText(double number) {
  return json(number).dump();
}

std::vector<TokenId> tokenIdList(const json& list, const std::string& field) {
  std::vector<TokenId> ids;
  ids.reserve(list.size());
  for (const json& item : list) {
    if (!item.is_number_integer()) throwWrongType(field, "a list of token ids (integers)", item);
    const std::int64_t id = item.get<std::int64_t>();
    if (id < 0 || id > std::numeric_limits<TokenId>::max()) {
      throw ApiError::badRequest("Token id " + std::to_string(id) + " in '" + field + "' is out of range.",
                                 field);
    }
    ids.push_back(static_cast<TokenId>(id));
  }
  return ids;
}

void parsePrompt(const json& body, CompletionRequest& request) {
  const json* prompt = findField(body, "prompt");
  if (prompt == nullptr) {
    throw ApiError::badRequest("'prompt' is required: send a string or a list of token ids.", "prompt");
  }
  const char* kOnePrompt =
      "Several prompts in one request are not supported by ayar-engine: send one request per prompt.";
  if (prompt->is_string()) {
    request.promptText = prompt->get<std::string>();
  } else if (prompt->is_array()) {
    if (prompt->empty()) throw ApiError::badRequest("'prompt' is empty: send a non-empty prompt.", "prompt");
    const json& first = prompt->front();
    if (first.is_number_integer()) {
      request.promptTokenIds = tokenIdList(*prompt, "prompt");
    } else if (first.is_string() || first.is_array()) {
      if (prompt->size() != 1) throw ApiError::badRequest(kOnePrompt, "prompt");
      if (first.is_string()) {
        request.promptText = first.get<std::string>();
      } else {
        request.promptTokenIds = tokenIdList(first, "prompt");
      }
    } else {
      throwWrongType("prompt", "a string or a list of token ids", first);
    }
  } else {
    throwWrongType("prompt", "a string or a list of token ids", *prompt);
  }
  if ((request.promptText && request.promptText->empty()) ||
      (!request.promptText && request.promptTokenIds.empty())) {
    throw ApiError::badRequest("'prompt' is empty: send a non-empty prompt.", "prompt");
  }
}

std::string messageContent(const json& content, const std::string& field) {
  if (content.is_null()) return {};
  if (content.is_string()) return content.get<std::string>();
  if (!content.is_array()) throwWrongType(field, "a string or a list of text parts", content);
  // vLLM joins the text parts of one message with newlines.
  std::string text;
  for (std::size_t i = 0; i < content.size(); ++i) {
    const json& part = content[i];
    const std::string partField = field + "[" + std::to_string(i) + "]";
    if (!part.is_object()) throwWrongType(partField, "an object {\"type\": \"text\", \"text\": ...}", part);
    const auto type = part.find("type");
    if (type == part.end() || !type->is_string() || type->get<std::string>() != "text") {
      throw ApiError::badRequest(
          "'" + partField + ".type' must be \"text\": ayar-engine serves text-only models.", partField);
    }
    const auto partText = part.find("text");
    if (partText == part.end() || !partText->is_string()) {
      throw ApiError::badRequest("'" + partField + ".text' must be a string.", partField);
    }
    if (i > 0) text += '\n';
    text += partText->get<std::string>();
  }
  return text;
}

void parseMessages(const json& body, CompletionRequest& request) {
  const json* messages = findField(body, "messages");
  if (messages == nullptr) throw ApiError::badRequest("'messages' is required.", "messages");
  if (!messages->is_array()) throwWrongType("messages", "a list of messages", *messages);
  if (messages->empty())
    throw ApiError::badRequest("'messages' is empty: send at least one message.", "messages");
  for (std::size_t i = 0; i < messages->size(); ++i) {
    const json& message = (*messages)[i];
    const std::string field = "messages[" + std::to_string(i) + "]";
    if (!message.is_object()) throwWrongType(field, "an object with 'role' and 'content'", message);
    const auto role = message.find("role");
    if (role == message.end() || !role->is_string()) {
      throw ApiError::badRequest("'" + field + ".role' must be a string.", field + ".role");
    }
    ChatMessage chat;
    chat.role = role->get<std::string>();
    if (chat.role != "system" && chat.role != "user" && chat.role != "assistant") {
      throw ApiError::badRequest(
          "'" + field + ".role' is \"" + chat.role + "\": use \"system\", \"user\" or \"assistant\".",
          field + ".role");
    }
    const auto content = message.find("content");
    if (content != message.end()) chat.content = messageContent(*content, field + ".content");
    request.messages.push_back(std::move(chat));
  }
  if (const json* kwargs = findField(body, "chat_template_kwargs")) {
    if (!kwargs->is_object()) throwWrongType("chat_template_kwargs", "an object", *kwargs);
    if (auto thinking = optionalBool(*kwargs, "enable_thinking")) request.enableThinking = *thinking;
  }
  if (auto addPrompt = optionalBool(body, "add_generation_prompt")) request.addGenerationPrompt = *addPrompt;
}

void parseStop(const json& body, CompletionRequest& request) {
  if (const json* stop = findField(body, "stop")) {
    if (stop->is_string()) {
      request.stop.push_back(stop->get<std::string>());
    } else if (stop->is_array()) {
      for (const json& item : *stop) {
        if (!item.is_string()) throwWrongType("stop", "a string or a list of strings", item);
        request.stop.push_back(item.get<std::string>());
      }
    } else {
      throwWrongType("stop", "a string or a list of strings", *stop);
    }
    for (const std::string& text : request.stop) {
      if (text.empty()) throw ApiError::badRequest("'stop' holds an empty string: remove it.", "stop");
    }
  }
  if (const json* ids = findField(body, "stop_token_ids")) {
    if (!ids->is_array()) throwWrongType("stop_token_ids", "a list of token ids", *ids);
    request.stopTokenIds = tokenIdList(*ids, "stop_token_ids");
  }
}

void parseLengths(const json& body, CompletionRequest& request) {
  std::optional<std::int64_t> maxTokens = optionalInteger(body, "max_completion_tokens");
  const char* maxField = "max_completion_tokens";
  if (!maxTokens) {
    maxTokens = optionalInteger(body, "max_tokens");
    maxField = "max_tokens";
  }
  if (maxTokens) {
    if (*maxTokens < 1) {
      throw ApiError::badRequest(
          std::string(maxField) + " must be at least 1, got " + std::to_string(*maxTokens) + ".", maxField);
    }
    if (*maxTokens > std::numeric_limits<int>::max()) {
      throw ApiError::badRequest(std::string(maxField) + " is too large: " + std::to_string(*maxTokens) +
                                     ". Ask for at most the model's context length.",
                                 maxField);
    }
    request.maxTokens = static_cast<int>(*maxTokens);
  }
  if (auto minTokens = optionalInteger(body, "min_tokens")) {
    if (*minTokens < 0) {
      throw ApiError::badRequest(
          "min_tokens must be greater than or equal to 0, got " + std::to_string(*minTokens) + ".",
          "min_tokens");
    }
    if (request.maxTokens && *minTokens > *request.maxTokens) {
      throw ApiError::badRequest(
          "min_tokens must be less than or equal to max_tokens=" + std::to_string(*request.maxTokens) +
              ", got " + std::to_string(*minTokens) + ".",
          "min_tokens");
    }
    if (*minTokens > std::numeric_limits<int>::max()) {
      throw ApiError::badRequest("min_tokens is too large.", "min_tokens");
    }
    request.minTokens = static_cast<int>(*minTokens);
  }
}

void parseSampling(const json& body, const SamplingDefaults& defaults, CompletionRequest& request) {
  SamplingParams& sampling = request.sampling;
  sampling.temperature = defaults.temperature;
  sampling.topP = defaults.topP;
  sampling.topK = defaults.topK;
  // Checked again as the float the sampler uses: 1e39 is infinite there, and 1e-50 is 0.
  if (auto temperature = optionalNumber(body, "temperature")) {
    if (*temperature < 0.0) {
      throw ApiError::badRequest("temperature must be non-negative, got " + numberText(*temperature) + ".",
                                 "temperature");
    }
    // Beyond the largest float the conversion has no value (infinity in practice): refused before it.
    if (*temperature > std::numeric_limits<float>::max()) {
      throw ApiError::badRequest("temperature is too large for a float: " + numberText(*temperature) +
                                     ". Send at most " + numberText(std::numeric_limits<float>::max()) + ".",
                                 "temperature");
    }
    sampling.temperature = static_cast<float>(*temperature);
  }
  if (auto topP = optionalNumber(body, "top_p")) {
    if (*topP <= 0.0 || *topP > 1.0) {
      throw ApiError::badRequest("top_p must be in (0, 1], got " + numberText(*topP) + ".", "top_p");
    }
    const float value = static_cast<float>(*topP);
    if (value <= 0.0f) {
      throw ApiError::badRequest("top_p is " + numberText(*topP) +
                                     ", which is 0 as a float and would turn top-p off: send at least " +
                                     numberText(std::numeric_limits<float>::denorm_min()) + ".",
                                 "top_p");
    }
    sampling.topP = value;
  }
  if (auto topK = optionalInteger(body, "top_k")) {
    if (*topK < -1 || *topK > std::numeric_limits<int>::max()) {
      throw ApiError::badRequest(
          "top_k must be -1 (disable), or at least 1, got " + std::to_string(*topK) + ".", "top_k");
    }
    sampling.topK = *topK <= 0 ? 0 : static_cast<int>(*topK);
  }
  if (const json* seed = findField(body, "seed")) {
    if (!seed->is_number_integer()) throwWrongType("seed", "an integer", *seed);
    sampling.seed = seed->is_number_unsigned() ? seed->get<std::uint64_t>()
                                               : static_cast<std::uint64_t>(seed->get<std::int64_t>());
    sampling.hasSeed = true;
  }
}

// Fields ayar-engine does not implement are refused when they ask for something, so a client never
// silently gets a different behaviour than it asked for.
void refuseUnsupported(const json& body) {
  if (auto n = optionalInteger(body, "n"); n && *n != 1) {
    throw ApiError::badRequest(
        "n must be 1: ayar-engine generates one choice per request, got " + std::to_string(*n) + ".", "n");
  }
  if (auto bestOf = optionalInteger(body, "best_of"); bestOf && *bestOf != 1) {
    throw ApiError::badRequest("best_of must be 1: ayar-engine generates one choice per request.", "best_of");
  }
  if (const json* logprobs = findField(body, "logprobs")) {
    if (!(logprobs->is_boolean() && !logprobs->get<bool>())) {
      throw ApiError::badRequest("logprobs are not supported by ayar-engine: leave 'logprobs' out.",
                                 "logprobs");
    }
  }
  if (auto echo = optionalBool(body, "echo"); echo && *echo) {
    throw ApiError::badRequest("echo is not supported by ayar-engine: leave 'echo' out.", "echo");
  }
  for (const char* penalty : {"presence_penalty", "frequency_penalty"}) {
    if (auto value = optionalNumber(body, penalty); value && *value != 0.0) {
      throw ApiError::badRequest(
          std::string(penalty) + " is not supported by ayar-engine: leave it out or send 0.", penalty);
    }
  }
  if (auto value = optionalNumber(body, "repetition_penalty"); value && *value != 1.0) {
    throw ApiError::badRequest("repetition_penalty is not supported by ayar-engine: leave it out or send 1.",
                               "repetition_penalty");
  }
}

}  // namespace

CompletionRequest parseCompletionRequest(ApiRoute route, std::string_view body,
                                         const SamplingDefaults& defaults) {
  if (auto offset = findInvalidUtf8(body)) {
    throw ApiError::badRequest("The request body is not valid UTF-8 (at byte " + std::to_string(*offset) +
                               "): send UTF-8 encoded JSON.");
  }
  json document;
  try {
    document = json::parse(body);
  } catch (const json::out_of_range& error) {  // a number past a double's range: named by its field
    throwNumberOverflow(body, error);
  } catch (const json::exception& error) {
    throw ApiError::badRequest(std::string("The request body is not valid JSON: ") + error.what());
  }
  if (!document.is_object()) {
    throw ApiError::badRequest("The request body must be a JSON object, got " + typeName(document) + ".");
  }

  CompletionRequest request;
  request.route = route;
  if (const json* model = findField(document, "model")) {
    if (!model->is_string()) throwWrongType("model", "a string", *model);
    request.model = model->get<std::string>();
  }
  if (route == ApiRoute::kCompletions) {
    parsePrompt(document, request);
  } else {
    parseMessages(document, request);
  }
  refuseUnsupported(document);

  request.stream = optionalBool(document, "stream").value_or(false);
  if (const json* options = findField(document, "stream_options")) {
    if (!options->is_object()) throwWrongType("stream_options", "an object", *options);
    if (!request.stream) {
      throw ApiError::badRequest("Stream options can only be defined when `stream=True`.", "stream_options");
    }
    request.includeUsage = optionalBool(*options, "include_usage").value_or(false);
  }
  parseLengths(document, request);
  parseSampling(document, defaults, request);
  parseStop(document, request);
  request.ignoreEos = optionalBool(document, "ignore_eos").value_or(false);
  request.skipSpecialTokens = optionalBool(document, "skip_special_tokens").value_or(true);
  return request;
}

}  // namespace ayar::engine
