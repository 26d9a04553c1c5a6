#include "core/store/store_path.h"

#include <cstdlib>

#include "core/error.h"
#include "core/report/message_text.h"

namespace ayar {

std::filesystem::path defaultStorePath() {
  const char* dataHome = std::getenv("XDG_DATA_HOME");
  if (dataHome != nullptr && *dataHome != '\0' && std::filesystem::path(dataHome).is_absolute()) {
    return std::filesystem::path(dataHome) / "ayar" / "ayar.db";
  }
  const char* home = std::getenv("HOME");
  if (home == nullptr || *home == '\0') {
    throw MessageError({MessageText::StoreNoHome, {}});
  }
  return std::filesystem::path(home) / ".local" / "share" / "ayar" / "ayar.db";
}

}  // namespace ayar
