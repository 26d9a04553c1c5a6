// Figures for the datasets: ShareGPT loading time and peak memory on a large generated file of the
// real file's shape, and generation speed of the built-in datasets.
// Usage: bench_datasets [ShareGPT size in MB, default 600] [ShareGPT file: loaded, or generated and kept]
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "core/dataset/prefix_repetition_dataset.h"
#include "core/dataset/random_dataset.h"
#include "core/dataset/sharegpt_dataset.h"
#include "core/dataset/synthetic_sharegpt_dataset.h"

namespace {

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double cpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

double peakRssMb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

// ~`megabytes` MB of {"id", "conversations": [{"from", "value"} x 2..12]} like ShareGPT V3 (94k
// conversations in 642 MB: ~6.8 KB each).
void writeShareGptLike(const std::filesystem::path& path, int megabytes,
                       const ayar::PromptVocabulary& vocabulary) {
  ayar::SeededRandom random(1);
  std::ofstream out(path, std::ios::binary);
  out << "[";
  std::size_t written = 1;
  const std::size_t target = static_cast<std::size_t>(megabytes) * 1000 * 1000;
  for (int entry = 0; written < target; ++entry) {
    nlohmann::json conversation = nlohmann::json::array();
    const auto turns = random.between(2, 12);
    for (int t = 0; t < turns; ++t) {
      const auto tokens = static_cast<int>(random.between(10, 500));
      conversation.push_back({{"from", t % 2 == 0 ? "human" : "gpt"},
                              {"value", vocabulary.render(vocabulary.englishText(tokens, random))}});
    }
    const std::string text =
        nlohmann::json{{"id", "conv" + std::to_string(entry)}, {"conversations", conversation}}.dump();
    out << (entry == 0 ? "" : ", ") << text;
    written += text.size() + 2;
  }
  out << "]";
}

}  // namespace

int main(int argc, char** argv) {
  using namespace ayar;
  const int megabytes = argc > 1 ? std::stoi(argv[1]) : 600;
  auto start = std::chrono::steady_clock::now();
  const auto tokenizer = Tokenizer::load(defaultTokenizerDir());
  std::printf("tokenizer load:                 %.2f s\n", secondsSince(start));
  start = std::chrono::steady_clock::now();
  const PromptVocabulary vocabulary(tokenizer);
  std::printf("prompt vocabulary:              %.2f s (%zu random tokens, %zu words)\n", secondsSince(start),
              vocabulary.randomTokens().size(), vocabulary.englishWordCount());

  start = std::chrono::steady_clock::now();
  RandomDatasetOptions random;
  random.inputLen = 1024;
  const auto randomRequests = generateRandomDataset(*tokenizer, random);
  std::printf("random 1000 x 1024 tokens:      %.3f s (vLLM's decode / re-encode rounds)\n",
              secondsSince(start));
  start = std::chrono::steady_clock::now();
  const auto synthetic = generateSyntheticShareGptDataset(vocabulary, {});
  std::printf("synthetic ShareGPT 1000:        %.3f s\n", secondsSince(start));
  start = std::chrono::steady_clock::now();
  const auto prefixed = generatePrefixRepetitionDataset(vocabulary, {});
  std::printf("prefix repetition 1000:         %.3f s\n", secondsSince(start));
  start = std::chrono::steady_clock::now();
  std::size_t tokens = 0;
  for (const auto& r : randomRequests)
    tokens += tokenizer->encode(r.prompt).size();
  std::printf("re-tokenizing the random set:   %.3f s (%.2f M tokens/s)\n", secondsSince(start),
              static_cast<double>(tokens) / secondsSince(start) / 1e6);

  // With a path: load that file, generating it first (and keeping it) when it does not exist.
  std::filesystem::path file = argc > 2 ? std::filesystem::path(argv[2])
                                        : std::filesystem::temp_directory_path() / "ayar-bench-sharegpt.json";
  const bool removeAfter = argc <= 2;
  if (!std::filesystem::exists(file)) {
    start = std::chrono::steady_clock::now();
    writeShareGptLike(file, megabytes, vocabulary);
    std::printf("wrote %d MB ShareGPT-like file: %.1f s\n", megabytes, secondsSince(start));
  }
  const double rssBefore = peakRssMb();
  const double cpuBefore = cpuSeconds();
  start = std::chrono::steady_clock::now();
  ShareGptOptions options;
  options.path = file;
  const auto samples = loadShareGpt(*tokenizer, options);
  const double loadS = secondsSince(start);
  const double loadCpuS = cpuSeconds() - cpuBefore;
  const auto megabytesRead = static_cast<double>(std::filesystem::file_size(file)) / 1e6;
  std::printf(
      "ShareGPT load (1000 prompts):   %.2f s wall, %.2f s CPU for %.0f MB (%.0f MB per CPU second)\n", loadS,
      loadCpuS, megabytesRead, megabytesRead / loadCpuS);
  std::printf("ShareGPT peak RSS:              %.0f MB (%.0f MB before loading)\n", peakRssMb(), rssBefore);
  std::int64_t in = 0, out = 0;
  for (const auto& s : samples) {
    in += s.promptTokens;
    out += s.expectedOutputTokens;
  }
  std::printf("ShareGPT sample totals:         %lld input, %lld output tokens\n", static_cast<long long>(in),
              static_cast<long long>(out));
  if (removeAfter) std::filesystem::remove(file);
  return 0;
}
