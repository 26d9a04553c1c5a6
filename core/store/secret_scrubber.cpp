#include "core/store/secret_scrubber.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace ayar {

namespace {

// Lower case, without leading dashes, with '-' as '_', and camelCase split: "--apiKey" -> "api_key".
std::string normaliseName(std::string_view name) {
  while (!name.empty() && name.front() == '-')
    name.remove_prefix(1);
  std::string out;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(name[i]);
    if (std::isupper(c) && i > 0 && std::islower(static_cast<unsigned char>(name[i - 1]))) out += '_';
    out += c == '-' ? '_' : static_cast<char>(std::tolower(c));
  }
  return out;
}

bool endsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

bool isSpace(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}

// The flag part of "--api-key=value", or the whole word.
std::string_view flagName(std::string_view word) {
  const auto equals = word.find('=');
  return equals == std::string_view::npos ? word : word.substr(0, equals);
}

bool isSecretFlag(std::string_view word) {
  return word.size() > 2 && word.starts_with("-") && isSecretName(flagName(word));
}

// "scheme://user:pass@host/..." -> "scheme://[redacted]@host/..."; other text unchanged.
std::string scrubUrlCredentials(std::string text) {
  std::size_t from = 0;
  while (true) {
    const auto scheme = text.find("://", from);
    if (scheme == std::string::npos) break;
    const std::size_t hostStart = scheme + 3;
    const std::size_t hostEnd = text.find_first_of("/?# \t\n\"'", hostStart);
    const std::size_t authorityEnd = hostEnd == std::string::npos ? text.size() : hostEnd;
    const auto at = text.rfind('@', authorityEnd);
    if (at != std::string::npos && at >= hostStart && at < authorityEnd) {
      text.replace(hostStart, at - hostStart, kRedacted);
      from = hostStart + kRedacted.size() + 1;
    } else {
      from = hostStart;
    }
  }
  return text;
}

}  // namespace

bool isSecretName(std::string_view name) {
  const std::string n = normaliseName(name);
  // Not every "*_token": eos_token and bos_token are tokenizer settings, not credentials.
  static constexpr std::array<std::string_view, 15> kExact{"api_key",
                                                           "apikey",
                                                           "x_api_key",
                                                           "authorization",
                                                           "proxy_authorization",
                                                           "token",
                                                           "access_token",
                                                           "auth_token",
                                                           "api_token",
                                                           "bearer_token",
                                                           "hf_token",
                                                           "hugging_face_hub_token",
                                                           "password",
                                                           "secret",
                                                           "client_secret"};
  if (std::find(kExact.begin(), kExact.end(), n) != kExact.end()) return true;
  return endsWith(n, "_api_key") || endsWith(n, "_apikey") || endsWith(n, "_password") ||
         endsWith(n, "_secret");
}

std::string scrubSecretsInText(std::string_view input) {
  std::string text = scrubUrlCredentials(std::string(input));
  // Word by word: a secret flag's value (after '=' or as the next word) and a bearer token go.
  std::string out;
  out.reserve(text.size());
  bool redactNext = false;
  std::size_t i = 0;
  while (i < text.size()) {
    if (isSpace(text[i])) {
      out += text[i++];
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && !isSpace(text[end]))
      ++end;
    std::string_view word(text.data() + i, end - i);
    if (redactNext) {
      out += kRedacted;
      redactNext = false;
    } else if (isSecretFlag(word) && word.find('=') != std::string_view::npos) {
      out += flagName(word);
      out += '=';
      out += kRedacted;
    } else {
      out += word;
      redactNext = isSecretFlag(word) || word == "Bearer" || word == "bearer";
    }
    i = end;
  }
  return out;
}

nlohmann::json scrubSecrets(const nlohmann::json& value) {
  if (value.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, item] : value.items()) {
      const bool secret =
          isSecretName(key) && !item.is_null() && !(item.is_string() && item.empty()) && !item.is_boolean();
      out[key] = secret ? nlohmann::json(kRedacted) : scrubSecrets(item);
    }
    return out;
  }
  if (value.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    bool redactNext = false;
    for (const auto& item : value) {
      if (redactNext && (item.is_string() || item.is_number())) {
        out.push_back(kRedacted);
        redactNext = false;
        continue;
      }
      redactNext = false;
      if (item.is_string()) {
        const std::string& word = item.get_ref<const std::string&>();
        redactNext = (isSecretFlag(word) && word.find('=') == std::string::npos) || word == "Bearer";
      }
      out.push_back(scrubSecrets(item));
    }
    return out;
  }
  if (value.is_string()) return scrubSecretsInText(value.get_ref<const std::string&>());
  return value;
}

}  // namespace ayar
