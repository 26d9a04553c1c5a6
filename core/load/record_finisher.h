#pragma once

// How a finished request becomes its record: the server's answer (its HTTP status, the stream read
// from a 2xx body, or the error body of another status) and the transport's own failure, if any, turned
// into success or a failure with its reason, and the token counts. No sockets: tests give it a reader
// fed with bytes.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "core/load/openai_stream.h"
#include "core/record/request_record.h"

namespace ayar {

// What a transfer collected by the time it ended.
struct FinishedResponse {
  int httpStatus = 0;     // 0 when no status line arrived
  std::string errorBody;  // the body of a non-2xx answer (cut at the client's limit)
  // The transport's failure (a broken connection, a timeout, invalid HTTP); none when the response
  // ended as HTTP says it ends.
  std::optional<std::string> transportFailure;
};

// Counts the tokens of a generated text when the server sent no usage (vLLM's rule).
using TokenCounter = std::function<int(std::string_view)>;

// Fills `record` from the response and the stream `reader` read (whose chunk times and text move into
// the record). A request succeeded when the transport did not fail, the status is 2xx, the stream
// carried no error, at least one chunk had choices, and the server sent no more output tokens than
// the request allowed. Output tokens: the usage count when the server sent one above 0, else the
// counter's count of the text (the chunks with choices without a counter).
RequestRecord finishRecord(RequestRecord record, FinishedResponse response, OpenAiStreamReader& reader,
                           const TokenCounter& countTokens);

// The message of an OpenAI error body ({"error": {"message": ...}}), vLLM's older top-level form, or
// FastAPI's {"detail": ...}; otherwise the start of the body itself.
std::string errorBodyMessage(const std::string& body);

}  // namespace ayar
