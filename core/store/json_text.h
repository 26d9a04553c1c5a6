#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace ayar {

// JSON as the store keeps it: compact text, invalid UTF-8 replaced (never a throw mid-commit).
inline std::string toJsonText(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Stored text back to JSON; text that is not JSON (the file was edited by hand) reads as null rather
// than failing a whole listing.
inline nlohmann::json fromJsonText(std::string_view text) {
  if (text.empty()) return nullptr;
  nlohmann::json value = nlohmann::json::parse(text, nullptr, false);
  return value.is_discarded() ? nlohmann::json(nullptr) : value;
}

}  // namespace ayar
