#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

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

// A string with the same treatment: URL credentials ("https://user:pass@host") and flags.
std::string scrubSecretsInText(std::string_view text);

}  // namespace ayar
