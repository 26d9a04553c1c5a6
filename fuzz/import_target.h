#pragma once

// The result importers' targets: each writes the input under the file name its format is known by
// and reads it through readImportedRuns, the entry point that sniffs the format, as `ayar-cli runs
// import` does, then turns every run into the store's form. An importer throws ayar::Error for a file
// it cannot read; anything else escaping it is a bug the fuzzer reports.

#include <cstddef>
#include <cstdint>

#include "core/error.h"
#include "core/interop/result_import.h"
#include "fuzz/fuzz_support.h"

namespace ayar::fuzz {

inline void importResultFile(const std::uint8_t* data, std::size_t size, const char* fileName) {
  const std::filesystem::path file = TempFolder::instance().write(fileName, asText(data, size));
  try {
    for (const ImportedRun& run : readImportedRuns(file))
      (void)toFinishedRun(run);
  } catch (const Error&) {
  }
}

}  // namespace ayar::fuzz
