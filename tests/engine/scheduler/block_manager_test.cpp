#include "engine/scheduler/block_manager.h"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

namespace ayar::engine {
namespace {

std::vector<std::int32_t> iota(int count, std::int32_t first) {
  std::vector<std::int32_t> tokens(static_cast<std::size_t>(count));
  std::iota(tokens.begin(), tokens.end(), first);
  return tokens;
}

std::vector<std::int32_t> concat(std::vector<std::int32_t> a, const std::vector<std::int32_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST(BlockManager, AllocatesOneBlockPerStartedBlockOfTokens) {
  BlockManager blocks(10, 4, true);
  BlockTable table;
  const auto tokens = iota(9, 100);
  ASSERT_EQ(blocks.allocate(table, tokens), 0);
  EXPECT_EQ(table.blocks.size(), 3u);
  EXPECT_EQ(blocks.numFreeBlocks(), 7);
  for (std::int32_t block : table.blocks)
    EXPECT_EQ(blocks.refCount(block), 1);
  blocks.free(table);
  EXPECT_TRUE(table.blocks.empty());
  EXPECT_EQ(blocks.numFreeBlocks(), 10);
}

TEST(BlockManager, SharesComputedFullPrefixBlocksWithRefCounts) {
  BlockManager blocks(16, 4, true);
  const auto prefix = iota(8, 1);
  const auto first = concat(prefix, {50, 51, 52});
  const auto second = concat(prefix, {60, 61});

  BlockTable a;
  ASSERT_EQ(blocks.allocate(a, first), 0);
  blocks.cacheFullBlocks(a, first, static_cast<int>(first.size()));
  EXPECT_EQ(blocks.numCachedBlocks(), 2);  // the partial third block is never cached

  BlockTable b;
  ASSERT_EQ(blocks.allocate(b, second), 8);
  ASSERT_EQ(b.blocks.size(), 3u);
  EXPECT_EQ(b.blocks[0], a.blocks[0]);
  EXPECT_EQ(b.blocks[1], a.blocks[1]);
  EXPECT_NE(b.blocks[2], a.blocks[2]);
  EXPECT_EQ(blocks.refCount(a.blocks[0]), 2);
  EXPECT_EQ(blocks.refCount(a.blocks[1]), 2);
  EXPECT_EQ(blocks.refCount(a.blocks[2]), 1);
  EXPECT_EQ(blocks.numFreeBlocks(), 16 - 4);

  blocks.free(a);
  EXPECT_EQ(blocks.refCount(b.blocks[0]), 1);
  blocks.free(b);
  EXPECT_EQ(blocks.numFreeBlocks(), 16);
}

TEST(BlockManager, BlocksNotYetComputedAreNotFound) {
  BlockManager blocks(16, 4, true);
  const auto tokens = iota(12, 1);
  BlockTable a;
  ASSERT_EQ(blocks.allocate(a, tokens), 0);
  blocks.cacheFullBlocks(a, tokens, 5);  // a chunk of 5 tokens: one full block computed so far
  BlockTable b;
  EXPECT_EQ(blocks.allocate(b, tokens), 4);
}

TEST(BlockManager, DifferentEarlierBlockMeansNoHitForTheSameLaterBlock) {
  BlockManager blocks(16, 4, true);
  const auto first = concat({1, 2, 3, 4}, {5, 6, 7, 8, 9});
  const auto second = concat({1, 2, 3, 0}, {5, 6, 7, 8, 9});
  BlockTable a;
  ASSERT_EQ(blocks.allocate(a, first), 0);
  blocks.cacheFullBlocks(a, first, 9);
  BlockTable b;
  EXPECT_EQ(blocks.allocate(b, second), 0);  // chained hashes: block 2 alone is not a match
}

TEST(BlockManager, LeavesAtLeastOneTokenToCompute) {
  BlockManager blocks(16, 4, true);
  const auto tokens = iota(8, 1);  // exactly two full blocks
  BlockTable a;
  ASSERT_EQ(blocks.allocate(a, tokens), 0);
  blocks.cacheFullBlocks(a, tokens, 8);
  BlockTable b;
  EXPECT_EQ(blocks.allocate(b, tokens), 4);  // the last block is recomputed to yield the next token
  EXPECT_NE(b.blocks[1], a.blocks[1]);
}

TEST(BlockManager, FreedCachedBlockStaysReusableUntilEvicted) {
  BlockManager blocks(4, 4, true);
  const auto tokens = iota(9, 1);
  BlockTable a;
  ASSERT_EQ(blocks.allocate(a, tokens), 0);
  blocks.cacheFullBlocks(a, tokens, 9);
  const std::vector<std::int32_t> kept(a.blocks.begin(), a.blocks.begin() + 2);
  blocks.free(a);
  EXPECT_EQ(blocks.numFreeBlocks(), 4);
  EXPECT_TRUE(blocks.isCached(kept[0]));
  EXPECT_EQ(blocks.refCount(kept[0]), 0);

  BlockTable b;
  ASSERT_EQ(blocks.allocate(b, tokens), 8);  // revived from the free list
  EXPECT_EQ(b.blocks[0], kept[0]);
  EXPECT_EQ(blocks.refCount(kept[0]), 1);
  blocks.free(b);

  // Filling the whole pool with other tokens evicts them.
  BlockTable c;
  const auto other = iota(16, 1000);
  ASSERT_EQ(blocks.allocate(c, other), 0);
  EXPECT_FALSE(blocks.isCached(kept[0]));
  EXPECT_EQ(blocks.numCachedBlocks(), 0);
  blocks.free(c);
  BlockTable d;
  EXPECT_EQ(blocks.allocate(d, tokens), 0);
}

TEST(BlockManager, EvictsEmptyBlocksFirstThenTheLeastRecentlyFreedCachedOnes) {
  BlockManager blocks(6, 2, true);
  const auto older = iota(3, 1);  // one full block (cached) and one partial block each
  const auto newer = iota(3, 100);
  BlockTable a;
  BlockTable b;
  ASSERT_EQ(blocks.allocate(a, older), 0);
  blocks.cacheFullBlocks(a, older, 3);
  ASSERT_EQ(blocks.allocate(b, newer), 0);
  blocks.cacheFullBlocks(b, newer, 3);
  blocks.free(a);
  blocks.free(b);
  ASSERT_EQ(blocks.numCachedBlocks(), 2);

  // The four blocks that hold nothing worth keeping go first.
  BlockTable c;
  ASSERT_EQ(blocks.allocate(c, iota(8, 500)), 0);
  EXPECT_EQ(blocks.numCachedBlocks(), 2);
  blocks.free(c);

  // One more block than those: the older cached block is the one evicted.
  BlockTable d;
  ASSERT_EQ(blocks.allocate(d, iota(10, 700)), 0);
  EXPECT_EQ(blocks.numCachedBlocks(), 1);
  blocks.free(d);
  BlockTable probeNewer;
  BlockTable probeOlder;
  EXPECT_EQ(blocks.allocate(probeNewer, newer), 2);
  EXPECT_EQ(blocks.allocate(probeOlder, older), 0);
}

TEST(BlockManager, RefusesWithoutChangingAnythingWhenShortOfBlocks) {
  BlockManager blocks(3, 4, true);
  BlockTable a;
  ASSERT_EQ(blocks.allocate(a, iota(8, 1)), 0);
  BlockTable b;
  EXPECT_EQ(blocks.allocate(b, iota(8, 100)), std::nullopt);
  EXPECT_TRUE(b.blocks.empty());
  EXPECT_EQ(blocks.numFreeBlocks(), 1);
  EXPECT_FALSE(blocks.appendSlots(a, 13));
  EXPECT_EQ(a.blocks.size(), 2u);
  EXPECT_TRUE(blocks.appendSlots(a, 12));
  EXPECT_EQ(a.blocks.size(), 3u);
  EXPECT_EQ(blocks.numFreeBlocks(), 0);
}

TEST(BlockManager, AppendSlotsTakesANewBlockOnlyAtABlockBoundary) {
  BlockManager blocks(8, 4, true);
  BlockTable a;
  ASSERT_EQ(blocks.allocate(a, iota(5, 1)), 0);
  EXPECT_EQ(a.blocks.size(), 2u);
  for (int length = 6; length <= 8; ++length) {
    ASSERT_TRUE(blocks.appendSlots(a, length));
    EXPECT_EQ(a.blocks.size(), 2u);
  }
  ASSERT_TRUE(blocks.appendSlots(a, 9));
  EXPECT_EQ(a.blocks.size(), 3u);
}

TEST(BlockManager, DisabledPrefixCachingNeverShares) {
  BlockManager blocks(16, 4, false);
  const auto tokens = iota(12, 1);
  BlockTable a;
  ASSERT_EQ(blocks.allocate(a, tokens), 0);
  blocks.cacheFullBlocks(a, tokens, 12);
  EXPECT_EQ(blocks.numCachedBlocks(), 0);
  BlockTable b;
  EXPECT_EQ(blocks.allocate(b, tokens), 0);
  EXPECT_EQ(blocks.numFreeBlocks(), 10);
}

TEST(BlockManager, TwoCopiesOfOneBlockKeepTheFirstCachedAndTheSecondPrivate) {
  BlockManager blocks(16, 4, true);
  const auto tokens = iota(6, 1);
  BlockTable a;
  BlockTable b;
  ASSERT_EQ(blocks.allocate(a, tokens), 0);
  ASSERT_EQ(blocks.allocate(b, tokens), 0);  // nothing computed yet: both compute the first block
  blocks.cacheFullBlocks(a, tokens, 6);
  blocks.cacheFullBlocks(b, tokens, 6);
  EXPECT_TRUE(blocks.isCached(a.blocks[0]));
  EXPECT_FALSE(blocks.isCached(b.blocks[0]));
  blocks.free(a);
  blocks.free(b);
  EXPECT_EQ(blocks.numFreeBlocks(), 16);
  BlockTable c;
  EXPECT_EQ(blocks.allocate(c, tokens), 4);
}

}  // namespace
}  // namespace ayar::engine
