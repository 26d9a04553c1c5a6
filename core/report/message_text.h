#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "core/report/report_text.h"

namespace ayar {

// What core says to a person outside the reports (what is wrong with an input, what a run is
// doing), written once here in both languages, as ReportText is for reports: ayar-cli prints the
// English, the workbench the UI's language. "{0}", "{1}", ... mark the arguments. To add a message:
// add the id here and its row to the table in message_text.cpp, in the same order (a static_assert
// checks it).
enum class MessageText {
  // Engine flags against the engine's catalogue (checkFlags).
  FlagNeedsDash,        // {0}: the name as given
  FlagSetByAyar,        // {0}: the flag
  FlagGivenTwice,       // {0}: the flag
  FlagUnknown,          // {0}: the flag, {1}: the engine, {2}: its flags
  FlagNotInCatalogue,   // {0}: the flag, {1}: the engine
  FlagNegationNoValue,  // {0}: the negation, {1}: the flag it turns off
  FlagNeedsValue,       // {0}: the flag, {1}: its type
  FlagRangeBetween,     // {0}: the flag, {1}: the value, {2}: the lowest, {3}: the highest
  FlagRangeAtLeast,     // {0}: the flag, {1}: the value, {2}: the lowest
  FlagRangeAtMost,      // {0}: the flag, {1}: the value, {2}: the highest
  FlagSwitchValue,      // {0}: the flag, {1}: the value
  FlagWholeNumber,      // {0}: the flag, {1}: the value
  FlagNumber,           // {0}: the flag, {1}: the value, {2}: an example
  FlagChoice,           // {0}: the flag, {1}: the value, {2}: the choices
  FlagChoiceOpen,       // {0}: the flag, {1}: the value, {2}: the choices Ayar knows
  FlagEmpty,            // {0}: the flag
  FlagPattern,          // {0}: the flag, {1}: the value, {2}: the flag's description
  FlagJson,             // {0}: the flag, {1}: the value, {2}: an example
  Count_
};

std::string_view messageText(MessageText id, ReportLanguage language);

// A pattern's "{i}" replaced by args[i]; other braces stay as written. A placeholder without an
// argument is a bug (assert).
std::string fillPlaceholders(std::string_view pattern, const std::vector<std::string_view>& args);

// An argument that reads differently by language (a description written in both); most are the same
// in both (a flag name, a value as typed).
struct MessageArgument {
  std::string english;
  std::string turkish;
  MessageArgument(std::string both)
      : english(both), turkish(std::move(both)) {}  // NOLINT: implicit on purpose
  MessageArgument(std::string en, std::string tr) : english(std::move(en)), turkish(std::move(tr)) {}
};

// A message with its arguments, to be said in whichever language the reader has.
struct Message {
  MessageText id = MessageText::Count_;
  std::vector<MessageArgument> args;

  std::string in(ReportLanguage language) const;
  bool empty() const { return id == MessageText::Count_; }
};

}  // namespace ayar
