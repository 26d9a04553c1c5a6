#include "core/tokenizer/tokenizer.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "core/error.h"
#include "core/report/message_text.h"
#include "core/tokenizer/byte_level.h"
#include "core/tokenizer/byte_pair_encoder.h"
#include "core/tokenizer/nfc.h"
#include "core/tokenizer/regex_splitter.h"
#include "core/tokenizer/token_index.h"
#include "core/tokenizer/tokenizer_file.h"
#include "core/tokenizer/utf8.h"

namespace ayar {

namespace {

using Json = nlohmann::json;

// Ids beyond this are surely a broken file (and would make the id-indexed tables enormous).
constexpr std::int64_t kMaxTokenId = 1 << 24;

// GPT-2's pre-tokenizer regex, used by a ByteLevel pre-tokenizer with use_regex true.
constexpr char kGpt2Pattern[] =
    R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";

struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};
template <typename Value>
using StringMap = std::unordered_map<std::string, Value, StringHash, std::equal_to<>>;

struct AddedToken {
  std::string content;
  TokenId id = 0;
  bool special = false;
  bool lstrip = false;
  bool rstrip = false;
  bool singleWord = false;
};

enum class TokenKind : std::uint8_t { kNone, kVocabulary, kAdded, kSpecial };

// Unicode White_Space, the set lstrip/rstrip of added tokens remove.
bool isWhitespace(char32_t c) {
  return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F ||
         c == 0x3000;
}

// For single_word added tokens: a neighbour that is not whitespace or ASCII punctuation counts as
// part of a word (an approximation of \w that errs towards not matching).
bool isWordCharacter(char32_t c) {
  if (c < 0x80) return std::isalnum(static_cast<int>(c)) != 0 || c == '_';
  return !isWhitespace(c);
}

char32_t lastCodePoint(std::string_view text) {
  std::size_t pos = text.size();
  while (pos > 0 && (static_cast<unsigned char>(text[pos - 1]) & 0xC0) == 0x80)
    --pos;
  if (pos > 0) --pos;
  return utf8::decodeValid(text, pos);
}

// A bounded, sharded cache of word -> tokens, so that threads rarely contend for one lock.
class WordCache {
 public:
  static constexpr std::size_t kMaxWordBytes = 256;

  bool lookup(std::string_view word, std::vector<TokenId>& out) const {
    Shard& shard = shardOf(word);
    std::lock_guard lock(shard.mutex);
    const auto it = shard.entries.find(word);
    if (it == shard.entries.end()) return false;
    out.insert(out.end(), it->second.begin(), it->second.end());
    return true;
  }

  void store(std::string_view word, std::span<const TokenId> tokens) const {
    Shard& shard = shardOf(word);
    std::lock_guard lock(shard.mutex);
    // Starting over when full is crude but keeps memory bounded without LRU bookkeeping.
    if (shard.entries.size() >= kEntriesPerShard) shard.entries.clear();
    shard.entries.try_emplace(std::string(word), tokens.begin(), tokens.end());
  }

 private:
  static constexpr std::size_t kShards = 32;
  static constexpr std::size_t kEntriesPerShard = 4096;
  struct Shard {
    std::mutex mutex;
    StringMap<std::vector<TokenId>> entries;
  };
  Shard& shardOf(std::string_view word) const {
    return m_shards[(std::hash<std::string_view>{}(word) >> 7) % kShards];
  }
  mutable std::array<Shard, kShards> m_shards;
};

std::string describe(const Json& value) {
  std::string text = value.dump();
  if (text.size() > 80) text = text.substr(0, 77) + "...";
  return text;
}

}  // namespace

struct Tokenizer::Impl {
  struct TokenRecord {
    std::uint32_t offset = 0;  // into tokenBytes
    std::uint32_t length = 0;
    TokenKind kind = TokenKind::kNone;
  };

  std::filesystem::path source;
  std::vector<TokenRecord> tokens;      // indexed by id
  std::string tokenBytes;               // the raw bytes each token stands for, back to back
  TokenIndex idOfToken;                 // vocabulary strings as written in the file, and added tokens
  TokenIndex idOfBytes;                 // only for ignore_merges: a whole word found in the vocabulary
  std::vector<AddedToken> addedTokens;  // longest first, so the first match at a position is the longest
  std::array<bool, 256> addedTokenStartsWith{};
  std::size_t modelVocabSize = 0;  // entries of the model's "vocab"
  bool normalizeNfc = false;
  bool addPrefixSpace = false;
  bool ignoreMerges = false;
  std::vector<std::unique_ptr<RegexSplitter>> splitters;  // applied in order, each to the previous pieces
  std::unique_ptr<BytePairEncoder> bpe;
  WordCache cache;
  std::optional<TokenId> eos;

  bool contains(TokenId id) const {
    return id >= 0 && static_cast<std::size_t>(id) < tokens.size() &&
           tokens[static_cast<std::size_t>(id)].kind != TokenKind::kNone;
  }
  // The kind of `id`, kNone outside the vocabulary.
  TokenKind kindOf(TokenId id) const {
    return id >= 0 && static_cast<std::size_t>(id) < tokens.size() ? tokens[static_cast<std::size_t>(id)].kind
                                                                   : TokenKind::kNone;
  }
  std::string_view bytesOf(TokenId id) const {
    if (!contains(id)) return {};
    const TokenRecord& record = tokens[static_cast<std::size_t>(id)];
    return std::string_view(tokenBytes).substr(record.offset, record.length);
  }

  void encodeSection(std::string_view text, std::vector<TokenId>& out) const;
  void encodeWord(std::string_view word, std::vector<TokenId>& out) const;
  void encodeWithAddedTokens(std::string_view text, std::vector<TokenId>& out) const;
};

namespace {

[[noreturn]] void fail(const std::filesystem::path& file, const Message& what) {
  throw MessageError({MessageText::TokenizerContent, {file.string(), what.asArgument()}});
}

const Json* member(const Json& object, const char* name) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(name);
  return it == object.end() || it->is_null() ? nullptr : &*it;
}

std::string typeOf(const std::filesystem::path& file, const Json& component, const char* what) {
  const Json* type = member(component, "type");
  if (!type || !type->is_string()) fail(file, {MessageText::TokenizerNoType, {what, describe(component)}});
  return type->get<std::string>();
}

bool flag(const Json& object, const char* name, bool fallback = false) {
  const Json* value = member(object, name);
  return value && value->is_boolean() ? value->get<bool>() : fallback;
}

void readNormalizer(const std::filesystem::path& file, const Json& normalizer, Tokenizer::Impl& impl) {
  if (normalizer.is_null()) return;
  const std::string type = typeOf(file, normalizer, "normalizer");
  if (type == "NFC") {
    impl.normalizeNfc = true;
  } else if (type == "Sequence") {
    const Json* steps = member(normalizer, "normalizers");
    if (!steps || !steps->is_array())
      fail(file, {MessageText::TokenizerSequenceNoList, {"normalizer", "normalizers"}});
    for (const Json& step : *steps)
      readNormalizer(file, step, impl);
  } else {
    fail(file, {MessageText::TokenizerNormalizerUnsupported, {type}});
  }
}

void readPreTokenizer(const std::filesystem::path& file, const Json& preTokenizer, Tokenizer::Impl& impl,
                      bool first) {
  if (preTokenizer.is_null()) return;
  const std::string type = typeOf(file, preTokenizer, "pre_tokenizer");
  try {
    if (type == "Sequence") {
      const Json* steps = member(preTokenizer, "pretokenizers");
      if (!steps || !steps->is_array())
        fail(file, {MessageText::TokenizerSequenceNoList, {"pre_tokenizer", "pretokenizers"}});
      bool firstStep = first;
      for (const Json& step : *steps) {
        readPreTokenizer(file, step, impl, firstStep);
        firstStep = false;
      }
    } else if (type == "Split") {
      const Json* behavior = member(preTokenizer, "behavior");
      if (!behavior || *behavior != "Isolated") {
        fail(file, {MessageText::TokenizerSplitBehavior, {behavior ? describe(*behavior) : "null"}});
      }
      if (flag(preTokenizer, "invert")) fail(file, {MessageText::TokenizerSplitInvert, {}});
      const Json* pattern = member(preTokenizer, "pattern");
      const Json* regex = pattern ? member(*pattern, "Regex") : nullptr;
      const Json* literal = pattern ? member(*pattern, "String") : nullptr;
      if (regex && regex->is_string()) {
        impl.splitters.push_back(std::make_unique<RegexSplitter>(regex->get<std::string>()));
      } else if (literal && literal->is_string()) {
        impl.splitters.push_back(std::make_unique<RegexSplitter>(literal->get<std::string>(), true));
      } else {
        fail(file, {MessageText::TokenizerSplitNoPattern, {}});
      }
    } else if (type == "ByteLevel") {
      // A prefix space is only meaningful before any splitting (tokenizers would add it to every
      // piece of an earlier split, which no released model relies on).
      if (flag(preTokenizer, "add_prefix_space")) {
        if (!first) fail(file, {MessageText::TokenizerPrefixSpaceLate, {}});
        impl.addPrefixSpace = true;
      }
      if (flag(preTokenizer, "use_regex", true))
        impl.splitters.push_back(std::make_unique<RegexSplitter>(kGpt2Pattern));
    } else {
      fail(file, {MessageText::TokenizerPreTokenizerUnsupported, {type}});
    }
  } catch (const RegexSplitter::CompileError& e) {
    fail(file, {MessageText::TokenizerPreTokenizerRegex, {e.pattern, std::to_string(e.offset), e.why}});
  }
}

void readDecoder(const std::filesystem::path& file, const Json& decoder) {
  if (decoder.is_null()) fail(file, {MessageText::TokenizerNoDecoder, {}});
  const std::string type = typeOf(file, decoder, "decoder");
  if (type != "ByteLevel") fail(file, {MessageText::TokenizerDecoderUnsupported, {type}});
}

void setToken(Tokenizer::Impl& impl, TokenId id, std::string_view bytes, TokenKind kind) {
  const auto index = static_cast<std::size_t>(id);
  if (index >= impl.tokens.size()) impl.tokens.resize(index + 1);
  impl.tokens[index] = {static_cast<std::uint32_t>(impl.tokenBytes.size()),
                        static_cast<std::uint32_t>(bytes.size()), kind};
  impl.tokenBytes.append(bytes);
}

void readModel(const std::filesystem::path& file, TokenizerFile& contents, Tokenizer::Impl& impl) {
  const Json* modelSettings = member(contents.settings, "model");
  if (!modelSettings || !modelSettings->is_object()) fail(file, {MessageText::TokenizerNoModel, {}});
  const Json& model = *modelSettings;
  const std::string type = typeOf(file, model, "model");
  if (type != "BPE") fail(file, {MessageText::TokenizerModelUnsupported, {type}});
  if (flag(model, "byte_fallback")) fail(file, {MessageText::TokenizerByteFallback, {}});
  for (const char* affix : {"continuing_subword_prefix", "end_of_word_suffix"}) {
    const Json* value = member(model, affix);
    if (value && !(value->is_string() && value->get<std::string>().empty())) {
      fail(file, {MessageText::TokenizerAffix, {affix}});
    }
  }
  if (const Json* dropout = member(model, "dropout");
      dropout && dropout->is_number() && dropout->get<double>() > 0) {
    fail(file, {MessageText::TokenizerDropout, {}});
  }
  impl.ignoreMerges = flag(model, "ignore_merges");

  if (!contents.hasVocab) fail(file, {MessageText::TokenizerNoVocab, {}});
  impl.modelVocabSize = contents.vocab.size();
  impl.idOfToken.reserve(contents.vocab.size() + 64, contents.text.size() / 6);
  impl.tokens.reserve(contents.vocab.size() + 64);
  impl.tokenBytes.reserve(contents.text.size() / 8);
  for (const auto& [token, id64] : contents.vocab) {
    if (id64 > kMaxTokenId)
      fail(file, {MessageText::TokenizerVocabId, {std::string(token), std::to_string(id64)}});
    const auto id = static_cast<TokenId>(id64);
    // A vocabulary string outside the byte mapping cannot come out of the merges; it still
    // decodes to its own UTF-8 bytes, as the ByteLevel decoder does.
    const std::optional<std::string> bytes = byte_level::toBytes(token);
    if (impl.ignoreMerges && bytes) impl.idOfBytes.insertOrAssign(*bytes, id);
    setToken(impl, id, bytes ? std::string_view(*bytes) : token, TokenKind::kVocabulary);
    impl.idOfToken.insertOrAssign(token, id);
  }

  std::array<TokenId, 256> byteTokens{};
  for (int b = 0; b < 256; ++b) {
    std::string mapped;
    utf8::append(mapped, byte_level::byteToChar(static_cast<unsigned char>(b)));
    const std::optional<TokenId> id = impl.idOfToken.find(mapped);
    if (!id) {
      fail(file, {MessageText::TokenizerNoByteToken, {mapped, std::to_string(b)}});
    }
    byteTokens[static_cast<std::size_t>(b)] = *id;
  }

  if (!contents.hasMerges) fail(file, {MessageText::TokenizerNoMerges, {}});
  impl.bpe = std::make_unique<BytePairEncoder>(byteTokens, contents.merges.size());
  std::string joined;
  for (std::size_t rank = 0; rank < contents.merges.size(); ++rank) {
    const auto& [left, right] = contents.merges[rank];
    joined.assign(left).append(right);
    const std::optional<TokenId> leftId = impl.idOfToken.find(left);
    const std::optional<TokenId> rightId = impl.idOfToken.find(right);
    const std::optional<TokenId> mergedId = impl.idOfToken.find(joined);
    if (!leftId || !rightId || !mergedId) {
      fail(file, {MessageText::TokenizerMergeUnknown,
                  {std::to_string(rank), std::string(left), std::string(right)}});
    }
    impl.bpe->addMerge(*leftId, *rightId, *mergedId, static_cast<std::int32_t>(rank));
  }
}

void readAddedTokens(const std::filesystem::path& file, const Json& root, Tokenizer::Impl& impl) {
  const Json* added = member(root, "added_tokens");
  if (!added) return;
  if (!added->is_array()) fail(file, {MessageText::TokenizerAddedNotList, {}});
  for (const Json& entry : *added) {
    const Json* id = member(entry, "id");
    const Json* content = member(entry, "content");
    if (!id || !id->is_number_integer() || id->get<std::int64_t>() < 0 ||
        id->get<std::int64_t>() > kMaxTokenId || !content || !content->is_string() ||
        content->get_ref<const std::string&>().empty()) {
      fail(file, {MessageText::TokenizerAddedShape, {describe(entry)}});
    }
    AddedToken token;
    token.content = content->get<std::string>();
    if (!utf8::isValid(token.content)) fail(file, {MessageText::TokenizerAddedNotUtf8, {describe(entry)}});
    token.id = id->get<TokenId>();
    token.special = flag(entry, "special");
    token.lstrip = flag(entry, "lstrip");
    token.rstrip = flag(entry, "rstrip");
    token.singleWord = flag(entry, "single_word");
    setToken(impl, token.id, token.content, token.special ? TokenKind::kSpecial : TokenKind::kAdded);
    impl.idOfToken.insertOrAssign(token.content, token.id);
    impl.addedTokenStartsWith[static_cast<unsigned char>(token.content[0])] = true;
    impl.addedTokens.push_back(std::move(token));
  }
  std::stable_sort(
      impl.addedTokens.begin(), impl.addedTokens.end(),
      [](const AddedToken& a, const AddedToken& b) { return a.content.size() > b.content.size(); });
}

void readConfig(const std::filesystem::path& file, Tokenizer::Impl& impl) {
  const Json config = readJsonFile(file);
  const Json* eos = member(config, "eos_token");
  if (!eos) return;
  const Json* content = eos->is_object() ? member(*eos, "content") : eos;
  if (!content || !content->is_string()) fail(file, {MessageText::TokenizerEosNotToken, {describe(*eos)}});
  impl.eos = impl.idOfToken.find(content->get_ref<const std::string&>());
  if (!impl.eos) fail(file, {MessageText::TokenizerEosUnknown, {describe(*eos)}});
}

}  // namespace

void Tokenizer::Impl::encodeWord(std::string_view word, std::vector<TokenId>& out) const {
  if (ignoreMerges) {
    if (const std::optional<TokenId> id = idOfBytes.find(word)) {
      out.push_back(*id);
      return;
    }
  }
  // Single bytes need no merging and long words rarely repeat: neither is worth a cache entry.
  if (word.size() == 1 || word.size() > WordCache::kMaxWordBytes) {
    bpe->encode(word, out);
    return;
  }
  if (cache.lookup(word, out)) return;
  const std::size_t start = out.size();
  bpe->encode(word, out);
  cache.store(word, std::span<const TokenId>(out).subspan(start));
}

void Tokenizer::Impl::encodeSection(std::string_view text, std::vector<TokenId>& out) const {
  if (text.empty()) return;
  std::string normalized;
  if (addPrefixSpace && text.front() != ' ') normalized.push_back(' ');
  if (normalizeNfc) {
    nfc::appendNormalized(normalized, text);
  } else {
    normalized.append(text);
  }
  thread_local std::vector<std::string_view> pieces, next;
  pieces.clear();
  pieces.push_back(normalized);
  for (const auto& splitter : splitters) {
    next.clear();
    for (std::string_view piece : pieces)
      splitter->split(piece, next);
    std::swap(pieces, next);
  }
  for (std::string_view piece : pieces) {
    if (!piece.empty()) encodeWord(piece, out);
  }
}

void Tokenizer::Impl::encodeWithAddedTokens(std::string_view text, std::vector<TokenId>& out) const {
  // Leftmost-longest matching of added tokens on the raw text, as tokenizers and transformers.js
  // do; the sections between them are normalized and pre-tokenized on their own.
  std::size_t sectionStart = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    if (!addedTokenStartsWith[static_cast<unsigned char>(text[pos])]) {
      ++pos;
      continue;
    }
    const AddedToken* match = nullptr;
    for (const AddedToken& token : addedTokens) {
      if (text.compare(pos, token.content.size(), token.content) != 0) continue;
      if (token.singleWord) {
        const std::size_t end = pos + token.content.size();
        std::size_t after = end;
        if ((pos > 0 && isWordCharacter(lastCodePoint(text.substr(0, pos)))) ||
            (end < text.size() && isWordCharacter(utf8::decodeValid(text, after)))) {
          continue;
        }
      }
      match = &token;
      break;
    }
    if (!match) {
      ++pos;
      continue;
    }
    std::string_view section = text.substr(sectionStart, pos - sectionStart);
    if (match->lstrip) {
      while (!section.empty() && isWhitespace(lastCodePoint(section))) {
        std::size_t cut = section.size() - 1;
        while (cut > 0 && (static_cast<unsigned char>(section[cut]) & 0xC0) == 0x80)
          --cut;
        section = section.substr(0, cut);
      }
    }
    encodeSection(section, out);
    out.push_back(match->id);
    pos += match->content.size();
    if (match->rstrip) {
      while (pos < text.size()) {
        std::size_t after = pos;
        if (!isWhitespace(utf8::decodeValid(text, after))) break;
        pos = after;
      }
    }
    sectionStart = pos;
  }
  encodeSection(text.substr(sectionStart), out);
}

Tokenizer::Tokenizer(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
Tokenizer::~Tokenizer() = default;

std::shared_ptr<const Tokenizer> Tokenizer::load(const std::filesystem::path& path) {
  std::error_code ec;
  const bool isDirectory = std::filesystem::is_directory(path, ec);
  const std::filesystem::path file = isDirectory ? path / "tokenizer.json" : path;
  if (!std::filesystem::is_regular_file(file, ec)) {
    throw MessageError({MessageText::TokenizerMissing, {file.string()}});
  }
  auto impl = std::make_unique<Impl>();
  impl->source = file;
  {
    TokenizerFile contents;
    readTokenizerFile(file, contents);
    const Json& root = contents.settings;
    if (!root.is_object()) fail(file, {MessageText::TokenizerNotObject, {}});
    readModel(file, contents, *impl);
    readAddedTokens(file, root, *impl);
    readNormalizer(file, root.value("normalizer", Json()), *impl);
    readPreTokenizer(file, root.value("pre_tokenizer", Json()), *impl, true);
    readDecoder(file, root.value("decoder", Json()));
  }
  const std::filesystem::path config = file.parent_path() / "tokenizer_config.json";
  if (std::filesystem::is_regular_file(config, ec)) readConfig(config, *impl);
  return std::shared_ptr<const Tokenizer>(new Tokenizer(std::move(impl)));
}

std::vector<TokenId> Tokenizer::encode(std::string_view text) const {
  std::vector<TokenId> out;
  out.reserve(text.size() / 3 + 4);
  if (utf8::isValid(text)) {
    m_impl->encodeWithAddedTokens(text, out);
  } else {
    m_impl->encodeWithAddedTokens(utf8::replaceInvalid(text), out);
  }
  return out;
}

std::vector<TokenId> Tokenizer::encodeOrdinary(std::string_view text) const {
  std::vector<TokenId> out;
  out.reserve(text.size() / 3 + 4);
  if (utf8::isValid(text)) {
    m_impl->encodeSection(text, out);
  } else {
    m_impl->encodeSection(utf8::replaceInvalid(text), out);
  }
  return out;
}

std::string Tokenizer::decode(std::span<const TokenId> ids, bool skipSpecialTokens) const {
  std::string bytes;
  for (TokenId id : ids) {
    if (!m_impl->contains(id)) {
      throw MessageError({MessageText::TokenizerUnknownId,
                          {std::to_string(id), m_impl->source.string(), std::to_string(vocabSize())}});
    }
    if (skipSpecialTokens && m_impl->kindOf(id) == TokenKind::kSpecial) continue;
    bytes.append(m_impl->bytesOf(id));
  }
  if (utf8::isValid(bytes)) return bytes;
  return utf8::replaceInvalid(bytes);
}

std::string_view Tokenizer::tokenBytes(TokenId id) const {
  return m_impl->bytesOf(id);
}

std::optional<TokenId> Tokenizer::tokenToId(std::string_view token) const {
  return m_impl->idOfToken.find(token);
}

std::size_t Tokenizer::vocabSize() const {
  return m_impl->tokens.size();
}

std::size_t Tokenizer::modelVocabSize() const {
  return m_impl->modelVocabSize;
}

bool Tokenizer::isSpecial(TokenId id) const {
  return m_impl->kindOf(id) == TokenKind::kSpecial;
}

bool Tokenizer::isAddedToken(TokenId id) const {
  const TokenKind kind = m_impl->kindOf(id);
  return kind == TokenKind::kSpecial || kind == TokenKind::kAdded;
}

std::optional<TokenId> Tokenizer::eosTokenId() const {
  return m_impl->eos;
}

const std::filesystem::path& Tokenizer::sourcePath() const {
  return m_impl->source;
}

IncrementalDecoder::IncrementalDecoder(const Tokenizer& tokenizer, bool skipSpecialTokens)
    : m_tokenizer(&tokenizer), m_skipSpecial(skipSpecialTokens) {}

std::string IncrementalDecoder::push(TokenId id) {
  if (m_tokenizer->tokenBytes(id).empty()) {
    const TokenId unknown[] = {id};
    m_tokenizer->decode(unknown);  // throws the error that names the id
  }
  if (m_skipSpecial && m_tokenizer->isSpecial(id)) return {};
  m_pending.append(m_tokenizer->tokenBytes(id));
  const std::size_t complete = utf8::completePrefixLength(m_pending);
  std::string text = utf8::replaceInvalid(std::string_view(m_pending).substr(0, complete));
  m_pending.erase(0, complete);
  return text;
}

std::string IncrementalDecoder::flush() {
  std::string text = utf8::replaceInvalid(m_pending);
  m_pending.clear();
  return text;
}

std::filesystem::path defaultTokenizerDir() {
  if (const char* dir = std::getenv("AYAR_TOKENIZER_DIR"); dir && *dir) return dir;
  std::filesystem::path cache;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
    cache = xdg;
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    cache = std::filesystem::path(home) / ".cache";
  } else {
    cache = std::filesystem::temp_directory_path();
  }
  return cache / "ayar" / "tokenizers" / "qwen3";
}

}  // namespace ayar
