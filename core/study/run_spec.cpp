#include "core/study/run_spec.h"

#include "core/store/secret_scrubber.h"

namespace ayar {

namespace {

// What a run records in its engine object beside the spec it was started with.
constexpr const char* kRecordedEngineKeys[] = {"command", "simulated", "log"};

}  // namespace

void writeRunSetup(const RunSpec& spec, RunInfo& info) {
  info.label = spec.label;
  info.kind = spec.studyId ? RunKind::StudyPart : RunKind::Bench;
  info.studyId = spec.studyId;
  info.model = spec.engine.model;
  info.dataset = spec.profile.datasetName;
  info.profile = spec.profile;
  info.engine = spec.engine;
  if (info.engine.contains("base_url")) info.engine["base_url"] = redactUrlCredentials(spec.engine.baseUrl);
}

std::optional<RunSpec> runSpecOf(const StoredRun& run) {
  const nlohmann::json& recorded = run.info.engine;
  if (!recorded.is_object() || !recorded.contains("kind") || runImportFacts(run.info)) return std::nullopt;
  RunSpec spec;
  try {
    nlohmann::json engine = recorded;
    for (const char* key : kRecordedEngineKeys)
      engine.erase(key);
    spec.engine = engine.get<EngineSpec>();
    if (run.info.profile.is_object()) run.info.profile.get_to(spec.profile);
  } catch (const std::exception&) {
    return std::nullopt;  // written by a version whose set-up this one cannot read
  }
  spec.label = run.info.label;
  return spec;
}

}  // namespace ayar
