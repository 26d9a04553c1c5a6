#include "fuzz/fuzz_support.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <stdexcept>

namespace ayar::fuzz {

TempFolder& TempFolder::instance() {
  static TempFolder folder;
  return folder;
}

TempFolder::TempFolder() {
  std::random_device random;
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::filesystem::path candidate =
        std::filesystem::temp_directory_path() /
        ("ayar-fuzz-" + std::to_string(::getpid()) + "-" + std::to_string(random()));
    if (std::filesystem::create_directory(candidate)) {
      m_path = candidate;
      return;
    }
  }
  throw std::runtime_error("could not create a folder under " +
                           std::filesystem::temp_directory_path().string());
}

TempFolder::~TempFolder() {
  std::error_code ec;
  std::filesystem::remove_all(m_path, ec);
}

std::filesystem::path TempFolder::write(const std::string& name, std::string_view bytes) const {
  const std::filesystem::path file = m_path / name;
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) throw std::runtime_error("could not write " + file.string());
  return file;
}

std::vector<std::string_view> slices(std::string_view bytes, std::uint8_t seed) {
  std::vector<std::string_view> out;
  std::uint32_t state = seed * 2654435761u + 1;
  std::size_t at = 0;
  while (at < bytes.size()) {
    state = state * 1664525u + 1013904223u;
    const std::size_t wanted = (state >> 24) % 65;  // 0 to 64: an empty read now and then
    const std::size_t length = std::min(wanted, bytes.size() - at);
    out.push_back(bytes.substr(at, length));
    at += length;
  }
  return out;
}

void check(bool condition, const char* what) {
  if (condition) return;
  std::fprintf(stderr, "fuzz check failed: %s\n", what);
  std::abort();
}

}  // namespace ayar::fuzz
