#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/tokenizer/tokenizer.h"

namespace ayar {

// The BPE merges of a byte-level vocabulary, applied to raw bytes: a word starts as one token per
// byte and the adjacent pair with the lowest merge rank is merged (the leftmost among equal ranks)
// until no pair has a merge, as Hugging Face tokenizers' BPE model does.
class BytePairEncoder {
 public:
  // `byteTokens[b]` is the id of the one-byte token for byte b.
  explicit BytePairEncoder(const std::array<TokenId, 256>& byteTokens, std::size_t mergeCount);

  // Adds the merge (left, right) -> merged with the given rank; a later merge of the same pair
  // replaces an earlier one (as tokenizers and transformers.js do when reading the list).
  void addMerge(TokenId left, TokenId right, TokenId merged, std::int32_t rank);

  // The rank of the merge of (left, right), or -1 when the pair does not merge.
  std::int32_t rank(TokenId left, TokenId right) const;

  // Appends the tokens of `word` (raw bytes, non-empty) to `out`.
  void encode(std::string_view word, std::vector<TokenId>& out) const;

 private:
  struct Slot {
    std::uint64_t key;  // left << 32 | right; kEmpty when unused
    std::int32_t rank;
    TokenId merged;
  };
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};

  const Slot* find(TokenId left, TokenId right) const;
  void encodeShort(std::string_view word, std::vector<TokenId>& out) const;
  void encodeLong(std::string_view word, std::vector<TokenId>& out) const;

  std::array<TokenId, 256> m_byteTokens;
  std::vector<Slot> m_slots;  // open addressing, linear probing, power-of-two size
  std::uint64_t m_mask = 0;
};

}  // namespace ayar
