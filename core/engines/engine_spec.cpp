#include "core/engines/engine_spec.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <nlohmann/json.hpp>

#include "core/engines/engine_catalogue.h"
#include "core/error.h"
#include "core/report/json_type_name.h"
#include "core/report/message_text.h"

namespace ayar {

namespace {

using nlohmann::json;

// Where in a spec an error is, in each language ("engine spec", "motor tanımı").
MessageArgument specContext() {
  return Message{MessageText::SpecContext, {}}.asArgument();
}

std::string requireString(const json& object, const char* key, const MessageArgument& context) {
  const json& value = object.at(key);
  if (!value.is_string())
    throw MessageError({MessageText::SpecNotString, {context, key, jsonTypeName(value)}});
  return value.get<std::string>();
}

std::string optionalString(const json& object, const char* key, const MessageArgument& context,
                           std::string fallback) {
  if (!object.contains(key) || object.at(key).is_null()) return fallback;
  return requireString(object, key, context);
}

// Flag values may be written as JSON numbers or booleans in hand-made files; they are kept as text.
std::string scalarAsText(const json& value, const MessageArgument& context) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  if (value.is_number_integer()) return std::to_string(value.get<long long>());
  if (value.is_number()) return value.dump();
  throw MessageError({MessageText::SpecNotScalar, {context, jsonTypeName(value)}});
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
  throw MessageError({MessageText::SpecKindUnknown, {specContext(), std::string(text)}});
}

std::string EngineSpec::resolveApiKey() const {
  if (!apiKey.empty()) return apiKey;
  if (apiKeyEnv.empty()) return {};
  const char* value = std::getenv(apiKeyEnv.c_str());
  if (value == nullptr || *value == '\0') {
    throw MessageError({MessageText::SpecApiKeyUnset, {apiKeyEnv}});
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
  const MessageArgument context = specContext();
  if (kind == EngineKind::Remote) {
    const std::string url = normalizedBaseUrl();
    if (url.empty()) {
      throw MessageError({MessageText::SpecRemoteNeedsUrl, {context}});
    }
    if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0) {
      throw MessageError({MessageText::SpecBaseUrlScheme, {context, baseUrl}});
    }
  } else {
    if (model.empty()) throw MessageError({MessageText::SpecModelEmpty, {context}});
    if (engine.empty()) throw MessageError({MessageText::SpecEngineEmpty, {context}});
    if (host.empty()) throw MessageError({MessageText::SpecHostEmpty, {context}});
  }
  if (port && (*port < 1 || *port > 65535)) {
    throw MessageError({MessageText::SpecPortRangeFree, {context, std::to_string(*port)}});
  }
  for (const auto& flag : flags) {
    if (flag.name.empty()) throw MessageError({MessageText::SpecFlagNameEmpty, {context}});
    if (!flag.raw && flag.name.front() != '-') {
      throw MessageError({MessageText::SpecFlagDash, {context, flag.name}});
    }
    if (flag.raw && flag.value) {
      throw MessageError({MessageText::SpecRawWithValue, {context, flag.name}});
    }
  }
  for (const auto& [name, value] : environment) {
    if (name.empty() || name.find('=') != std::string::npos) {
      throw MessageError({MessageText::SpecEnvironmentName, {context, name}});
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
  const MessageArgument context = Message{MessageText::SpecFlagContext, {json.dump()}}.asArgument();
  if (json.is_string()) {
    // A bare string is a switch or a raw argument, as it would be typed.
    flag = EngineFlag::toggle(json.get<std::string>());
    return;
  }
  if (!json.is_object()) throw MessageError({MessageText::SpecFlagShape, {context}});
  for (const auto& [key, value] : json.items()) {
    if (key != "name" && key != "value" && key != "raw") {
      throw MessageError({MessageText::SpecFlagUnknownKey, {context, key}});
    }
  }
  if (json.contains("raw")) {
    if (json.contains("name") || json.contains("value"))
      throw MessageError({MessageText::SpecRawAlone, {context}});
    flag = EngineFlag::rawArgument(requireString(json, "raw", context));
    return;
  }
  if (!json.contains("name")) throw MessageError({MessageText::SpecFlagNoName, {context}});
  flag.name = requireString(json, "name", context);
  flag.raw = false;
  flag.value.reset();
  if (json.contains("value") && !json.at("value").is_null()) {
    flag.value =
        scalarAsText(json.at("value"), Message{MessageText::SpecFlagValueContext, {context}}.asArgument());
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
  const MessageArgument context = specContext();
  if (!json.is_object()) throw MessageError({MessageText::SpecNotObject, {context, jsonTypeName(json)}});
  if (json.contains("api_key") || json.contains("apiKey"))
    throw MessageError({MessageText::SpecApiKeyInFile, {context}});
  static const char* const known[] = {"kind",       "engine",      "model",    "served_model_name",
                                      "device",     "host",        "port",     "flags",
                                      "executable", "environment", "base_url", "api_key_env"};
  for (const auto& [key, value] : json.items()) {
    if (std::find(std::begin(known), std::end(known), key) == std::end(known)) {
      throw MessageError({MessageText::SpecFieldUnknown, {context, key}});
    }
  }
  EngineSpec result;
  result.kind = engineKindFromString(optionalString(json, "kind", context, "bundled"));
  if (result.kind == EngineKind::External && !json.contains("engine")) {
    throw MessageError({MessageText::SpecExternalNeedsEngine, {context}});
  }
  result.engine = optionalString(json, "engine", context, "ayar");
  if (result.kind == EngineKind::Bundled && result.engine != "ayar") {
    throw MessageError({MessageText::SpecBundledIsAyar, {context, result.engine}});
  }
  result.model = optionalString(json, "model", context, "");
  result.servedModelName = optionalString(json, "served_model_name", context, "");
  result.device = optionalString(json, "device", context, "auto");
  result.host = optionalString(json, "host", context, "127.0.0.1");
  if (json.contains("port") && !json.at("port").is_null()) {
    const auto& port = json.at("port");
    if (!port.is_number_integer()) {
      throw MessageError({MessageText::SpecPortNotInteger, {context, port.dump()}});
    }
    const long long value = port.get<long long>();
    if (value < 1 || value > 65535) {
      throw MessageError({MessageText::SpecPortRange, {context, std::to_string(value)}});
    }
    result.port = static_cast<int>(value);
  }
  if (json.contains("flags") && !json.at("flags").is_null()) {
    const auto& flags = json.at("flags");
    if (!flags.is_array())
      throw MessageError({MessageText::SpecFlagsNotList, {context, jsonTypeName(flags)}});
    for (const auto& item : flags)
      result.flags.push_back(item.get<EngineFlag>());
  }
  result.executable = optionalString(json, "executable", context, "");
  if (json.contains("environment") && !json.at("environment").is_null()) {
    const auto& environment = json.at("environment");
    if (environment.is_object()) {
      for (const auto& [name, value] : environment.items()) {
        result.environment.emplace_back(
            name,
            scalarAsText(value,
                         Message{MessageText::SpecEnvironmentVariableContext, {context, name}}.asArgument()));
      }
    } else if (environment.is_array()) {
      for (const auto& item : environment) {
        if (!item.is_object() || !item.contains("name")) {
          throw MessageError({MessageText::SpecEnvironmentEntryShape, {context}});
        }
        const std::string name =
            requireString(item, "name", Message{MessageText::SpecEnvironmentContext, {}}.asArgument());
        const std::string value =
            item.contains("value")
                ? scalarAsText(
                      item.at("value"),
                      Message{MessageText::SpecEnvironmentVariableContext, {context, name}}.asArgument())
                : "";
        result.environment.emplace_back(name, value);
      }
    } else {
      throw MessageError({MessageText::SpecEnvironmentShape, {context}});
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
