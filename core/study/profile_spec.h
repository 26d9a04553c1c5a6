#pragma once

#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ayar {

// How requests are sent: vLLM's open loop at a rate, or guidellm's other shapes.
enum class LoadMode {
  Rate,        // --request-rate r with --burstiness b (inf = all at once); optional --max-concurrency cap
  Concurrent,  // closed loop: --concurrency N streams, each sends its next request when one finishes
  Throughput,  // everything at t=0, in flight capped by --max-concurrency
  Sweep,       // synchronous, then throughput, then --sweep-points rates in between (several runs)
};
std::string_view toString(LoadMode mode);
LoadMode parseLoadMode(std::string_view text);  // throws ayar::Error naming the text

// A load profile: what to send (dataset, lengths, count) and when (the arrival schedule). Field names
// follow `vllm bench serve`'s flags; resources/profiles/<name>.json files use the same names in
// snake_case, and command-line flags override what a profile sets.
struct ProfileSpec {
  static constexpr double kInfinity = std::numeric_limits<double>::infinity();

  std::string name;  // empty for a profile made of flags only, or edited
  // The preset this profile was made from by changing some of its fields (see nameEditedProfile);
  // empty for a preset as shipped or a profile made from scratch.
  std::string editedFrom;
  std::map<std::string, std::string> title;    // by language: "en", "tr"
  std::map<std::string, std::string> purpose;  // by language

  // Where to send, when the profile decides (empty: the run's or the API's default).
  std::string backend;   // "openai" | "openai-chat"
  std::string endpoint;  // "/v1/chat/completions"

  // What to send.
  std::string datasetName = "random";  // sharegpt | random | prefix-repetition | synthetic-sharegpt
  std::string datasetPath;             // the ShareGPT file; empty: none (ShareGPT falls back to synthetic)
  int numPrompts = 1000;
  std::optional<int> sharegptOutputLen;
  int randomInputLen = 1024;
  int randomOutputLen = 128;
  double randomRangeRatio = 0.0;
  int randomPrefixLen = 0;
  int prefixRepetitionPrefixLen = 256;
  int prefixRepetitionSuffixLen = 256;
  int prefixRepetitionNumPrefixes = 10;
  int prefixRepetitionOutputLen = 128;
  bool ignoreEos = false;
  // vLLM's sampling parameters, sent only when set; without a temperature, vLLM's client (and so
  // Ayar) sends temperature 0, greedy decoding.
  std::optional<double> temperature;
  std::optional<double> topP;
  std::optional<int> topK;
  std::optional<double> minP;
  std::optional<double> frequencyPenalty;
  std::optional<double> presencePenalty;
  std::optional<double> repetitionPenalty;

  // When to send.
  LoadMode loadMode = LoadMode::Rate;
  double requestRate = kInfinity;
  double burstiness = 1.0;
  // vLLM's --ramp-up-strategy linear|exponential from rampUpStartRps to rampUpEndRps (requestRate
  // then stays inf); empty: a steady rate.
  std::string rampUpStrategy;
  int rampUpStartRps = 0;
  int rampUpEndRps = 0;
  std::optional<int> maxConcurrency;
  int concurrency = 1;  // streams for LoadMode::Concurrent
  int sweepPoints = 5;  // rates between synchronous and throughput for LoadMode::Sweep
  std::uint64_t seed = 0;

  // A line for logs: "random 1024->128 x1000, rate inf" or the profile's name.
  std::string describe() const;
  // What one run may ask for, so that its memory stays bounded: the prompts are built in memory before
  // the run and every request's record is kept until it ends. Above every context length served today.
  static constexpr int kMaxRequestTokens = 1 << 24;            // one request's prompt and output
  static constexpr std::int64_t kMaxPromptTokens = 1LL << 27;  // all prompts of a run together
  static constexpr int kMaxPrompts = 1'000'000;

  // Checks ranges (counts > 0, ratio in [0, 1), rate > 0, ...) and the limits above. Throws
  // ayar::Error naming the field.
  void validate() const;
  // The limits above alone, before anything is allocated; validate() includes them.
  void checkMemoryBounds() const;
};

// Names a profile made from `preset`: the same load (every field that decides what is sent and when,
// names and titles aside) keeps the preset's name; a changed one loses the preset's name, title and
// purpose and records the preset in `editedFrom`, so that what ran is never shown as the preset.
void nameEditedProfile(ProfileSpec& profile, const ProfileSpec& preset);

// snake_case keys as in the profile files; rates and burstiness may be the string "inf".
void to_json(nlohmann::json& json, const ProfileSpec& profile);
// Reads the keys present and leaves the others as they are (so a file can override a base). Unknown
// keys are an error naming them, so that a typo does not silently fall back to a default.
void from_json(const nlohmann::json& json, ProfileSpec& profile);

// A profile by name (resources/profiles/<name>.json) or by file path (anything with a '/' or ending
// in .json). Throws ayar::Error naming the profile, listing the known names when there is no such one.
ProfileSpec loadProfile(const std::string& nameOrPath);
// The profiles shipped in resources/profiles, sorted by name.
std::vector<ProfileSpec> listProfiles();

}  // namespace ayar
