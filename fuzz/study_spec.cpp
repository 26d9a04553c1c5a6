// The study file reader (loadStudy on the input written as a file). A bad study is an ayar::Error; a
// study that reads is written back (studyToJson, as the store keeps it) and reads again the same.
#include "core/study/study_spec.h"

#include <cstddef>
#include <cstdint>

#include "core/error.h"
#include "fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto file = ayar::fuzz::TempFolder::instance().write("study.json", ayar::fuzz::asText(data, size));
  ayar::StudySpec study;
  try {
    study = ayar::loadStudy(file.string());
  } catch (const ayar::Error&) {
    return 0;
  }
  const nlohmann::json written = ayar::studyToJson(study);
  try {
    const ayar::StudySpec again = ayar::studyFromJson(written, "the study written back");
    ayar::fuzz::check(ayar::studyToJson(again) == written, "a study written and read back is the same");
  } catch (const ayar::Error& error) {
    ayar::fuzz::check(false, error.what());
  }
  return 0;
}
