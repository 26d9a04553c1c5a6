#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ayar {

using TokenId = std::int32_t;

// A Hugging Face tokenizer.json of the byte-level BPE family (Qwen2/Qwen3, GPT-2 style): NFC
// normalizer, Split pre-tokenizer with the file's own regex, ByteLevel mapping, BPE merges by rank,
// added tokens matched before pre-tokenization. Immutable once loaded; safe to share across threads.
class Tokenizer {
 public:
  // Loads `path` (a tokenizer.json file, or a folder holding tokenizer.json and, when present,
  // tokenizer_config.json). Throws ayar::Error naming the path and what is wrong with it.
  static std::shared_ptr<const Tokenizer> load(const std::filesystem::path& path);

  ~Tokenizer();
  Tokenizer(const Tokenizer&) = delete;
  Tokenizer& operator=(const Tokenizer&) = delete;

  // Encodes text as transformers' tokenizer.encode(text, add_special_tokens=False) does: added
  // tokens written in the text (e.g. "<|im_start|>") become their ids.
  std::vector<TokenId> encode(std::string_view text) const;
  // Same, but added tokens in the text are treated as ordinary text.
  std::vector<TokenId> encodeOrdinary(std::string_view text) const;

  // Decodes ids to UTF-8 text; invalid byte sequences become U+FFFD as transformers does
  // (errors="replace"). Unknown ids throw ayar::Error.
  std::string decode(std::span<const TokenId> ids, bool skipSpecialTokens = false) const;

  // The raw bytes one token stands for (the byte-level mapping undone); may be part of a UTF-8
  // character. Empty for ids outside the vocabulary.
  std::string_view tokenBytes(TokenId id) const;
  // The id of a token written as it appears in the vocabulary or the added tokens ("<|im_end|>").
  std::optional<TokenId> tokenToId(std::string_view token) const;
  // One past the largest id (vocabulary plus added tokens).
  std::size_t vocabSize() const;
  // The model's vocabulary without added tokens: transformers' tokenizer.vocab_size, which vLLM's
  // random dataset draws its token ids below.
  std::size_t modelVocabSize() const;
  bool isSpecial(TokenId id) const;
  bool isAddedToken(TokenId id) const;
  // From tokenizer_config.json's eos_token when present, else none.
  std::optional<TokenId> eosTokenId() const;
  // The file this was loaded from.
  const std::filesystem::path& sourcePath() const;

  struct Impl;

 private:
  explicit Tokenizer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> m_impl;
};

// Turns a stream of ids into text without ever emitting half a UTF-8 character: bytes of an
// incomplete character are held until the character completes (or until flush()).
class IncrementalDecoder {
 public:
  explicit IncrementalDecoder(const Tokenizer& tokenizer, bool skipSpecialTokens = false);
  // The text that became complete with this id (possibly empty).
  std::string push(TokenId id);
  // Whatever is still held, with incomplete sequences replaced by U+FFFD.
  std::string flush();

 private:
  const Tokenizer* m_tokenizer;
  bool m_skipSpecial;
  std::string m_pending;
};

struct ChatMessage {
  std::string role;  // "system", "user", "assistant"
  std::string content;
};

struct ChatTemplateOptions {
  bool addGenerationPrompt = true;
  // Qwen3: false appends an empty <think>\n\n</think>\n\n block after the generation prompt.
  bool enableThinking = true;
};

// Renders Qwen3's ChatML template (tokenizer_config.json's chat_template, without tools) exactly.
std::string applyChatTemplate(std::span<const ChatMessage> messages, const ChatTemplateOptions& options = {});

// Where set-up puts the Qwen3 tokenizer: $AYAR_TOKENIZER_DIR if set, else
// ${XDG_CACHE_HOME:-$HOME/.cache}/ayar/tokenizers/qwen3.
std::filesystem::path defaultTokenizerDir();

}  // namespace ayar
