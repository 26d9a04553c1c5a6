#pragma once

#include <filesystem>

namespace ayar {

// The folder holding Ayar's resources (engines/, profiles/, ...), the first that exists of:
//   1. $AYAR_RESOURCES_DIR (an error when it is set but not a folder);
//   2. <folder of this executable>/../share/ayar/resources (an installed layout);
//   3. the source tree's resources/ (a build tree; compiled in, skipped when it is gone).
// Throws ayar::Error listing the places looked in.
std::filesystem::path resourcesDir();

// This process's executable (/proc/self/exe); empty when it cannot be read.
std::filesystem::path currentExecutablePath();

}  // namespace ayar
