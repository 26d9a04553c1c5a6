#include "engine/server/stop_string_matcher.h"

#include <gtest/gtest.h>

namespace ayar::engine {
namespace {

TEST(StopStringMatcher, FindsAStopStringSplitAcrossPiecesAndCutsBeforeIt) {
  StopStringMatcher matcher({"END"});
  std::string released;
  EXPECT_FALSE(matcher.push("Hello E", released).stopped);
  EXPECT_FALSE(matcher.push("N", released).stopped);
  const auto result = matcher.push("D and more", released);
  EXPECT_TRUE(result.stopped);
  EXPECT_EQ(result.matched, "END");
  EXPECT_EQ(released, "Hello ");
}

TEST(StopStringMatcher, HoldsBackOnlyWhatCouldStartAStopString) {
  StopStringMatcher matcher({"abc"});
  std::string released;
  matcher.push("xyzab", released);
  EXPECT_EQ(released, "xyz");  // "ab" may become "abc"
  matcher.push("d", released);
  EXPECT_EQ(released, "xyza");  // the last (longest stop - 1) bytes, "bd", stay held
  matcher.flush(released);
  EXPECT_EQ(released, "xyzabd");
}

TEST(StopStringMatcher, TheEarliestOfSeveralStopStringsWins) {
  StopStringMatcher matcher({"world", "lo"});
  std::string released;
  const auto result = matcher.push("hello world", released);
  ASSERT_TRUE(result.stopped);
  EXPECT_EQ(result.matched, "lo");
  EXPECT_EQ(released, "hel");
}

TEST(StopStringMatcher, NeverReleasesHalfAUtf8Character) {
  StopStringMatcher matcher({"xyz"});
  std::string released;
  matcher.push("ab漢", released);  // 5 bytes; 2 must be held, which would cut 漢
  EXPECT_EQ(released, "ab");
  matcher.flush(released);
  EXPECT_EQ(released, "ab漢");
}

TEST(StopStringMatcher, WithoutStopStringsEverythingPassesAtOnce) {
  StopStringMatcher matcher;
  std::string released;
  EXPECT_FALSE(matcher.push("anything", released).stopped);
  EXPECT_EQ(released, "anything");
  EXPECT_FALSE(matcher.active());
}

}  // namespace
}  // namespace ayar::engine
