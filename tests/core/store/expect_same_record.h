#pragma once

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>

#include "core/record/request_record.h"

namespace ayar::test {

// Every field equal; chunk times bit for bit (the store keeps float64 exactly).
inline void expectSameRecord(const RequestRecord& actual, const RequestRecord& expected) {
  SCOPED_TRACE("request " + std::to_string(expected.index));
  EXPECT_EQ(actual.index, expected.index);
  EXPECT_EQ(actual.scheduledS, expected.scheduledS);
  EXPECT_EQ(actual.slotWaitS, expected.slotWaitS);
  EXPECT_EQ(actual.startS, expected.startS);
  ASSERT_EQ(actual.chunkTimesS.size(), expected.chunkTimesS.size());
  for (std::size_t i = 0; i < expected.chunkTimesS.size(); ++i) {
    EXPECT_EQ(std::bit_cast<std::uint64_t>(actual.chunkTimesS[i]),
              std::bit_cast<std::uint64_t>(expected.chunkTimesS[i]))
        << "chunk " << i;
  }
  EXPECT_EQ(actual.promptTokens, expected.promptTokens);
  EXPECT_EQ(actual.outputTokens, expected.outputTokens);
  EXPECT_EQ(actual.outputTokensFromUsage, expected.outputTokensFromUsage);
  EXPECT_EQ(actual.expectedOutputTokens, expected.expectedOutputTokens);
  EXPECT_EQ(actual.success, expected.success);
  EXPECT_EQ(actual.httpStatus, expected.httpStatus);
  EXPECT_EQ(actual.error, expected.error);
  EXPECT_EQ(actual.generatedText, expected.generatedText);
}

}  // namespace ayar::test
