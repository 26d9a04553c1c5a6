#include "core/dataset/prompt_vocabulary.h"

#include <algorithm>
#include <cassert>
#include <string_view>

#include "core/error.h"
#include "core/report/message_text.h"

namespace ayar {

namespace {

// Common English words, roughly most frequent first, so that Zipf-like weights read naturally.
constexpr std::string_view kWords[] = {
    "the",       "of",         "and",      "to",       "a",         "in",        "is",          "that",
    "for",       "it",         "as",       "with",     "was",       "on",        "be",          "by",
    "this",      "are",        "or",       "from",     "at",        "an",        "have",        "not",
    "can",       "you",        "we",       "but",      "they",      "which",     "one",         "all",
    "will",      "has",        "more",     "their",    "if",        "about",     "there",       "would",
    "so",        "what",       "when",     "been",     "other",     "some",      "new",         "time",
    "how",       "use",        "data",     "these",    "than",      "into",      "may",         "like",
    "also",      "first",      "two",      "should",   "each",      "people",    "work",        "could",
    "most",      "any",        "system",   "over",     "make",      "many",      "after",       "through",
    "our",       "between",    "where",    "well",     "help",      "model",     "used",        "only",
    "year",      "before",     "because",  "same",     "very",      "both",      "way",         "example",
    "need",      "good",       "part",     "number",   "long",      "world",     "while",       "high",
    "different", "write",      "code",     "find",     "small",     "large",     "great",       "water",
    "change",    "process",    "value",    "service",  "question",  "answer",    "information", "problem",
    "result",    "method",     "function", "list",     "order",     "point",     "state",       "study",
    "power",     "design",     "test",     "team",     "user",      "client",    "server",      "request",
    "response",  "memory",     "speed",    "network",  "cache",     "batch",     "engine",      "token",
    "text",      "story",      "letter",   "report",   "plan",      "idea",      "reason",      "simple",
    "short",     "clear",      "early",    "late",     "main",      "open",      "strong",      "common",
    "public",    "local",      "recent",   "possible", "important", "available", "explain",     "describe",
    "create",    "build",      "compare",  "improve",  "measure",   "choose",    "follow",      "include",
    "provide",   "consider",   "support",  "develop",  "produce",   "require",   "suggest",     "understand",
    "translate", "summarize",  "list",     "show",     "give",      "take",      "keep",        "start",
    "run",       "read",       "learn",    "think",    "know",      "want",      "look",        "come",
    "go",        "see",        "say",      "tell",     "ask",       "try",       "feel",        "leave",
    "call",      "move",       "live",     "play",     "turn",      "bring",     "happen",      "set",
    "put",       "city",       "country",  "school",   "family",    "student",   "teacher",     "company",
    "market",    "product",    "price",    "health",   "food",      "music",     "game",        "book",
    "paper",     "page",       "word",     "line",     "name",      "place",     "home",        "room",
    "door",      "road",       "car",      "house",    "garden",    "tree",      "river",       "mountain",
    "weather",   "morning",    "evening",  "night",    "day",       "week",      "month",       "history",
    "science",   "language",   "computer", "program",  "software",  "machine",   "question",    "budget",
    "meeting",   "project",    "customer", "account",  "email",     "message",   "recipe",      "travel",
    "trip",      "hotel",      "ticket",   "doctor",   "patient",   "friend",    "child",       "mother",
    "father",    "brother",    "sister",   "people",   "group",     "member",    "level",       "area",
    "field",     "energy",     "light",    "sound",    "color",     "shape",     "size",        "table",
    "chart",     "image",      "video",    "file",     "folder",    "step",      "rule",        "law",
    "policy",    "risk",       "cost",     "benefit",  "goal",      "task",      "job",         "career",
    "skill",     "experience", "quality",  "detail",   "feature",   "version",   "update",      "issue",
    "error",     "fix",        "careful",  "quick",    "slow",      "easy",      "hard",        "young",
    "old",       "happy",      "free",     "full",     "real",      "best",      "better",      "little",
    "own",       "right",      "next",     "last",     "few",       "every",     "always",      "often",
    "never",     "again",      "still",    "just",     "then",      "here",      "now",         "today",
    "together",  "however",    "usually",  "quickly"};

constexpr std::string_view kStarters[] = {"The",     "This", "We",    "It",     "In",   "When",  "How",
                                          "What",    "Our",  "A",     "Please", "Can",  "I",     "You",
                                          "My",      "Each", "There", "If",     "For",  "After", "Write",
                                          "Explain", "Why",  "Some",  "Most",   "Many", "They"};

bool isAsciiLetter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// " letters" whose own encoding is the token alone.
bool isSpaceLetterToken(const Tokenizer& tokenizer, TokenId id) {
  if (tokenizer.isSpecial(id) || tokenizer.isAddedToken(id)) return false;
  const std::string_view bytes = tokenizer.tokenBytes(id);
  if (bytes.size() < 2 || bytes[0] != ' ') return false;
  if (!std::all_of(bytes.begin() + 1, bytes.end(), isAsciiLetter)) return false;
  const std::vector<TokenId> ids = tokenizer.encode(bytes);
  return ids.size() == 1 && ids[0] == id;
}

// The id of `text` when it is a single token that encodes to itself.
std::optional<TokenId> singleToken(const Tokenizer& tokenizer, std::string_view text) {
  const std::vector<TokenId> ids = tokenizer.encode(text);
  if (ids.size() != 1 || tokenizer.isSpecial(ids[0]) || tokenizer.isAddedToken(ids[0])) return std::nullopt;
  if (tokenizer.tokenBytes(ids[0]) != text) return std::nullopt;
  return ids[0];
}

}  // namespace

PromptVocabulary::PromptVocabulary(std::shared_ptr<const Tokenizer> tokenizer)
    : m_tokenizer(std::move(tokenizer)) {
  assert(m_tokenizer);
  const Tokenizer& t = *m_tokenizer;
  for (std::size_t id = 0; id < t.vocabSize(); ++id) {
    if (isSpaceLetterToken(t, static_cast<TokenId>(id))) m_randomTokens.push_back(static_cast<TokenId>(id));
  }
  if (m_randomTokens.size() < 100) {
    throw MessageError({MessageText::VocabularyTooFewWords,
                        {t.sourcePath().string(), std::to_string(m_randomTokens.size())}});
  }

  std::vector<std::string_view> seen;
  double cumulative = 0.0;
  for (std::string_view word : kWords) {
    if (std::find(seen.begin(), seen.end(), word) != seen.end()) continue;
    seen.push_back(word);
    const std::string spaced = " " + std::string(word);
    if (auto id = singleToken(t, spaced)) {
      // Zipf-like: the n-th word weighs 1 / (n + 8).
      cumulative += 1.0 / (static_cast<double>(m_words.size()) + 8.0);
      m_words.push_back(*id);
      m_wordCumulative.push_back(cumulative);
    }
  }
  for (std::string_view word : kStarters) {
    auto spaced = singleToken(t, " " + std::string(word));
    auto bare = singleToken(t, word);
    if (spaced && bare) {
      m_starters.push_back(*spaced);
      m_firstStarters.push_back(*bare);
    }
  }
  m_period = singleToken(t, ".").value_or(-1);
  m_comma = singleToken(t, ",").value_or(-1);
  m_question = singleToken(t, "?").value_or(-1);
}

std::vector<TokenId> PromptVocabulary::randomText(int count, SeededRandom& random) const {
  std::vector<TokenId> ids;
  ids.reserve(static_cast<std::size_t>(std::max(count, 0)));
  for (int i = 0; i < count; ++i)
    ids.push_back(m_randomTokens[random.below(m_randomTokens.size())]);
  return ids;
}

std::vector<TokenId> PromptVocabulary::englishText(int count, SeededRandom& random, bool startsPrompt) const {
  if (m_words.size() < 20 || m_starters.empty() || m_period < 0) {
    return randomText(count, random);  // a tokenizer without these English words still gets exact lengths
  }
  std::vector<TokenId> ids;
  ids.reserve(static_cast<std::size_t>(std::max(count, 0)));
  const auto word = [&] {
    const double target = random.uniform() * m_wordCumulative.back();
    const auto it = std::upper_bound(m_wordCumulative.begin(), m_wordCumulative.end(), target);
    return m_words[std::min<std::size_t>(static_cast<std::size_t>(it - m_wordCumulative.begin()),
                                         m_words.size() - 1)];
  };
  bool first = startsPrompt;
  while (static_cast<int>(ids.size()) < count) {
    // One sentence: a starter, 4 to 15 words, perhaps a comma, a full stop or a question mark.
    const std::size_t starter = random.below(m_starters.size());
    ids.push_back(first ? m_firstStarters[starter] : m_starters[starter]);
    first = false;
    const auto words = static_cast<int>(random.between(4, 15));
    // Never two marks in a row (",." would merge into one token): a word always follows the comma.
    const int commaAfter =
        m_comma >= 0 && random.uniform() < 0.35 ? static_cast<int>(random.between(1, words - 2)) : -1;
    for (int w = 0; w < words && static_cast<int>(ids.size()) < count; ++w) {
      ids.push_back(word());
      if (w == commaAfter && static_cast<int>(ids.size()) < count) ids.push_back(m_comma);
    }
    if (static_cast<int>(ids.size()) < count) {
      ids.push_back(m_question >= 0 && random.uniform() < 0.15 ? m_question : m_period);
    }
  }
  ids.resize(static_cast<std::size_t>(std::max(count, 0)));
  return ids;
}

std::string PromptVocabulary::render(std::span<const TokenId> ids) const {
  std::string text;
  for (TokenId id : ids)
    text += m_tokenizer->tokenBytes(id);
  return text;
}

}  // namespace ayar
