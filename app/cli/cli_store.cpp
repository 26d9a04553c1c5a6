#include "app/cli/cli_store.h"

#include <ctime>

#include "core/error.h"
#include "core/store/store_path.h"

namespace ayar::cli {

std::filesystem::path existingStorePath(const std::string& storeFlag, std::string_view firstStep) {
  const std::filesystem::path path =
      storeFlag.empty() ? defaultStorePath() : std::filesystem::path(storeFlag);
  if (!std::filesystem::exists(path)) {
    throw Error("no results store at " + path.string() + ": run `" + std::string(firstStep) +
                "` first, or pass --store FILE");
  }
  return path;
}

std::string localTime(double epochSeconds) {
  const std::time_t t = static_cast<std::time_t>(epochSeconds);
  std::tm tm{};
  localtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &tm);
  return text;
}

}  // namespace ayar::cli
