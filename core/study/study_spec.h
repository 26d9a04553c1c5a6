#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/engines/engine_spec.h"
#include "core/metrics/run_figure.h"
#include "core/metrics/run_summary.h"
#include "core/report/message_text.h"
#include "core/study/profile_spec.h"

namespace ayar {

// Text in the report's languages: "en" and "tr" (a plain string in a file is the English one).
using LocalizedText = std::map<std::string, std::string>;
// The text in `language` ("en", "tr"), else the English one, else `fallback`.
std::string localized(const LocalizedText& text, const std::string& language, const std::string& fallback);

// One option a study tries against its baseline: the baseline's engine with flags added (replacing a
// flag of the same name) and removed, or a whole other engine (the engine-choice step).
struct StudyVariant {
  std::string name;     // "prefix-caching": an identifier, unique in the study
  LocalizedText title;  // "Prefix caching" / "Önek önbelleği"; empty: the name
  // The option the variant belongs to ("max-num-seqs" for 128 and 256); empty: its own name. The
  // report gives each group one section and one row of the options summary (its best variant).
  std::string group;
  LocalizedText groupTitle;
  std::vector<EngineFlag> addFlags;
  std::vector<std::string> removeFlags;
  std::optional<EngineSpec> engine;  // a whole engine instead of the baseline's

  // The engine this variant runs: `engine`, else the baseline with the flag changes.
  EngineSpec resolve(const EngineSpec& baseline) const;
};

// A configuration of the study, resolved: the baseline or a variant with its engine.
struct StudyConfiguration {
  std::string name;
  LocalizedText title;
  std::string group;
  LocalizedText groupTitle;
  EngineSpec engine;
  bool baseline = false;
};

// A study: configurations x profiles, as the seed documents run them. Every configuration (the
// baseline and each variant) runs the `profiles`; the best one by the deciding figure becomes the
// recommended configuration, which then runs the `followUpProfiles` beside the baseline.
struct StudySpec {
  std::string name;
  LocalizedText title;
  LocalizedText goal;  // the optimisation target in a sentence
  std::string baselineName = "baseline";
  LocalizedText baselineTitle;
  EngineSpec baseline;
  std::vector<StudyVariant> variants;
  std::vector<ProfileSpec> profiles;
  std::vector<ProfileSpec> followUpProfiles;
  RunFigure decidingFigure = RunFigure::MeanE2el;
  GoodputSlo slo;
  int warmupRequests = 0;  // per cell, before its run; not counted in its figures
  std::string tokenizer;   // a tokenizer.json or its folder; empty: the default Qwen3
  std::string hardware;    // a note for the report ("1x H100 SXM"); empty: what Ayar finds

  // The baseline first, then each variant, resolved.
  std::vector<StudyConfiguration> configurations() const;
  // Checks names (unique, non-empty), engines, profiles, SLOs. Throws ayar::Error naming the field.
  void validate() const;
};

// The study file format (resources/studies/*.json); see docs/STUDIES.md. Profiles are written whole
// (inline), so that a stored study does not depend on the profile files it was made from.
nlohmann::json studyToJson(const StudySpec& study);
// Parses a study; `source` names the file in errors, in each language ("study file smoke.json:
// variants[1].add_flags[0]: ..."). Profiles named by a string are loaded from resources/profiles.
StudySpec studyFromJson(const nlohmann::json& json, const MessageArgument& source);

// A study by name (resources/studies/<name>.json) or by path (anything with a '/' or ending in .json).
StudySpec loadStudy(const std::string& nameOrPath);
// The names of the studies shipped in resources/studies, sorted.
std::vector<std::string> listStudyPresets();

}  // namespace ayar
