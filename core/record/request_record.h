#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ayar {

// What the client measured for one request. Times are seconds on a steady clock: `scheduledS` and
// `startS` relative to the run's origin (the first dispatch), chunk times relative to `startS`.
struct RequestRecord {
  std::int64_t index = 0;   // position in the run's request list
  double scheduledS = 0.0;  // when the arrival schedule said to send it
  double slotWaitS = 0.0;   // time spent waiting for a --max-concurrency slot
  double startS = 0.0;      // just before the request went to the transport
  // Arrival of every SSE chunk with non-empty `choices`, relative to startS, in order. The first is
  // TTFT, the last is the end-to-end latency; differences are the inter-token latencies.
  std::vector<double> chunkTimesS;
  int promptTokens = 0;  // usage.prompt_tokens, else the client's count
  int outputTokens = 0;  // usage.completion_tokens, else the tokenizer's count of the text
  bool outputTokensFromUsage = true;
  int expectedOutputTokens = 0;  // the output length the dataset asked for
  // The output-token limit the request body carried (max_tokens or max_completion_tokens, the extra
  // body's when it set one); 0 when it carried none. A server that sends more broke the protocol.
  std::int64_t maxTokens = 0;
  bool success = false;
  int httpStatus = 0;  // 0 when no response arrived
  std::string error;   // empty on success
  std::string generatedText;

  // start - scheduled - slot wait: how late the client sent it (Ayar's own figure).
  double dispatchLagS() const { return startS - scheduledS - slotWaitS; }
  double ttftS() const { return chunkTimesS.empty() ? 0.0 : chunkTimesS.front(); }
  double latencyS() const { return chunkTimesS.empty() ? 0.0 : chunkTimesS.back(); }
  std::vector<double> itlS() const {
    std::vector<double> out;
    for (std::size_t i = 1; i < chunkTimesS.size(); ++i)
      out.push_back(chunkTimesS[i] - chunkTimesS[i - 1]);
    return out;
  }
};

}  // namespace ayar
