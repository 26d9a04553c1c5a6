// bench_tokenizer: encoding speed of the Qwen3 tokenizer on English text, one thread.
//
//   bench_tokenizer [--tokenizer DIR] [--file TEXT_FILE] [--mb MEGABYTES] [--passes N] [--threads N]
//
// Without --file it generates varied English from a word list (Zipf-distributed, with a share of
// invented rare words, numbers and punctuation; fixed seed), so that the word cache sees a realistic
// mix of hits and misses. Prints load time, then MB/s and tokens/s for the first pass (cold word
// cache) and the best later pass, per CPU second of the encoding thread (and wall clock); --threads N adds an
// N-thread run on the same tokenizer.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/error.h"
#include "core/tokenizer/tokenizer.h"

namespace {

constexpr const char* kWords[] = {
    "the",
    "of",
    "and",
    "to",
    "a",
    "in",
    "is",
    "that",
    "for",
    "it",
    "as",
    "was",
    "with",
    "be",
    "by",
    "on",
    "not",
    "he",
    "this",
    "are",
    "or",
    "his",
    "from",
    "at",
    "which",
    "but",
    "have",
    "an",
    "had",
    "they",
    "you",
    "were",
    "their",
    "one",
    "all",
    "we",
    "can",
    "her",
    "has",
    "there",
    "been",
    "if",
    "more",
    "when",
    "will",
    "would",
    "who",
    "so",
    "no",
    "she",
    "other",
    "its",
    "may",
    "these",
    "what",
    "them",
    "than",
    "some",
    "him",
    "time",
    "into",
    "only",
    "do",
    "could",
    "new",
    "about",
    "two",
    "first",
    "then",
    "also",
    "after",
    "any",
    "like",
    "our",
    "should",
    "out",
    "very",
    "such",
    "years",
    "must",
    "made",
    "over",
    "most",
    "where",
    "many",
    "through",
    "before",
    "much",
    "those",
    "system",
    "between",
    "under",
    "same",
    "because",
    "each",
    "however",
    "while",
    "state",
    "world",
    "people",
    "work",
    "number",
    "part",
    "found",
    "used",
    "general",
    "during",
    "example",
    "model",
    "request",
    "server",
    "latency",
    "throughput",
    "memory",
    "batch",
    "token",
    "tokens",
    "cache",
    "performance",
    "benchmark",
    "results",
    "measure",
    "measured",
    "baseline",
    "configuration",
    "engine",
    "prompt",
    "output",
    "length",
    "distribution",
    "percentile",
    "median",
    "seconds",
    "milliseconds",
    "scheduler",
    "kernel",
    "device",
    "process",
    "thread",
    "queue",
    "network",
    "response",
    "service",
    "users",
    "history",
    "government",
    "country",
    "development",
    "important",
    "different",
    "following",
    "without",
    "against",
    "small",
    "large",
    "great",
    "public",
    "national",
    "political",
    "economic",
    "social",
    "human",
    "important",
    "possible",
    "several",
    "second",
    "water",
    "school",
    "family",
    "company",
    "information",
    "research",
    "children",
    "problem",
    "question",
    "business",
    "student",
    "between",
    "within",
    "because",
    "although",
    "therefore",
    "nevertheless",
    "consequently",
    "furthermore",
    "approximately",
    "significantly",
    "particularly",
    "understanding",
    "relationship",
    "environment",
    "individual",
    "international",
    "experience",
    "government",
    "management",
    "technology",
    "university",
    "community",
    "organization",
    "especially",
    "everything",
    "something",
    "anything",
    "nothing",
    "someone",
    "everyone",
    "morning",
    "evening",
    "afternoon",
    "village",
    "forest",
    "river",
    "mountain",
    "garden",
    "kitchen",
    "window",
    "door",
    "light",
    "dark",
    "quickly",
    "slowly",
    "carefully",
    "suddenly",
    "finally",
    "already",
    "always",
    "never",
    "often",
    "sometimes",
    "usually",
    "perhaps",
    "certainly",
    "probably",
    "clearly",
    "simply",
    "really",
    "said",
    "asked",
    "answered",
    "thought",
    "knew",
    "looked",
    "seemed",
    "became",
    "remained",
    "turned",
    "walked",
    "opened",
    "closed",
    "started",
    "stopped",
    "continued",
    "decided",
    "explained",
    "described",
    "remembered",
    "believed",
    "considered",
    "suggested",
    "required",
    "provided",
    "included",
    "allowed",
    "increased",
    "reduced",
    "improved",
    "changed",
    "developed",
    "produced",
    "created",
    "designed",
    "analysis",
    "evidence",
    "theory",
    "method",
    "approach",
    "structure",
    "function",
    "process",
    "value",
    "level",
    "rate",
    "effect",
    "result",
    "factor",
    "source",
    "policy",
    "market",
    "price",
    "cost",
    "growth",
    "energy",
    "science",
    "nature",
    "history",
    "culture",
    "language",
    "music",
    "art",
    "story",
    "book",
    "page",
    "chapter",
    "letter",
    "word",
    "sentence",
    "paragraph",
    "meaning",
    "reason",
    "purpose",
    "idea",
    "point",
    "fact",
    "case",
    "way",
    "thing",
    "place",
    "day",
    "year",
    "week",
    "month",
    "hour",
    "minute",
    "moment",
    "child",
    "woman",
    "man",
    "friend",
    "father",
    "mother",
    "brother",
    "sister",
    "teacher",
    "doctor",
    "clockmaker",
    "engineer",
    "scientist",
    "writer",
    "reader",
    "player",
    "leader",
    "member",
    "customer",
    "good",
    "better",
    "best",
    "bad",
    "worse",
    "worst",
    "high",
    "higher",
    "low",
    "lower",
    "long",
    "longer",
    "short",
    "early",
    "late",
    "young",
    "old",
    "true",
    "false",
    "free",
    "full",
    "empty",
    "open",
    "simple",
    "complex",
    "modern",
    "ancient",
    "recent",
    "future",
    "current",
    "previous",
    "available",
    "necessary",
    "I'm",
    "it's",
    "don't",
    "can't",
    "won't",
    "didn't",
    "isn't",
    "aren't",
    "wasn't",
    "we'll",
    "they're",
    "you've",
    "she'd",
    "he'll",
    "that's",
    "there's",
    "what's",
    "let's",
    "couldn't",
    "wouldn't",
    "shouldn't",
};

constexpr const char* kSyllables[] = {"ka",  "ro",  "mi",  "len", "tor", "vash", "el",  "qui", "zan", "bre",
                                      "ost", "ium", "ter", "ph",  "ax",  "ol",   "ing", "ed",  "un",  "re"};

std::string generateEnglish(std::size_t bytes, unsigned seed) {
  std::mt19937 random(seed);
  const std::size_t wordCount = std::size(kWords);
  // Zipf: weight 1/rank.
  std::vector<double> weights(wordCount);
  for (std::size_t i = 0; i < wordCount; ++i)
    weights[i] = 1.0 / static_cast<double>(i + 1);
  std::discrete_distribution<std::size_t> pickWord(weights.begin(), weights.end());
  std::uniform_real_distribution<double> chance(0.0, 1.0);
  std::uniform_int_distribution<int> sentenceLength(6, 28);
  std::uniform_int_distribution<int> paragraphLength(3, 8);

  std::string text;
  text.reserve(bytes + 256);
  while (text.size() < bytes) {
    const int sentences = paragraphLength(random);
    for (int s = 0; s < sentences; ++s) {
      const int words = sentenceLength(random);
      for (int w = 0; w < words; ++w) {
        std::string word;
        const double roll = chance(random);
        if (roll < 0.04) {  // an invented rare word: a likely cache miss
          const int syllables = 2 + static_cast<int>(random() % 4);
          for (int k = 0; k < syllables; ++k)
            word += kSyllables[random() % std::size(kSyllables)];
        } else if (roll < 0.06) {
          word = std::to_string(random() % 100000);
          if (chance(random) < 0.3) word += "." + std::to_string(random() % 100);
        } else {
          word = kWords[pickWord(random)];
        }
        if (w == 0 && !word.empty() && word[0] >= 'a' && word[0] <= 'z')
          word[0] = static_cast<char>(word[0] - 32);
        if (w > 0) text += ' ';
        if (chance(random) < 0.02) word = "\"" + word + "\"";
        if (chance(random) < 0.01) word = "(" + word + ")";
        text += word;
        if (w + 1 < words && chance(random) < 0.08) text += ',';
      }
      const double end = chance(random);
      text += end < 0.85 ? "." : end < 0.95 ? "?" : "!";
      if (s + 1 < sentences) text += ' ';
    }
    text += "\n\n";
  }
  return text;
}

double seconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

// CPU time of the calling thread: on a shared machine it measures what one core does, whatever
// else competes for it.
double threadCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

struct Pass {
  double wallSeconds;
  double cpuSeconds;
  std::size_t tokens;
};

Pass encodeAll(const ayar::Tokenizer& tokenizer, const std::vector<std::string_view>& chunks) {
  const auto start = std::chrono::steady_clock::now();
  const double cpuStart = threadCpuSeconds();
  std::size_t tokens = 0;
  for (std::string_view chunk : chunks)
    tokens += tokenizer.encode(chunk).size();
  return {seconds(std::chrono::steady_clock::now() - start), threadCpuSeconds() - cpuStart, tokens};
}

void printPass(const char* label, double megabytes, const Pass& pass) {
  std::printf("%-15s %7.2f MB/s  %10.0f tokens/s  per CPU second (wall clock: %.2f MB/s)\n", label,
              megabytes / pass.cpuSeconds, static_cast<double>(pass.tokens) / pass.cpuSeconds,
              megabytes / pass.wallSeconds);
}

}  // namespace

int main(int argc, char** argv) {
  std::filesystem::path tokenizerPath = ayar::defaultTokenizerDir();
  std::string file;
  double megabytes = 8;
  int passes = 4;
  int threads = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "bench_tokenizer: " << arg << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--tokenizer") {
      tokenizerPath = next();
    } else if (arg == "--file") {
      file = next();
    } else if (arg == "--mb") {
      megabytes = std::stod(next());
    } else if (arg == "--passes") {
      passes = std::max(2, std::stoi(next()));
    } else if (arg == "--threads") {
      threads = std::stoi(next());
    } else {
      std::cerr << "usage: bench_tokenizer [--tokenizer DIR] [--file TEXT_FILE] [--mb MB] [--passes N] "
                   "[--threads N]\n";
      return 2;
    }
  }

  try {
    const auto loadStart = std::chrono::steady_clock::now();
    const auto tokenizer = ayar::Tokenizer::load(tokenizerPath);
    const double loadSeconds = seconds(std::chrono::steady_clock::now() - loadStart);

    std::string text;
    if (!file.empty()) {
      std::ifstream in(file, std::ios::binary);
      if (!in) throw ayar::Error("cannot read " + file);
      std::ostringstream bytes;
      bytes << in.rdbuf();
      text = bytes.str();
    } else {
      text = generateEnglish(static_cast<std::size_t>(megabytes * 1e6), 20260105);
    }
    // Encode paragraph-sized requests (about what a dataset prompt is), not one huge string.
    std::vector<std::string_view> chunks;
    for (std::size_t start = 0; start < text.size();) {
      std::size_t end = text.find("\n\n", start + 2048);
      end = end == std::string::npos ? text.size() : end + 2;
      chunks.emplace_back(text.data() + start, end - start);
      start = end;
    }
    const double mb = static_cast<double>(text.size()) / 1e6;
    std::printf("tokenizer       %s (loaded in %.0f ms)\n", tokenizer->sourcePath().string().c_str(),
                loadSeconds * 1e3);
    std::printf("text            %s, %.2f MB in %zu requests\n",
                file.empty() ? "generated English" : file.c_str(), mb, chunks.size());

    const Pass cold = encodeAll(*tokenizer, chunks);
    Pass best = encodeAll(*tokenizer, chunks);
    for (int p = 2; p < passes; ++p) {
      const Pass warm = encodeAll(*tokenizer, chunks);
      if (warm.cpuSeconds < best.cpuSeconds) best = warm;
    }
    std::printf("tokens          %zu (%.2f bytes/token)\n", cold.tokens,
                static_cast<double>(text.size()) / static_cast<double>(cold.tokens));
    printPass("1 thread, cold", mb, cold);
    printPass("1 thread, warm", mb, best);

    if (threads > 1) {
      const auto start = std::chrono::steady_clock::now();
      std::vector<std::thread> workers;
      std::vector<std::size_t> tokens(static_cast<std::size_t>(threads), 0);
      for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&, t] {
          for (std::size_t c = static_cast<std::size_t>(t); c < chunks.size();
               c += static_cast<std::size_t>(threads)) {
            tokens[static_cast<std::size_t>(t)] += tokenizer->encode(chunks[c]).size();
          }
        });
      }
      for (std::thread& worker : workers)
        worker.join();
      const double elapsed = seconds(std::chrono::steady_clock::now() - start);
      std::size_t total = 0;
      for (std::size_t n : tokens)
        total += n;
      std::printf("%d threads      %7.2f MB/s  %10.0f tokens/s  wall clock\n", threads, mb / elapsed,
                  static_cast<double>(total) / elapsed);
    }
  } catch (const std::exception& e) {
    std::cerr << "bench_tokenizer: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
