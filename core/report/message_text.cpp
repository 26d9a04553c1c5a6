#include "core/report/message_text.h"

#include <cassert>
#include <cctype>

namespace ayar {

namespace {

struct Phrase {
  MessageText id;
  std::string_view english;
  std::string_view turkish;
};

constexpr Phrase kPhrases[] = {
    {MessageText::FlagNeedsDash, "Flag \"{0}\" must start with a dash (write \"--{0}\").",
     "\"{0}\" bayrağı tireyle başlamalı (\"--{0}\" yazın)."},
    {MessageText::FlagSetByAyar,
     "{0} is set by Ayar from the engine settings (model, host, port, served model name, device, API key); "
     "remove it from the flags.",
     "{0}: bunu Ayar motor ayarlarından (model, sunucu, port, sunulan model adı, aygıt, API anahtarı) "
     "kendisi verir; bayraklardan çıkarın."},
    {MessageText::FlagGivenTwice, "{0} is given twice; keep one.", "{0} iki kez verilmiş; birini bırakın."},
    {MessageText::FlagUnknown, "{0} is not a flag of {1}. Its flags are: {2}.",
     "{0}, {1} motorunun bayraklarından biri değil. Bayrakları şunlar: {2}."},
    {MessageText::FlagNotInCatalogue,
     "{0} is not in Ayar's catalogue of {1} flags; it is passed as written, unchecked.",
     "{0}, Ayar'ın {1} bayrak kataloğunda yok; denetlenmeden, yazıldığı gibi geçirilir."},
    {MessageText::FlagNegationNoValue, "{0} takes no value; it turns {1} off.",
     "{0} değer almaz; {1} seçeneğini kapatır."},
    {MessageText::FlagNeedsValue, "{0} needs a value ({1}).", "{0} bir değer ister ({1})."},
    {MessageText::FlagRangeBetween, "{0} is {1}; it must be between {2} and {3}.",
     "{0} için {1} verilmiş; {2} ile {3} arasında olmalı."},
    {MessageText::FlagRangeAtLeast, "{0} is {1}; it must be at least {2}.",
     "{0} için {1} verilmiş; en az {2} olmalı."},
    {MessageText::FlagRangeAtMost, "{0} is {1}; it must be at most {2}.",
     "{0} için {1} verilmiş; en fazla {2} olmalı."},
    {MessageText::FlagSwitchValue, "{0} is a switch: give it no value, or true/false, not \"{1}\".",
     "{0} bir açma/kapama anahtarı: değer vermeyin ya da true/false verin, \"{1}\" değil."},
    {MessageText::FlagWholeNumber, "{0} needs a whole number, not \"{1}\".",
     "{0} bir tam sayı ister, \"{1}\" değil."},
    {MessageText::FlagNumber, "{0} needs a number (like {2}), not \"{1}\".",
     "{0} bir sayı ister (örneğin {2}), \"{1}\" değil."},
    {MessageText::FlagChoice, "{0} is \"{1}\"; use one of: {2}.",
     "{0} için \"{1}\" verilmiş; şunlardan birini kullanın: {2}."},
    {MessageText::FlagChoiceOpen,
     "{0} is \"{1}\", not one of the values Ayar knows ({2}); it is passed as written.",
     "{0} için \"{1}\" verilmiş; bu, Ayar'ın bildiği değerlerden ({2}) biri değil; yazıldığı gibi "
     "geçirilir."},
    {MessageText::FlagEmpty, "{0} needs a value.", "{0} bir değer ister."},
    {MessageText::FlagPattern, "{0} is \"{1}\", which the engine does not take. {2}",
     "{0} için \"{1}\" verilmiş; motor bu biçimi kabul etmez. {2}"},
    {MessageText::FlagJson, "{0} needs a JSON object (like {2}), not \"{1}\".",
     "{0} bir JSON nesnesi ister (örneğin {2}), \"{1}\" değil."},
};
static_assert(std::size(kPhrases) == static_cast<std::size_t>(MessageText::Count_),
              "every MessageText needs its row in kPhrases");

constexpr bool inOrder() {
  for (std::size_t i = 0; i < std::size(kPhrases); ++i) {
    if (static_cast<std::size_t>(kPhrases[i].id) != i) return false;
  }
  return true;
}
static_assert(inOrder(), "kPhrases rows must follow the MessageText order");

}  // namespace

std::string_view messageText(MessageText id, ReportLanguage language) {
  const Phrase& phrase = kPhrases[static_cast<std::size_t>(id)];
  return language == ReportLanguage::Turkish ? phrase.turkish : phrase.english;
}

std::string fillPlaceholders(std::string_view pattern, const std::vector<std::string_view>& args) {
  std::string out;
  out.reserve(pattern.size() + 32);
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    std::size_t k = i + 1;
    std::size_t index = 0;
    while (pattern[i] == '{' && k < pattern.size() && std::isdigit(static_cast<unsigned char>(pattern[k]))) {
      index = index * 10 + static_cast<std::size_t>(pattern[k] - '0');
      ++k;
    }
    if (k > i + 1 && k < pattern.size() && pattern[k] == '}') {
      assert(index < args.size());
      if (index < args.size()) out += args[index];
      i = k;
    } else {
      out += pattern[i];
    }
  }
  return out;
}

std::string Message::in(ReportLanguage language) const {
  if (empty()) return {};
  std::vector<std::string_view> values;
  values.reserve(args.size());
  for (const MessageArgument& arg : args)
    values.emplace_back(language == ReportLanguage::Turkish ? arg.turkish : arg.english);
  return fillPlaceholders(messageText(id, language), values);
}

}  // namespace ayar
