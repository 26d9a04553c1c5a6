#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace ayar::cli {

// The results store a reading command opens: `storeFlag` (--store) when given, else the default
// store. When the file is absent, an error names it and says what makes one (`firstStep`, e.g.
// "ayar-cli bench").
std::filesystem::path existingStorePath(const std::string& storeFlag, std::string_view firstStep);

// A stored time as the user's local wall clock: 2026-12-03 10:15:00.
std::string localTime(double epochSeconds);

}  // namespace ayar::cli
