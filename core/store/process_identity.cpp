#include "core/store/process_identity.h"

#include <signal.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <random>

namespace ayar {

std::int64_t currentProcessId() {
  return static_cast<std::int64_t>(::getpid());
}

std::string currentHostName() {
  std::array<char, 256> name{};
  if (::gethostname(name.data(), name.size() - 1) != 0) return {};
  return std::string(name.data());
}

bool processAlive(std::int64_t pid) {
  if (pid <= 0 || pid > INT32_MAX) return false;
  if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno != EPERM) return false;  // EPERM: someone else's
  // A zombie has died; only its parent has not reaped it yet (state 'Z' after "pid (comm) ").
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%lld/stat", static_cast<long long>(pid));
  if (std::FILE* stat = std::fopen(path, "r")) {
    char buffer[512];
    const std::size_t n = std::fread(buffer, 1, sizeof buffer - 1, stat);
    std::fclose(stat);
    buffer[n] = '\0';
    if (const char* close = std::strrchr(buffer, ')'); close && close[1] == ' ' && close[2] == 'Z')
      return false;
  }
  return true;
}

double unixTimeNowS() {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  return std::chrono::duration<double>(now).count();
}

std::string formatUtcTime(double unixTimeS) {
  if (!std::isfinite(unixTimeS)) return {};
  const std::time_t seconds = static_cast<std::time_t>(std::floor(unixTimeS));
  std::tm utc{};
  if (::gmtime_r(&seconds, &utc) == nullptr) return {};
  std::array<char, 32> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return std::string(text.data());
}

std::string newUuid() {
  std::random_device device;
  std::array<unsigned char, 16> bytes{};
  for (std::size_t i = 0; i < bytes.size(); i += 4) {
    const unsigned int word = device();
    for (std::size_t j = 0; j < 4; ++j)
      bytes[i + j] = static_cast<unsigned char>(word >> (8 * j));
  }
  bytes[6] = static_cast<unsigned char>((bytes[6] & 0x0f) | 0x40);  // version 4
  bytes[8] = static_cast<unsigned char>((bytes[8] & 0x3f) | 0x80);  // RFC 4122 variant
  std::string text;
  text.reserve(36);
  constexpr char kHex[] = "0123456789abcdef";
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) text += '-';
    text += kHex[bytes[i] >> 4];
    text += kHex[bytes[i] & 0x0f];
  }
  return text;
}

}  // namespace ayar
