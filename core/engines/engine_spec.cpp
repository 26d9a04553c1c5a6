#include "core/engines/engine_spec.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <nlohmann/json.hpp>

#include "core/engines/engine_catalogue.h"
#include "core/error.h"

namespace ayar {

namespace {

using nlohmann::json;

const char* const kSpecContext = "engine spec";

std::string jsonTypeName(const json& value) {
  return value.type_name();
}

std::string requireString(const json& object, const char* key, const std::string& context) {
  const json& value = object.at(key);
  if (!value.is_string()) {
    throw Error(context + ": \"" + key + "\" must be a string, not " + jsonTypeName(value) + ".");
  }
  return value.get<std::string>();
}

std::string optionalString(const json& object, const char* key, const std::string& context,
                           std::string fallback) {
  if (!object.contains(key) || object.at(key).is_null()) return fallback;
  return requireString(object, key, context);
}

// Flag values may be written as JSON numbers or booleans in hand-made files; they are kept as text.
std::string scalarAsText(const json& value, const std::string& context) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  if (value.is_number_integer()) return std::to_string(value.get<long long>());
  if (value.is_number()) return value.dump();
  throw Error(context + " must be a string, a number or true/false, not " + jsonTypeName(value) + ".");
}

bool needsQuoting(std::string_view text) {
  if (text.empty()) return true;
  for (const char c : text) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       std::string_view("-_./:=,+@%").find(c) != std::string_view::npos;
    if (!plain) return true;
  }
  return false;
}

std::string expandPlaceholders(const std::string& text, const EngineSpec& spec, int port,
                               const std::string& apiKey, bool& anyEmpty) {
  std::string result;
  std::size_t position = 0;
  while (position < text.size()) {
    const std::size_t open = text.find('{', position);
    if (open == std::string::npos) {
      result += text.substr(position);
      break;
    }
    const std::size_t close = text.find('}', open);
    // The catalogue loader rejects unknown and unclosed placeholders, so this is a template built
    // in code with a mistake in it.
    if (close == std::string::npos) throw Error("engine template: unclosed placeholder in \"" + text + "\".");
    result += text.substr(position, open - position);
    const std::string name = text.substr(open + 1, close - open - 1);
    std::string value;
    if (name == "model") {
      value = spec.model;
    } else if (name == "host") {
      value = spec.host;
    } else if (name == "port") {
      value = std::to_string(port);
    } else if (name == "served_model_name") {
      value = spec.servedModelName;
    } else if (name == "device") {
      value = spec.device;
    } else if (name == "api_key") {
      value = apiKey;
    } else {
      throw Error("engine template: unknown placeholder {" + name + "} in \"" + text + "\".");
    }
    if (value.empty()) anyEmpty = true;
    result += value;
    position = close + 1;
  }
  return result;
}

bool isTrueWord(const std::string& text) {
  return text == "true" || text == "1" || text == "yes" || text == "on";
}
bool isFalseWord(const std::string& text) {
  return text == "false" || text == "0" || text == "no" || text == "off";
}

}  // namespace

EngineFlag EngineFlag::fromArgument(const std::string& argument) {
  if (argument.rfind("--", 0) == 0) {
    const auto eq = argument.find('=');
    if (eq != std::string::npos) return option(argument.substr(0, eq), argument.substr(eq + 1));
    return toggle(argument);
  }
  return rawArgument(argument);
}

bool runsOnThisMachine(const EngineSpec& spec) {
  if (spec.kind != EngineKind::Remote) return true;
  std::string_view host = spec.baseUrl;
  if (const auto scheme = host.find("://"); scheme != std::string_view::npos) host.remove_prefix(scheme + 3);
  host = host.substr(0, host.find('/'));
  if (host.starts_with('[')) {
    host = host.substr(1, host.find(']') - 1);  // [::1]:8000
  } else {
    host = host.substr(0, host.find(':'));
  }
  return host == "localhost" || host == "::1" || host.starts_with("127.");
}

std::string_view toString(EngineKind kind) {
  switch (kind) {
    case EngineKind::Bundled:
      return "bundled";
    case EngineKind::External:
      return "external";
    case EngineKind::Remote:
      return "remote";
  }
  return "bundled";
}

EngineKind engineKindFromString(std::string_view text) {
  if (text == "bundled") return EngineKind::Bundled;
  if (text == "external") return EngineKind::External;
  if (text == "remote") return EngineKind::Remote;
  throw Error(std::string(kSpecContext) + ": \"kind\" is \"" + std::string(text) +
              "\"; use \"bundled\", \"external\" or \"remote\".");
}

std::string EngineSpec::resolveApiKey() const {
  if (!apiKey.empty()) return apiKey;
  if (apiKeyEnv.empty()) return {};
  const char* value = std::getenv(apiKeyEnv.c_str());
  if (value == nullptr || *value == '\0') {
    throw Error("The API key variable " + apiKeyEnv + " (engine spec \"api_key_env\") is not set. Export " +
                apiKeyEnv + " with the key, or clear \"api_key_env\".");
  }
  return value;
}

std::string EngineSpec::normalizedBaseUrl() const {
  std::string url = baseUrl;
  while (!url.empty() && url.back() == '/')
    url.pop_back();
  if (url.size() >= 3 && url.compare(url.size() - 3, 3, "/v1") == 0) url.resize(url.size() - 3);
  while (!url.empty() && url.back() == '/')
    url.pop_back();
  return url;
}

void EngineSpec::validate() const {
  const std::string context = kSpecContext;
  if (kind == EngineKind::Remote) {
    const std::string url = normalizedBaseUrl();
    if (url.empty()) {
      throw Error(context + ": a remote endpoint needs \"base_url\" (e.g. http://gpu-box:8000).");
    }
    if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0) {
      throw Error(context + ": \"base_url\" is \"" + baseUrl + "\"; it must start with http:// or https://.");
    }
  } else {
    if (model.empty()) throw Error(context + ": \"model\" is empty; name a model preset, id or folder.");
    if (engine.empty()) throw Error(context + ": \"engine\" is empty; name an engine template (e.g. vllm).");
    if (host.empty()) throw Error(context + ": \"host\" is empty; use 127.0.0.1 unless told otherwise.");
  }
  if (port && (*port < 1 || *port > 65535)) {
    throw Error(context + ": \"port\" is " + std::to_string(*port) +
                "; use 1-65535, or leave it out to pick a free one.");
  }
  for (const auto& flag : flags) {
    if (flag.name.empty()) throw Error(context + ": a flag has an empty name.");
    if (!flag.raw && flag.name.front() != '-') {
      throw Error(context + ": flag \"" + flag.name + "\" must start with a dash (write \"--" + flag.name +
                  "\"), or be marked raw.");
    }
    if (flag.raw && flag.value) {
      throw Error(context + ": raw argument \"" + flag.name + "\" cannot have a separate value.");
    }
  }
  for (const auto& [name, value] : environment) {
    if (name.empty() || name.find('=') != std::string::npos) {
      throw Error(context + ": environment variable name \"" + name + "\" is not valid.");
    }
  }
}

void to_json(nlohmann::json& json, const EngineFlag& flag) {
  json = nlohmann::json::object();
  if (flag.raw) {
    json["raw"] = flag.name;
    return;
  }
  json["name"] = flag.name;
  if (flag.value) json["value"] = *flag.value;
}

void from_json(const nlohmann::json& json, EngineFlag& flag) {
  const std::string context = std::string(kSpecContext) + ": flag " + json.dump();
  if (json.is_string()) {
    // A bare string is a switch or a raw argument, as it would be typed.
    flag = EngineFlag::toggle(json.get<std::string>());
    return;
  }
  if (!json.is_object())
    throw Error(context + " must be an object like {\"name\": \"--max-num-seqs\", \"value\": 64}.");
  for (const auto& [key, value] : json.items()) {
    if (key != "name" && key != "value" && key != "raw") {
      throw Error(context + ": unknown key \"" + key + "\" (use name, value or raw).");
    }
  }
  if (json.contains("raw")) {
    if (json.contains("name") || json.contains("value")) throw Error(context + ": \"raw\" stands alone.");
    flag = EngineFlag::rawArgument(requireString(json, "raw", context));
    return;
  }
  if (!json.contains("name")) throw Error(context + " has no \"name\".");
  flag.name = requireString(json, "name", context);
  flag.raw = false;
  flag.value.reset();
  if (json.contains("value") && !json.at("value").is_null()) {
    flag.value = scalarAsText(json.at("value"), context + ": \"value\"");
  }
}

void to_json(nlohmann::json& json, const EngineSpec& spec) {
  json = nlohmann::json::object();
  json["kind"] = std::string(toString(spec.kind));
  json["engine"] = spec.engine;
  json["model"] = spec.model;
  if (!spec.servedModelName.empty()) json["served_model_name"] = spec.servedModelName;
  json["device"] = spec.device;
  json["host"] = spec.host;
  if (spec.port) json["port"] = *spec.port;
  json["flags"] = spec.flags;
  if (!spec.executable.empty()) json["executable"] = spec.executable;
  if (!spec.environment.empty()) {
    auto environment = nlohmann::json::array();
    for (const auto& [name, value] : spec.environment)
      environment.push_back({{"name", name}, {"value", value}});
    json["environment"] = environment;
  }
  if (!spec.baseUrl.empty()) json["base_url"] = spec.baseUrl;
  if (!spec.apiKeyEnv.empty()) json["api_key_env"] = spec.apiKeyEnv;
  // spec.apiKey is deliberately not written.
}

void from_json(const nlohmann::json& json, EngineSpec& spec) {
  const std::string context = kSpecContext;
  if (!json.is_object()) throw Error(context + " must be a JSON object, not " + jsonTypeName(json) + ".");
  if (json.contains("api_key") || json.contains("apiKey")) {
    throw Error(context +
                ": \"api_key\" is not read from files, so that keys stay out of saved runs. Put the "
                "key in an environment variable and name it in \"api_key_env\".");
  }
  static const char* const known[] = {"kind",       "engine",      "model",    "served_model_name",
                                      "device",     "host",        "port",     "flags",
                                      "executable", "environment", "base_url", "api_key_env"};
  for (const auto& [key, value] : json.items()) {
    if (std::find(std::begin(known), std::end(known), key) == std::end(known)) {
      throw Error(context + ": unknown field \"" + key + "\".");
    }
  }
  EngineSpec result;
  result.kind = engineKindFromString(optionalString(json, "kind", context, "bundled"));
  if (result.kind == EngineKind::External && !json.contains("engine")) {
    throw Error(context +
                ": an external engine needs \"engine\", the template to start (vllm, sglang, "
                "tensorrt-llm).");
  }
  result.engine = optionalString(json, "engine", context, "ayar");
  if (result.kind == EngineKind::Bundled && result.engine != "ayar") {
    throw Error(context + ": a bundled engine is \"ayar\", not \"" + result.engine +
                "\"; use \"kind\": \"external\" for other engines.");
  }
  result.model = optionalString(json, "model", context, "");
  result.servedModelName = optionalString(json, "served_model_name", context, "");
  result.device = optionalString(json, "device", context, "auto");
  result.host = optionalString(json, "host", context, "127.0.0.1");
  if (json.contains("port") && !json.at("port").is_null()) {
    const auto& port = json.at("port");
    if (!port.is_number_integer()) {
      throw Error(context + ": \"port\" must be an integer 1-65535, not " + port.dump() + ".");
    }
    const long long value = port.get<long long>();
    if (value < 1 || value > 65535) {
      throw Error(context + ": \"port\" is " + std::to_string(value) + "; use 1-65535, or leave it out.");
    }
    result.port = static_cast<int>(value);
  }
  if (json.contains("flags") && !json.at("flags").is_null()) {
    const auto& flags = json.at("flags");
    if (!flags.is_array())
      throw Error(context + ": \"flags\" must be a list, not " + jsonTypeName(flags) + ".");
    for (const auto& item : flags)
      result.flags.push_back(item.get<EngineFlag>());
  }
  result.executable = optionalString(json, "executable", context, "");
  if (json.contains("environment") && !json.at("environment").is_null()) {
    const auto& environment = json.at("environment");
    if (environment.is_object()) {
      for (const auto& [name, value] : environment.items()) {
        result.environment.emplace_back(name,
                                        scalarAsText(value, context + ": environment \"" + name + "\""));
      }
    } else if (environment.is_array()) {
      for (const auto& item : environment) {
        if (!item.is_object() || !item.contains("name")) {
          throw Error(context + ": each \"environment\" entry must be {\"name\": ..., \"value\": ...}.");
        }
        const std::string name = requireString(item, "name", context + ": environment entry");
        const std::string value =
            item.contains("value")
                ? scalarAsText(item.at("value"), context + ": environment \"" + name + "\"")
                : "";
        result.environment.emplace_back(name, value);
      }
    } else {
      throw Error(context + ": \"environment\" must be a list of {\"name\", \"value\"}.");
    }
  }
  result.baseUrl = optionalString(json, "base_url", context, "");
  result.apiKeyEnv = optionalString(json, "api_key_env", context, "");
  result.validate();
  spec = std::move(result);
}

std::vector<std::string> engineCommandLine(const EngineSpec& spec, const EngineTemplate& engineTemplate,
                                           int port, const std::string& executable) {
  if (spec.kind == EngineKind::Remote) {
    throw Error("engine spec: a remote endpoint is not started, so it has no command line.");
  }
  std::vector<std::string> args;
  if (!executable.empty()) {
    args.push_back(executable);
  } else if (!spec.executable.empty()) {
    args.push_back(spec.executable);
  } else {
    args.push_back(engineTemplate.executable);
  }
  const std::string apiKey = spec.resolveApiKey();
  for (const auto& group : engineTemplate.arguments) {
    bool anyEmpty = false;
    std::vector<std::string> expanded;
    for (const auto& argument : group.arguments)
      expanded.push_back(expandPlaceholders(argument, spec, port, apiKey, anyEmpty));
    if (anyEmpty && group.optional) continue;
    args.insert(args.end(), expanded.begin(), expanded.end());
  }
  for (const auto& flag : spec.flags) {
    if (flag.raw) {
      args.push_back(flag.name);
      continue;
    }
    const FlagSpec* known = engineTemplate.findFlag(flag.name);
    if (known != nullptr && known->type == FlagType::Bool && flag.value &&
        (isTrueWord(*flag.value) || isFalseWord(*flag.value))) {
      const bool negated = flag.name == known->falseFlag;
      const bool on = isTrueWord(*flag.value) != negated;
      if (on) {
        args.push_back(negated ? known->name : flag.name);
      } else if (!known->falseFlag.empty()) {
        // Off is the negation where the engine has one, else the flag's absence.
        args.push_back(known->falseFlag);
      }
      continue;
    }
    args.push_back(flag.name);
    if (flag.value) args.push_back(*flag.value);
  }
  return args;
}

std::string shellQuote(std::string_view argument) {
  if (!needsQuoting(argument)) return std::string(argument);
  std::string quoted = "'";
  for (const char c : argument) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  quoted += '\'';
  return quoted;
}

std::string displayCommandLine(const std::vector<std::string>& args,
                               const std::vector<std::string>& secrets) {
  std::string line;
  for (const auto& argument : args) {
    if (!line.empty()) line += ' ';
    const bool secret =
        !argument.empty() && std::find(secrets.begin(), secrets.end(), argument) != secrets.end();
    line += secret ? "'***'" : shellQuote(argument);
  }
  return line;
}

std::string flagListText(const std::vector<EngineFlag>& flags) {
  std::string line;
  for (const EngineFlag& flag : flags) {
    if (!line.empty()) line += ' ';
    line += flag.name + (flag.value ? "=" + *flag.value : std::string());
  }
  return line;
}

std::string servingCommandLine(const EngineSpec& spec, const EngineCatalogue& catalogue) {
  if (spec.kind == EngineKind::Remote) return spec.normalizedBaseUrl();
  const EngineTemplate* found = catalogue.find(spec.engine);
  if (!found) return spec.engine + " " + spec.model;
  EngineSpec keyless = spec;  // a template's --api-key group (sglang) is left out
  keyless.apiKey.clear();
  keyless.apiKeyEnv.clear();
  const std::vector<std::string> args = engineCommandLine(keyless, *found, 8000);
  std::vector<std::string> kept;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if ((args[i] == "--host" || args[i] == "--port") && i + 1 < args.size()) {
      ++i;
      continue;
    }
    kept.push_back(i == 0 ? std::filesystem::path(args[i]).filename().string() : args[i]);
  }
  return displayCommandLine(kept);
}

}  // namespace ayar
