#include "core/engines/resources_dir.h"

#include <cstdlib>
#include <string>
#include <system_error>
#include <vector>

#include "core/error.h"
#include "core/report/message_text.h"

namespace ayar {

std::filesystem::path currentExecutablePath() {
  std::error_code ec;
  auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path() : path;
}

std::filesystem::path resourcesDir() {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (const char* fromEnvironment = std::getenv("AYAR_RESOURCES_DIR");
      fromEnvironment != nullptr && *fromEnvironment != '\0') {
    const fs::path dir(fromEnvironment);
    if (!fs::is_directory(dir, ec)) {
      throw MessageError({MessageText::ResourcesEnvNotFolder, {dir.string()}});
    }
    return dir;
  }

  std::vector<fs::path> candidates;
  const fs::path exe = currentExecutablePath();
  if (!exe.empty()) candidates.push_back(exe.parent_path() / AYAR_INSTALLED_RESOURCES_FROM_BIN);
  // Only a program that runs from the build tree looks into the source tree: an installed one must
  // find what was installed with it, not a checkout that happens to be on the build machine.
  if (!exe.empty() && fs::equivalent(exe.parent_path(), AYAR_BUILD_TREE_BIN_DIR, ec)) {
    candidates.emplace_back(AYAR_BUILD_TREE_RESOURCES_DIR);
  }
  for (const auto& candidate : candidates) {
    if (fs::is_directory(candidate, ec)) {
      const fs::path canonical = fs::weakly_canonical(candidate, ec);
      return ec ? candidate : canonical;
    }
  }
  std::string looked;
  for (const auto& candidate : candidates)
    looked += "\n  " + candidate.string();
  throw MessageError({MessageText::ResourcesNotFound, {looked}});
}

}  // namespace ayar
