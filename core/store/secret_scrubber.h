#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ayar {

// What replaces a secret in anything the store writes.
inline constexpr std::string_view kRedacted = "[redacted]";

// True for names that hold credentials, however spelled: "api_key", "--api-key", "apiKey",
// "OPENAI_API_KEY", "x-api-key", "Authorization", "hf_token", "password", ... (not "eos_token")
bool isSecretName(std::string_view name);

// A copy of `value` with every secret replaced by kRedacted: values under secret keys, the word
// after a secret flag in an argument list (["--api-key", "sk-..."]) or in a command line string
// ("--api-key sk-...", "--api-key=sk-..."), bearer tokens, and credentials inside URLs.
// The store never writes an API key, so results can be shared as they are.
nlohmann::json scrubSecrets(const nlohmann::json& value);

// Every URL in `text` with its userinfo (the "user:password@" before the host, which holds a key
// when a key is given that way) replaced: "https://user:sk-1@host/v1" -> "https://[redacted]@host/v1".
// For every place a URL is shown or stored; the URL with its credentials is only ever sent.
std::string redactUrlCredentials(std::string text);

// KEY=VALUE pairs (--metadata) with the value of every key named like a secret replaced by kRedacted.
std::vector<std::pair<std::string, std::string>> redactSecretValues(
    std::vector<std::pair<std::string, std::string>> pairs);

// A string with the same treatment: URL credentials ("https://user:pass@host") and flags.
std::string scrubSecretsInText(std::string_view text);

}  // namespace ayar
