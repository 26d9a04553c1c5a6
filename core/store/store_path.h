#pragma once

#include <filesystem>

namespace ayar {

// ${XDG_DATA_HOME:-$HOME/.local/share}/ayar/ayar.db, as the XDG base directory rules say (a relative
// XDG_DATA_HOME is ignored). Nothing is created here. Throws ayar::Error when neither variable is
// usable.
std::filesystem::path defaultStorePath();

}  // namespace ayar
