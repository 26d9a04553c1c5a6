#include "core/tokenizer/token_index.h"

#include <bit>

namespace ayar {

std::uint32_t TokenIndex::hashOf(std::string_view key) {
  // FNV-1a: keys are short (a few bytes), where it is as good as anything and trivially portable.
  std::uint32_t hash = 2166136261u;
  for (char c : key) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 16777619u;
  }
  return hash;
}

void TokenIndex::reserve(std::size_t entries, std::size_t keyBytes) {
  m_keys.reserve(keyBytes);
  if (entries * 2 > m_slots.size()) rehash(std::bit_ceil(entries * 2));
}

std::size_t TokenIndex::slotFor(std::string_view key, std::uint32_t hash) const {
  const std::size_t mask = m_slots.size() - 1;
  for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
    const Slot& slot = m_slots[i];
    if (slot.id < 0) return i;
    if (slot.hash == hash && std::string_view(m_keys).substr(slot.offset, slot.length) == key) return i;
  }
}

void TokenIndex::insertOrAssign(std::string_view key, TokenId id) {
  if ((m_count + 1) * 2 > m_slots.size()) rehash(std::max<std::size_t>(16, m_slots.size() * 2));
  const std::uint32_t hash = hashOf(key);
  Slot& slot = m_slots[slotFor(key, hash)];
  if (slot.id < 0) {
    slot.hash = hash;
    slot.offset = static_cast<std::uint32_t>(m_keys.size());
    slot.length = static_cast<std::uint32_t>(key.size());
    m_keys.append(key);
    ++m_count;
  }
  slot.id = id;
}

std::optional<TokenId> TokenIndex::find(std::string_view key) const {
  if (m_slots.empty()) return std::nullopt;
  const Slot& slot = m_slots[slotFor(key, hashOf(key))];
  if (slot.id < 0) return std::nullopt;
  return slot.id;
}

void TokenIndex::rehash(std::size_t slotCount) {
  std::vector<Slot> old = std::move(m_slots);
  m_slots.assign(slotCount, Slot{});
  const std::size_t mask = slotCount - 1;
  for (const Slot& slot : old) {
    if (slot.id < 0) continue;
    std::size_t i = slot.hash & mask;
    while (m_slots[i].id >= 0)
      i = (i + 1) & mask;
    m_slots[i] = slot;
  }
}

}  // namespace ayar
