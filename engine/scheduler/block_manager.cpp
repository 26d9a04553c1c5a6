#include "engine/scheduler/block_manager.h"

#include <algorithm>
#include <cassert>

#include "engine/common/splitmix64.h"

namespace ayar::engine {

BlockManager::BlockManager(int numBlocks, int blockSize, bool enablePrefixCaching)
    : m_blockSize(blockSize), m_prefixCaching(enablePrefixCaching) {
  assert(numBlocks > 0 && blockSize > 0);
  m_blocks.resize(static_cast<std::size_t>(numBlocks));
  for (std::int32_t block = 0; block < numBlocks; ++block)
    pushFreeBack(block);
}

// 64 bits of a strong mix: a collision needs billions of cached blocks to become likely, so the block's
// token ids are not kept for comparison (they would cost 4 bytes per KV slot).
std::uint64_t BlockManager::chainHash(std::uint64_t parentHash, std::span<const std::int32_t> blockTokens) {
  std::uint64_t hash = splitmix64Mix(parentHash ^ 0x9e3779b97f4a7c15ULL);
  for (std::int32_t token : blockTokens) {
    hash = splitmix64Mix(hash + static_cast<std::uint32_t>(token) + 0x632be59bd9b4e019ULL);
  }
  return hash;
}

bool BlockManager::isCached(std::int32_t block) const {
  return m_blocks[static_cast<std::size_t>(block)].hashed;
}

std::optional<int> BlockManager::allocate(BlockTable& table, std::span<const std::int32_t> tokens) {
  assert(table.blocks.empty() && !tokens.empty());
  const int numTokens = static_cast<int>(tokens.size());
  const int needed = blocksFor(numTokens);

  // Longest cached prefix of full blocks, leaving the last token to compute.
  std::vector<std::int32_t> hits;
  std::uint64_t hash = 0;
  int hitsToRevive = 0;  // cached blocks nobody references: they leave the free list
  if (m_prefixCaching) {
    const int maxHitBlocks = (numTokens - 1) / m_blockSize;
    for (int i = 0; i < maxHitBlocks; ++i) {
      const std::uint64_t next = chainHash(hash, tokens.subspan(static_cast<std::size_t>(i * m_blockSize),
                                                                static_cast<std::size_t>(m_blockSize)));
      const auto found = m_cachedBlocks.find(next);
      if (found == m_cachedBlocks.end()) break;
      hits.push_back(found->second);
      if (at(found->second).refCount == 0) ++hitsToRevive;
      hash = next;
    }
  }
  const int fresh = needed - static_cast<int>(hits.size());
  if (fresh + hitsToRevive > m_numFree) return std::nullopt;

  table.blocks.reserve(static_cast<std::size_t>(needed));
  for (std::int32_t block : hits) {
    if (at(block).refCount++ == 0) unlinkFree(block);
    table.blocks.push_back(block);
  }
  for (int i = 0; i < fresh; ++i) {
    const std::int32_t block = takeFreeBlock();
    at(block).refCount = 1;
    table.blocks.push_back(block);
  }
  table.numHashedBlocks = static_cast<int>(hits.size());
  table.lastHash = hash;
  return static_cast<int>(hits.size()) * m_blockSize;
}

bool BlockManager::appendSlots(BlockTable& table, int numTokens) {
  const int missing = blocksFor(numTokens) - static_cast<int>(table.blocks.size());
  if (missing <= 0) return true;
  if (missing > m_numFree) return false;
  for (int i = 0; i < missing; ++i) {
    const std::int32_t block = takeFreeBlock();
    at(block).refCount = 1;
    table.blocks.push_back(block);
  }
  return true;
}

void BlockManager::cacheFullBlocks(BlockTable& table, std::span<const std::int32_t> tokens,
                                   int numComputedTokens) {
  if (!m_prefixCaching) return;
  const int fullBlocks = numComputedTokens / m_blockSize;
  assert(fullBlocks <= static_cast<int>(table.blocks.size()));
  assert(numComputedTokens <= static_cast<int>(tokens.size()));
  for (int i = table.numHashedBlocks; i < fullBlocks; ++i) {
    const std::uint64_t hash = chainHash(
        table.lastHash,
        tokens.subspan(static_cast<std::size_t>(i * m_blockSize), static_cast<std::size_t>(m_blockSize)));
    const std::int32_t block = table.blocks[static_cast<std::size_t>(i)];
    // When another sequence computed the same content first, its block stays the cached one and
    // this copy remains private to the sequence.
    if (m_cachedBlocks.try_emplace(hash, block).second) {
      at(block).hashed = true;
      at(block).hash = hash;
    }
    table.lastHash = hash;
    table.numHashedBlocks = i + 1;
  }
}

void BlockManager::free(BlockTable& table) {
  // Last block first: a sequence's tail is evicted before its (more shareable) head.
  for (auto it = table.blocks.rbegin(); it != table.blocks.rend(); ++it) {
    Block& block = at(*it);
    assert(block.refCount > 0);
    if (--block.refCount > 0) continue;
    if (block.hashed) {
      pushFreeBack(*it);  // most recently used end: evicted last
    } else {
      pushFreeFront(*it);  // holds nothing worth keeping: reused first
    }
  }
  table = BlockTable{};
}

void BlockManager::uncacheBlocks(BlockTable& table, int firstBlock) {
  for (int i = firstBlock; i < table.numHashedBlocks; ++i) {
    Block& block = at(table.blocks[static_cast<std::size_t>(i)]);
    if (!block.hashed) continue;
    m_cachedBlocks.erase(block.hash);
    block.hashed = false;
  }
  table.numHashedBlocks = std::min(table.numHashedBlocks, firstBlock);
}

std::int32_t BlockManager::takeFreeBlock() {
  const std::int32_t block = m_freeHead;
  assert(block >= 0);
  unlinkFree(block);
  Block& evicted = at(block);
  if (evicted.hashed) {
    m_cachedBlocks.erase(evicted.hash);
    evicted.hashed = false;
  }
  return block;
}

void BlockManager::unlinkFree(std::int32_t block) {
  Block& b = at(block);
  if (b.prev >= 0) {
    at(b.prev).next = b.next;
  } else {
    m_freeHead = b.next;
  }
  if (b.next >= 0) {
    at(b.next).prev = b.prev;
  } else {
    m_freeTail = b.prev;
  }
  b.prev = b.next = -1;
  --m_numFree;
}

void BlockManager::pushFreeFront(std::int32_t block) {
  Block& b = at(block);
  b.prev = -1;
  b.next = m_freeHead;
  if (m_freeHead >= 0) {
    at(m_freeHead).prev = block;
  } else {
    m_freeTail = block;
  }
  m_freeHead = block;
  ++m_numFree;
}

void BlockManager::pushFreeBack(std::int32_t block) {
  Block& b = at(block);
  b.next = -1;
  b.prev = m_freeTail;
  if (m_freeTail >= 0) {
    at(m_freeTail).next = block;
  } else {
    m_freeHead = block;
  }
  m_freeTail = block;
  ++m_numFree;
}

}  // namespace ayar::engine
