#include "core/store/chunk_times.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/error.h"

namespace ayar {
namespace {

TEST(ChunkTimes, RoundTripIsBitExact) {
  const std::vector<double> times{0.0,
                                  -0.0,
                                  1.0e-9,
                                  0.0123456789012345,
                                  3600.000000001,
                                  std::numeric_limits<double>::denorm_min(),
                                  std::numeric_limits<double>::max(),
                                  std::numeric_limits<double>::quiet_NaN()};
  const std::vector<double> back = decodeChunkTimes(encodeChunkTimes(times), "test");
  ASSERT_EQ(back.size(), times.size());
  for (std::size_t i = 0; i < times.size(); ++i) {
    EXPECT_EQ(std::bit_cast<std::uint64_t>(back[i]), std::bit_cast<std::uint64_t>(times[i])) << "value " << i;
  }
}

TEST(ChunkTimes, StoresEightLittleEndianBytesPerChunk) {
  const std::vector<double> times{1.0, 0.5};
  const std::vector<std::byte> blob = encodeChunkTimes(times);
  ASSERT_EQ(blob.size(), 16u);
  // 1.0 is 0x3FF0000000000000: least significant byte first.
  EXPECT_EQ(blob[0], std::byte{0x00});
  EXPECT_EQ(blob[6], std::byte{0xF0});
  EXPECT_EQ(blob[7], std::byte{0x3F});
  EXPECT_EQ(blob[15], std::byte{0x3F});  // 0.5 is 0x3FE0000000000000
  EXPECT_EQ(blob[14], std::byte{0xE0});
}

TEST(ChunkTimes, EmptyListIsAnEmptyBlob) {
  EXPECT_TRUE(encodeChunkTimes({}).empty());
  EXPECT_TRUE(decodeChunkTimes({}, "test").empty());
}

TEST(ChunkTimes, BlobOfTornSizeIsAnErrorNamingTheRequest) {
  const std::vector<std::byte> blob(13, std::byte{0});
  try {
    decodeChunkTimes(blob, "run 3, request 17");
    FAIL() << "a 13-byte blob was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("run 3, request 17"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("13 bytes"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ayar
