#include "core/tokenizer/byte_pair_encoder.h"

#include <bit>
#include <cassert>
#include <limits>
#include <queue>

namespace ayar {

namespace {

std::uint64_t pairKey(TokenId left, TokenId right) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(left)) << 32) |
         static_cast<std::uint32_t>(right);
}

std::uint64_t mix(std::uint64_t key) {
  // A fixed 64-bit finalizer (from MurmurHash3): ids are small and dense, so spread them out.
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccdULL;
  key ^= key >> 33;
  key *= 0xc4ceb9fe1a85ec53ULL;
  key ^= key >> 33;
  return key;
}

// Words up to this many bytes use the quadratic scan, which beats a heap on short words.
constexpr std::size_t kShortWordBytes = 48;

}  // namespace

BytePairEncoder::BytePairEncoder(const std::array<TokenId, 256>& byteTokens, std::size_t mergeCount)
    : m_byteTokens(byteTokens) {
  const std::size_t size = std::bit_ceil(std::max<std::size_t>(16, mergeCount * 2));
  m_slots.assign(size, Slot{kEmpty, 0, 0});
  m_mask = size - 1;
}

void BytePairEncoder::addMerge(TokenId left, TokenId right, TokenId merged, std::int32_t rank) {
  const std::uint64_t key = pairKey(left, right);
  for (std::uint64_t i = mix(key) & m_mask;; i = (i + 1) & m_mask) {
    Slot& slot = m_slots[i];
    if (slot.key == kEmpty || slot.key == key) {
      slot = Slot{key, rank, merged};
      return;
    }
  }
}

const BytePairEncoder::Slot* BytePairEncoder::find(TokenId left, TokenId right) const {
  const std::uint64_t key = pairKey(left, right);
  for (std::uint64_t i = mix(key) & m_mask;; i = (i + 1) & m_mask) {
    const Slot& slot = m_slots[i];
    if (slot.key == key) return &slot;
    if (slot.key == kEmpty) return nullptr;
  }
}

std::int32_t BytePairEncoder::rank(TokenId left, TokenId right) const {
  const Slot* slot = find(left, right);
  return slot ? slot->rank : -1;
}

void BytePairEncoder::encode(std::string_view word, std::vector<TokenId>& out) const {
  assert(!word.empty());
  if (word.size() <= kShortWordBytes) {
    encodeShort(word, out);
  } else {
    encodeLong(word, out);
  }
}

void BytePairEncoder::encodeShort(std::string_view word, std::vector<TokenId>& out) const {
  constexpr std::int32_t kNoMerge = std::numeric_limits<std::int32_t>::max();
  TokenId ids[kShortWordBytes];
  std::int32_t ranks[kShortWordBytes];  // ranks[i]: the merge of ids[i] and ids[i + 1]
  TokenId merged[kShortWordBytes];
  std::size_t n = word.size();
  for (std::size_t i = 0; i < n; ++i)
    ids[i] = m_byteTokens[static_cast<unsigned char>(word[i])];
  auto rankAt = [&](std::size_t i) {
    const Slot* slot = find(ids[i], ids[i + 1]);
    if (!slot) return kNoMerge;
    merged[i] = slot->merged;
    return slot->rank;
  };
  for (std::size_t i = 0; i + 1 < n; ++i)
    ranks[i] = rankAt(i);
  while (n > 1) {
    std::size_t best = 0;
    for (std::size_t i = 1; i + 1 < n; ++i) {
      if (ranks[i] < ranks[best]) best = i;  // strict: the leftmost of equal ranks wins
    }
    if (ranks[best] == kNoMerge) break;
    ids[best] = merged[best];
    for (std::size_t i = best + 1; i + 1 < n; ++i) {
      ids[i] = ids[i + 1];
      ranks[i] = ranks[i + 1];
      merged[i] = merged[i + 1];
    }
    --n;
    if (best > 0) ranks[best - 1] = rankAt(best - 1);
    if (best + 1 < n) ranks[best] = rankAt(best);
  }
  out.insert(out.end(), ids, ids + n);
}

void BytePairEncoder::encodeLong(std::string_view word, std::vector<TokenId>& out) const {
  // Symbols form a linked list over the byte positions; a symbol keeps the position of its first
  // byte, which orders equal ranks left to right in the heap.
  const std::size_t n = word.size();
  constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  std::vector<TokenId> ids(n);
  std::vector<std::size_t> prev(n), next(n);
  std::vector<bool> alive(n, true);
  for (std::size_t i = 0; i < n; ++i) {
    ids[i] = m_byteTokens[static_cast<unsigned char>(word[i])];
    prev[i] = i == 0 ? kNone : i - 1;
    next[i] = i + 1 == n ? kNone : i + 1;
  }
  struct Candidate {
    std::int32_t rank;
    std::size_t left;
    std::size_t right;
    TokenId leftId;
    TokenId rightId;
    TokenId merged;
    bool operator>(const Candidate& other) const {
      return rank != other.rank ? rank > other.rank : left > other.left;
    }
  };
  std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> queue;
  auto consider = [&](std::size_t left) {
    const std::size_t right = next[left];
    if (right == kNone) return;
    if (const Slot* slot = find(ids[left], ids[right])) {
      queue.push(Candidate{slot->rank, left, right, ids[left], ids[right], slot->merged});
    }
  };
  for (std::size_t i = 0; i + 1 < n; ++i)
    consider(i);
  while (!queue.empty()) {
    const Candidate c = queue.top();
    queue.pop();
    // Skip candidates that earlier merges made stale.
    if (!alive[c.left] || !alive[c.right] || next[c.left] != c.right || ids[c.left] != c.leftId ||
        ids[c.right] != c.rightId) {
      continue;
    }
    ids[c.left] = c.merged;
    alive[c.right] = false;
    next[c.left] = next[c.right];
    if (next[c.left] != kNone) prev[next[c.left]] = c.left;
    if (prev[c.left] != kNone) consider(prev[c.left]);
    consider(c.left);
  }
  for (std::size_t i = 0; i != kNone; i = next[i])
    out.push_back(ids[i]);
}

}  // namespace ayar
