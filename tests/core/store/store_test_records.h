#pragma once

#include <cstdint>
#include <string>

#include "core/record/request_record.h"

namespace ayar::test {

// A deterministic record for index `i`, shared by the tests and the crash-writer child so that the
// test can check every stored field exactly. Times are not round numbers on purpose.
inline RequestRecord makeStoreTestRecord(std::int64_t i, int chunks = 50) {
  RequestRecord record;
  record.index = i;
  record.scheduledS = 0.0137 * static_cast<double>(i);
  record.slotWaitS = i % 3 == 0 ? 0.000125 * static_cast<double>(i % 7) : 0.0;
  record.startS = record.scheduledS + record.slotWaitS + 1.0e-6 * static_cast<double>(i % 11);
  const bool failed = i % 17 == 5;
  if (!failed) {
    double t = 0.021 + 1.0e-9 * static_cast<double>(i);
    for (int k = 0; k < chunks; ++k) {
      record.chunkTimesS.push_back(t);
      t += 0.00731 + 1.0e-7 * static_cast<double>(k % 5);
    }
  }
  record.promptTokens = 100 + static_cast<int>(i % 400);
  record.outputTokens = failed ? 0 : chunks;
  record.outputTokensFromUsage = i % 5 != 0;
  record.expectedOutputTokens = chunks;
  record.success = !failed;
  record.httpStatus = failed ? 503 : 200;
  record.error = failed ? "HTTP 503: server overloaded" : "";
  record.generatedText = failed ? "" : "answer " + std::to_string(i) + " — ölçüm";
  return record;
}

}  // namespace ayar::test
