#pragma once

#include <string>

namespace ayar::engine {

// An error answered to an HTTP client as vLLM does:
// {"error": {"message": ..., "type": ..., "param": ..., "code": <status>}}.
// Thrown by request validation; the server catches it and keeps serving.
struct ApiError {
  int status = 400;
  std::string message;
  std::string type = "BadRequestError";
  std::string param;  // the request field at fault; empty: null

  static ApiError badRequest(std::string message, std::string param = {});
  static ApiError notFound(std::string message);
  static ApiError unauthorized(std::string message);
  static ApiError methodNotAllowed(std::string message);
  static ApiError payloadTooLarge(std::string message);
  static ApiError unavailable(std::string message);

  // The JSON body.
  std::string toJson() const;
};

}  // namespace ayar::engine
