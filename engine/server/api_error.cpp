#include "engine/server/api_error.h"

#include <utility>

#include "core/tokenizer/utf8.h"
#include "engine/server/json_text.h"

namespace ayar::engine {

ApiError ApiError::badRequest(std::string message, std::string param) {
  return {400, std::move(message), "BadRequestError", std::move(param)};
}

ApiError ApiError::notFound(std::string message) {
  return {404, std::move(message), "NotFoundError", {}};
}

ApiError ApiError::unauthorized(std::string message) {
  return {401, std::move(message), "AuthenticationError", {}};
}

ApiError ApiError::methodNotAllowed(std::string message) {
  return {405, std::move(message), "MethodNotAllowed", {}};
}

ApiError ApiError::payloadTooLarge(std::string message) {
  return {413, std::move(message), "PayloadTooLarge", {}};
}

ApiError ApiError::unavailable(std::string message) {
  return {503, std::move(message), "ServiceUnavailableError", {}};
}

std::string ApiError::toJson() const {
  // A message may quote the request, and a JSON parser's message can end inside a character of it
  // ("last read: '\xC3'"): the body stays UTF-8, so that it is JSON.
  std::string json = R"({"error":{"message":)";
  appendJsonString(json, utf8::replaceInvalid(message));
  json += R"(,"type":)";
  appendJsonString(json, type);
  json += R"(,"param":)";
  if (param.empty()) {
    json += "null";
  } else {
    appendJsonString(json, param);
  }
  json += R"(,"code":)";
  json += std::to_string(status);
  json += "}}";
  return json;
}

}  // namespace ayar::engine
