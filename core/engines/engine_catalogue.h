#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/engines/engine_spec.h"
#include "core/report/message_text.h"

namespace ayar {

enum class FlagType { Bool, Int, Float, String, Choice, Json };

// "bool", "int", "float", "string", "choice", "json".
std::string_view toString(FlagType type);

// One tuning flag an engine understands, as resources/engines/<engine>.json describes it.
struct FlagSpec {
  std::string name;                  // "--max-num-seqs"
  std::vector<std::string> aliases;  // other spellings the engine accepts ("--tp" for "--tp-size")
  FlagType type = FlagType::String;
  std::vector<std::string> choices;  // for Choice
  bool choicesOpen = false;          // other values are passed with a warning (the engine grows new ones)
  std::optional<double> min;         // for Int and Float, inclusive
  std::optional<double> max;
  std::string pattern;                      // for String: an ECMAScript regex the whole value must match
  std::optional<std::string> defaultValue;  // the engine's own default; none when it decides at start
  std::string falseFlag;  // for Bool: the spelling that turns it off ("--no-enable-prefix-caching")
  std::string descriptionEn;
  std::string descriptionTr;
  std::string vllmFlag;  // the vLLM flag it corresponds to, when its name differs
  std::string group;     // a heading for the GUI: "memory", "batching", "parallelism"...

  // True when `flagName` is this flag's name, an alias or its falseFlag.
  bool matches(std::string_view flagName) const;
};

// An engine Ayar can start: its program, its argument template and its flag catalogue.
struct EngineTemplate {
  // One template argument, or a group of arguments ("--served-model-name {served_model_name}")
  // left out whole when a placeholder in it is empty.
  struct ArgumentGroup {
    std::vector<std::string> arguments;
    bool optional = false;
  };

  std::string name;         // the file's stem: "vllm"
  std::string displayName;  // "vLLM"
  std::string description;  // one English sentence for the GUI
  std::string executable;   // "vllm", or a path
  std::vector<ArgumentGroup> arguments;
  std::string healthPath = "/health";
  std::string apiKeyEnv;  // a variable the engine reads its API key from (VLLM_API_KEY); empty: none
  std::vector<std::string> devices;  // accepted {device} values, when the template uses {device}
  // Models the engine knows by name alone ({model} values that need no folder), in the order a model
  // picker offers them; empty when the template lists none.
  std::vector<std::string> modelPresets;
  std::chrono::seconds startupTimeout{600};
  // True when the catalogue lists every flag the engine takes, so an unknown flag is an error; false
  // when it lists only the main tuning flags, so an unknown flag is passed with a warning.
  bool completeCatalogue = false;
  std::string docsUrl;
  std::vector<FlagSpec> flags;
  std::filesystem::path sourcePath;  // the file it was read from; empty when built in code

  // The catalogue entry for a flag name, alias or negation; nullptr when it has none.
  const FlagSpec* findFlag(std::string_view flagName) const;
  // The flag names the template sets itself from the spec ("--port", "--host"...).
  std::vector<std::string> reservedFlags() const;
};

struct FlagIssue {
  enum class Severity { Error, Warning };
  Severity severity = Severity::Error;
  std::string flag;     // the flag it is about
  std::string message;  // a whole sentence naming the flag, in English (text in English)
  Message text;         // the same, to be said in a reader's language
};

// Checks a user's flags against a template's catalogue: types, ranges, choices, patterns, values
// where none belong, duplicates, flags the template sets itself, unknown flags. Raw arguments are
// not checked. Returns every issue found, errors and warnings, in the order of the flags.
std::vector<FlagIssue> checkFlags(const EngineTemplate& engineTemplate, const std::vector<EngineFlag>& flags);
// Throws ayar::Error listing every error checkFlags() finds; warnings are returned.
std::vector<FlagIssue> validateFlags(const EngineTemplate& engineTemplate,
                                     const std::vector<EngineFlag>& flags);

// What a flag list sets, as a map from each catalogue flag's name to its value with the engine's
// defaults filled in: bool flags read "true"/"false" whichever spelling set them, numbers in one
// form (16384 and "16384.0" agree). Flags without a catalogue entry and raw arguments keep their text.
// Two flag lists that give the same map start the engine the same way.
std::map<std::string, std::string> effectiveFlags(const EngineTemplate& engineTemplate,
                                                  const std::vector<EngineFlag>& flags);

// The engine templates in a folder (resources/engines/*.json), each validated when loaded.
class EngineCatalogue {
 public:
  // The templates in resourcesDir()/engines.
  static EngineCatalogue loadDefault();
  // Every *.json in `folder`, sorted by name. Throws ayar::Error naming the file and the field at
  // fault, or the folder when it does not exist or holds no template.
  static EngineCatalogue loadFolder(const std::filesystem::path& folder);
  // One template file; its "name" must be the file's stem.
  static EngineTemplate loadFile(const std::filesystem::path& file);
  // A template from JSON; `source` names it in error messages.
  static EngineTemplate parse(const nlohmann::json& json, const std::string& source);

  const std::vector<EngineTemplate>& templates() const { return m_templates; }
  const EngineTemplate* find(std::string_view name) const;
  // Throws ayar::Error naming `name` and the templates there are.
  const EngineTemplate& at(std::string_view name) const;

 private:
  std::vector<EngineTemplate> m_templates;
};

}  // namespace ayar
