#include "core/store/secret_scrubber.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

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

}  // namespace

std::string redactUrlCredentials(std::string text) {
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

std::vector<std::pair<std::string, std::string>> redactSecretValues(
    std::vector<std::pair<std::string, std::string>> pairs) {
  for (auto& [key, value] : pairs) {
    if (isSecretName(key) && !value.empty()) value = std::string(kRedacted);
  }
  return pairs;
}

std::string scrubSecretsInText(std::string_view input) {
  std::string text = redactUrlCredentials(std::string(input));
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
  // Without recursion, so that no nesting of a value (an imported file's, say) can exhaust the stack:
  // each step copies one object or array one level deep and queues its members.
  struct Step {
    const nlohmann::json* from;
    nlohmann::json* to;
  };
  nlohmann::json out;
  std::vector<Step> pending{{&value, &out}};
  while (!pending.empty()) {
    const Step step = pending.back();
    pending.pop_back();
    const nlohmann::json& from = *step.from;
    nlohmann::json& to = *step.to;
    if (from.is_object()) {
      to = nlohmann::json::object();
      for (const auto& [key, item] : from.items()) {
        const bool secret =
            isSecretName(key) && !item.is_null() && !(item.is_string() && item.empty()) && !item.is_boolean();
        nlohmann::json& slot = to[key];  // a map: later insertions leave it where it is
        if (secret) {
          slot = kRedacted;
        } else {
          pending.push_back({&item, &slot});
        }
      }
    } else if (from.is_array()) {
      // Sized once, so that the members' places stay put while they are filled.
      to = nlohmann::json::array();
      auto& items = to.get_ref<nlohmann::json::array_t&>();
      items.resize(from.size());
      bool redactNext = false;
      for (std::size_t i = 0; i < from.size(); ++i) {
        const nlohmann::json& item = from[i];
        if (redactNext && (item.is_string() || item.is_number())) {
          items[i] = kRedacted;
          redactNext = false;
          continue;
        }
        redactNext = false;
        if (item.is_string()) {
          const std::string& word = item.get_ref<const std::string&>();
          redactNext = (isSecretFlag(word) && word.find('=') == std::string::npos) || word == "Bearer";
        }
        pending.push_back({&item, &items[i]});
      }
    } else if (from.is_string()) {
      to = scrubSecretsInText(from.get_ref<const std::string&>());
    } else {
      to = from;
    }
  }
  return out;
}

}  // namespace ayar
