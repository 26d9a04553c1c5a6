#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/dataset/seeded_random.h"
#include "core/tokenizer/tokenizer.h"

namespace ayar {

// The tokens generated prompts are built from, chosen so that any sequence of them re-tokenizes to
// exactly itself: each is a space followed by ASCII letters (the pre-tokenizer always splits before
// such a space, and a letter run never merges across it), or a punctuation mark that follows a
// word, and each encodes to its own id alone. Special and added tokens are never used. Building
// the pools encodes every candidate once (~0.4 s for Qwen3); build one and share it.
class PromptVocabulary {
 public:
  // Throws ayar::Error naming the tokenizer file when it has no usable tokens.
  explicit PromptVocabulary(std::shared_ptr<const Tokenizer> tokenizer);

  const Tokenizer& tokenizer() const { return *m_tokenizer; }
  const std::shared_ptr<const Tokenizer>& tokenizerPtr() const { return m_tokenizer; }

  // Every " letters" token, in id order (random datasets draw from these, as vLLM draws from the
  // whole vocabulary).
  std::span<const TokenId> randomTokens() const { return m_randomTokens; }

  // Readable-ish English: `count` tokens of sentences made of common words, starting a prompt when
  // `startsPrompt` (no leading space before the first word) or continuing text otherwise.
  std::vector<TokenId> englishText(int count, SeededRandom& random, bool startsPrompt = true) const;

  // `count` tokens drawn uniformly from randomTokens().
  std::vector<TokenId> randomText(int count, SeededRandom& random) const;

  // The text of ids drawn from these pools (their bytes concatenated).
  std::string render(std::span<const TokenId> ids) const;

  std::size_t englishWordCount() const { return m_words.size(); }

 private:
  std::shared_ptr<const Tokenizer> m_tokenizer;
  std::vector<TokenId> m_randomTokens;
  std::vector<TokenId> m_words;          // " word", most frequent first
  std::vector<double> m_wordCumulative;  // Zipf-like weights, cumulative
  std::vector<TokenId> m_starters;       // " The", " We", ... opening a sentence
  std::vector<TokenId> m_firstStarters;  // "The", "We", ... opening a prompt (no space)
  TokenId m_period = -1, m_comma = -1, m_question = -1;
};

}  // namespace ayar
