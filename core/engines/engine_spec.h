#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ayar {

struct EngineTemplate;
class EngineCatalogue;

enum class EngineKind {
  Bundled,   // ayar-engine, started by Ayar
  External,  // another engine (vLLM, SGLang, TensorRT-LLM) started by Ayar from its template
  Remote,    // an OpenAI-compatible endpoint someone else runs
};

// "bundled", "external", "remote".
std::string_view toString(EngineKind kind);
// Throws ayar::Error naming the text and the accepted words.
EngineKind engineKindFromString(std::string_view text);

// One engine argument as the user set it, in order.
struct EngineFlag {
  // "--max-num-seqs"; for a raw argument, the argument itself.
  std::string name;
  // "256". None for a switch ("--enforce-eager") and for raw arguments. A bool flag of the
  // catalogue also takes "true" (the switch) or "false" (its negation, or nothing).
  std::optional<std::string> value;
  // Passed as written, never checked against the catalogue ("--foo=bar", a positional).
  bool raw = false;

  static EngineFlag option(std::string name, std::string value) {
    return {std::move(name), std::move(value), false};
  }
  static EngineFlag toggle(std::string name) { return {std::move(name), std::nullopt, false}; }
  static EngineFlag rawArgument(std::string text) { return {std::move(text), std::nullopt, true}; }
  // A flag as typed on a command line: "--max-num-seqs=8" an option, "--enforce-eager" a switch,
  // anything else a raw argument.
  static EngineFlag fromArgument(const std::string& argument);
  bool operator==(const EngineFlag&) const = default;
};

// What engine to benchmark and how to start it. Saved with every run (to_json), so it never holds
// a secret: the API key is named by the environment variable that holds it.
struct EngineSpec {
  EngineKind kind = EngineKind::Bundled;
  // The template's name (resources/engines/<engine>.json): "ayar" for the bundled engine, "vllm",
  // "sglang", "tensorrt-llm" for external ones. Unused for remote endpoints.
  std::string engine = "ayar";
  std::string model;               // preset name, Hugging Face id or folder; for remote, the model to ask for
  std::string servedModelName;     // empty: the engine's default (the model)
  std::string device = "auto";     // bundled: auto|cuda|cpu|sim; used by templates that ask for {device}
  std::string host = "127.0.0.1";  // where a started engine listens
  std::optional<int> port;         // none: the launcher picks a free one
  std::vector<EngineFlag> flags;
  std::string executable;  // overrides the template's program (a venv's vllm); empty: the template's
  // Extra environment for a started engine (CUDA_VISIBLE_DEVICES, HF_HOME...), in order.
  std::vector<std::pair<std::string, std::string>> environment;
  std::string baseUrl;    // remote only: "http://gpu-box:8000" (a trailing /v1 is accepted)
  std::string apiKeyEnv;  // the environment variable holding the API key; empty: no key
  // The key itself, set at run time only (a GUI field). Never serialised; wins over apiKeyEnv.
  std::string apiKey;

  // The key to send or pass to the engine: apiKey, else $apiKeyEnv; empty when there is none.
  // Throws ayar::Error when apiKeyEnv names a variable that is not set.
  std::string resolveApiKey() const;
  // Checks what does not need a catalogue: a model for started engines, a base URL for remote
  // ones, a port in 1..65535, flag names. Throws ayar::Error naming the field.
  void validate() const;
  // The remote base URL without trailing slashes and without a trailing "/v1".
  std::string normalizedBaseUrl() const;

  bool operator==(const EngineSpec&) const = default;
};

// Whether the engine serves from this machine: Ayar starts it (bundled, external), or a remote URL names
// loopback (127.0.0.0/8, localhost, ::1). Only then do this machine's GPUs belong to the run.
bool runsOnThisMachine(const EngineSpec& spec);

// JSON with snake_case keys (kind, engine, model, served_model_name, device, host, port, flags,
// executable, environment, base_url, api_key_env). The API key is never written; reading a document
// that holds one ("api_key") is an error, so that a key pasted into a file is noticed.
void to_json(nlohmann::json& json, const EngineSpec& spec);
void from_json(const nlohmann::json& json, EngineSpec& spec);
void to_json(nlohmann::json& json, const EngineFlag& flag);
void from_json(const nlohmann::json& json, EngineFlag& flag);

// The complete argument vector that starts `spec`'s engine: the template's program (or
// `executable` when given, or spec.executable) and its arguments with the placeholders filled in
// ({model}, {host}, {port}, {served_model_name}, {device}, {api_key}), then the user's flags in
// order. A template argument group whose placeholder is empty is left out whole.
std::vector<std::string> engineCommandLine(const EngineSpec& spec, const EngineTemplate& engineTemplate,
                                           int port, const std::string& executable = {});

// An argument quoted for a POSIX shell, only when it needs it: abc, 'a b', 'it'\''s', ''.
std::string shellQuote(std::string_view argument);
// The arguments as one line a user can read and paste into a shell. For showing only: never run
// it. Each argument equal to one of `secrets` is shown as '***'.
std::string displayCommandLine(const std::vector<std::string>& args,
                               const std::vector<std::string>& secrets = {});
// The flags as one line for people: "--max-num-seqs=128 --enforce-eager"; empty when there are none.
std::string flagListText(const std::vector<EngineFlag>& flags);
// The command that serves `spec`, as a report shows it: the program's name without its folder, no
// --host/--port (the reader picks them) and never an API key. A remote endpoint shows its URL; an
// engine the catalogue does not know shows its name and model.
std::string servingCommandLine(const EngineSpec& spec, const EngineCatalogue& catalogue);

}  // namespace ayar
