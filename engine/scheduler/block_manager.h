#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

namespace ayar::engine {

// The KV pages of one sequence, as the block manager sees them.
struct BlockTable {
  std::vector<std::int32_t> blocks;  // physical block ids, position p lives in blocks[p / blockSize]
  int numHashedBlocks = 0;           // leading full blocks whose chained hash is known
  std::uint64_t lastHash = 0;        // chained hash of blocks[numHashedBlocks - 1]
};

// Paged KV cache bookkeeping: a pool of blocks of `blockSize` tokens, reference counts, and a prefix
// cache keyed by chained block hashes (hash of the parent block's hash and the block's token ids), so
// that a block is shared only when the whole prefix up to and including it is the same. Only full
// blocks are cached. A cached block whose last user frees it stays in the cache, and reusable, until
// a fresh allocation evicts it (least recently freed first). Knows nothing of devices or threads.
class BlockManager {
 public:
  BlockManager(int numBlocks, int blockSize, bool enablePrefixCaching);

  int numBlocks() const { return static_cast<int>(m_blocks.size()); }
  int blockSize() const { return m_blockSize; }
  bool prefixCachingEnabled() const { return m_prefixCaching; }
  // Blocks nobody references, cached ones included (they are evicted on demand).
  int numFreeBlocks() const { return m_numFree; }
  int blocksFor(int numTokens) const { return (numTokens + m_blockSize - 1) / m_blockSize; }

  // Gives an empty `table` the blocks for all of `tokens`, taking the longest prefix of full blocks from
  // the cache. At most tokens.size() - 1 tokens come from the cache, so one is always left to compute
  // (it yields the next token). Returns the number of cached tokens, or nullopt when the free blocks
  // do not suffice (then nothing changes).
  std::optional<int> allocate(BlockTable& table, std::span<const std::int32_t> tokens);
  // Grows `table` to cover `numTokens` positions. False, and nothing changes, when a new block is
  // needed and none is free.
  bool appendSlots(BlockTable& table, int numTokens);
  // Enters into the prefix cache the full blocks among the first `numComputedTokens` of `tokens`
  // (their KV is computed, or is being computed in the step being scheduled).
  void cacheFullBlocks(BlockTable& table, std::span<const std::int32_t> tokens, int numComputedTokens);
  // Drops the table's references; its blocks return to the pool (cached ones stay findable).
  void free(BlockTable& table);
  // Takes the table's blocks from `firstBlock` on out of the prefix cache: their KV was never written
  // (the step that was to compute them failed).
  void uncacheBlocks(BlockTable& table, int firstBlock);

  // For tests and stats.
  int refCount(std::int32_t block) const { return m_blocks[static_cast<std::size_t>(block)].refCount; }
  bool isCached(std::int32_t block) const;
  int numCachedBlocks() const { return static_cast<int>(m_cachedBlocks.size()); }

  static std::uint64_t chainHash(std::uint64_t parentHash, std::span<const std::int32_t> blockTokens);

 private:
  struct Block {
    int refCount = 0;
    bool hashed = false;  // owns m_cachedBlocks[hash]
    std::uint64_t hash = 0;
    // The free list is a doubly linked list threaded through the blocks: head = next to reuse.
    std::int32_t prev = -1;
    std::int32_t next = -1;
  };

  std::int32_t takeFreeBlock();  // pops the head, evicting its cache entry
  void unlinkFree(std::int32_t block);
  void pushFreeFront(std::int32_t block);
  void pushFreeBack(std::int32_t block);
  Block& at(std::int32_t block) { return m_blocks[static_cast<std::size_t>(block)]; }

  int m_blockSize;
  bool m_prefixCaching;
  std::vector<Block> m_blocks;
  std::int32_t m_freeHead = -1;
  std::int32_t m_freeTail = -1;
  int m_numFree = 0;
  std::unordered_map<std::uint64_t, std::int32_t> m_cachedBlocks;  // chained hash -> block
};

}  // namespace ayar::engine
