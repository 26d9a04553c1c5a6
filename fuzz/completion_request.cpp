// The engine's /v1/completions and /v1/chat/completions body parser (the first byte picks the route).
// A bad body is an ApiError, answered as a 400; anything else escaping is a bug. The error's JSON body
// must be JSON, whatever bytes of the request it quotes.
#include "engine/server/completion_request.h"

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "engine/server/api_error.h"
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  using ayar::engine::ApiRoute;
  const ApiRoute route = data[0] % 2 == 0 ? ApiRoute::kCompletions : ApiRoute::kChatCompletions;
  try {
    (void)ayar::engine::parseCompletionRequest(route, ayar::fuzz::asText(data + 1, size - 1));
  } catch (const ayar::engine::ApiError& error) {
    ayar::fuzz::check(error.status == 400, "a bad request body is answered 400");
    const nlohmann::json body = nlohmann::json::parse(error.toJson(), nullptr, false);
    ayar::fuzz::check(!body.is_discarded(), "the error body is JSON");
  }
  return 0;
}
