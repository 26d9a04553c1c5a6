#pragma once

#include <filesystem>

namespace ayar {

// The folder holding Ayar's resources (engines/, profiles/, ...), the first that exists of:
//   1. $AYAR_RESOURCES_DIR (an error when it is set but not a folder);
//   2. <folder of this executable>/../share/ayar (an installed layout: bin/ and share/ayar/ side by
//      side under one prefix, as `cmake --install` and the .deb lay them out);
//   3. the source tree's resources/, for programs that run from the build tree's bin/ (both paths
//      compiled in; skipped when they are gone).
// Throws ayar::Error listing the places looked in.
std::filesystem::path resourcesDir();

// This process's executable (/proc/self/exe); empty when it cannot be read.
std::filesystem::path currentExecutablePath();

}  // namespace ayar
