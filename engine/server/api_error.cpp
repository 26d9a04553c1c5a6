#include "engine/server/api_error.h"

#include <utility>

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
  std::string json = R"({"error":{"message":)";
  appendJsonString(json, message);
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
