#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/tokenizer/tokenizer.h"

namespace ayar {

// String -> token id, for the vocabulary's 150k entries: open addressing over one buffer of keys,
// which builds several times faster than std::unordered_map<std::string, ...> and looks up with
// fewer cache misses.
class TokenIndex {
 public:
  void reserve(std::size_t entries, std::size_t keyBytes);
  // Adds `key`, or gives it the new id when it is already there.
  void insertOrAssign(std::string_view key, TokenId id);
  std::optional<TokenId> find(std::string_view key) const;
  std::size_t size() const { return m_count; }

 private:
  struct Slot {
    std::uint32_t hash = 0;
    TokenId id = -1;  // -1: empty
    std::uint32_t offset = 0;
    std::uint32_t length = 0;
  };
  static std::uint32_t hashOf(std::string_view key);
  std::size_t slotFor(std::string_view key, std::uint32_t hash) const;
  void rehash(std::size_t slotCount);

  std::vector<Slot> m_slots;  // power-of-two size, at most half full
  std::string m_keys;
  std::size_t m_count = 0;
};

}  // namespace ayar
