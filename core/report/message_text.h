#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
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
  // What a run is doing (RunObserver::onStage) and why it stopped.
  StageLines,    // {0}: lines already said in each language
  StageWarning,  // {0}: the warning
  StageLoadingTokenizer,
  StageBuildingDataset,  // {0}: the profile in brief
  StageUsingEngine,      // {0}: its address
  StageChecking,         // {0}: the endpoint
  StageStarting,         // {0}: the engine, {1}: the model
  StageEngineReady,      // {0}: its address, {1}: its command line
  StageSimulated,
  StageIgnoreEosForced,
  StageGreedy,
  StageNotReady,  // {0}: why
  StageTestRequest,
  StageWarmingUp,  // {0}: how many
  StageRunning,    // {0}: the load (Load*), {1}: requests, {2}: where
  StageStopping,
  StageNoRealtime,
  StageProfilerDone,    // {0}: the URL
  StageProfilerFailed,  // {0}: the URL, {1}: why
  StageNoTokenize,      // {0}: the server
  StageTokenizeAgrees,
  StageTokenizeDiffersKept,  // {0}: the server's count, {1}: Qwen3's
  StageTokenizeDiffersCut,   // {0}: the server's count, {1}: Qwen3's
  StagePromptsCut,           // {0}: cut, {1}: all
  DatasetSyntheticStandIn,
  DatasetSynthetic,
  LoadRate,  // {0}: requests per second
  LoadAllAtOnce,
  LoadConcurrent,  // {0}: streams
  LoadThroughput,
  LoadSynchronous,
  LoadRampUp,            // {0}: linear or exponential, {1}, {2}: the rates
  StudyRecommended,      // {0}: the configuration
  StudyStartingEngine,   // {0}: the configuration
  StudyEngineFailed,     // {0}: the configuration, {1}: why
  StudyEngineReady,      // {0}: the configuration, {1}: its command line
  StudyStoppingEngine,   // {0}: the configuration
  RunTestRequestFailed,  // {0}: the URL, {1}: the server's answer
  EngineExited,          // {0}: the engine, {1}: how it ended, {2}: the health URL
  EngineNotReady,        // {0}: the engine, {1}: the health URL, {2}: the time, {3}: the last answer
  EngineStartCancelled,  // {0}: the engine
  EngineStartDetails,    // {0}: the command, {1}: the log file
  EngineLogTail,         // {0}: the lines
  EngineSilent,
  RemoteWantsKey,       // {0}: the endpoint, {1}: the HTTP status
  RemoteKeyRefused,     // {0}: the endpoint, {1}: the HTTP status, {2}: where the key came from
  RemoteUnreachable,    // {0}: the endpoint, {1}, {2}: the two answers
  RunNoTokenizer,       // {0}: where it was looked for
  RunModelsUnanswered,  // {0}: the server, {1}: why
  RunModelsEmpty,       // {0}: the server
  // What bounds a run's memory and what the server can take (ProfileSpec::validate, BenchmarkRun).
  ProfileWholeNumber,      // {0}: the field, {1}: the value as written, {2}: the lowest, {3}: the highest
  ProfileTooManyPrompts,   // {0}: the count, {1}: the limit
  ProfileRequestTooLong,   // {0}: the fields, {1}: the tokens, {2}: the limit
  ProfilePromptsTooLarge,  // {0}: the fields, {1}: the tokens, {2}: the limit
  RunBeyondContext,        // {0}: prompt tokens, {1}: output tokens, {2}: the model, {3}: its context,
                           // {4}: the fields that set the lengths
  RunEngineDied,           // {0}: the engine, {1}: how it ended, {2}: finished requests, {3}: all requests,
                           // {4}: its log
  InputIsFolder,           // {0}: the path, {1}: what file it should be (InputKind*)
  InputKindStudy,
  InputKindProfile,
  InputKindEngineTemplate,
  // Reading other programs' result files (runs import, compare, report).
  JsonTooDeep,            // {0}: the file, {1}: the deepest nesting read
  ImportFileTooLarge,     // {0}: the file, {1}: its size in MB, {2}: the largest read, in MB
  ImportOutOfMemory,      // {0}: the file, {1}: its size in MB
  ImportImpossibleValue,  // {0}: the file, {1}: the field, {2}: the value, {3}: why (json_input.h)
  ImportNoRequestCount,   // {0}: the file, {1}: the fields looked for
  ImportNoDuration,       // {0}: the file, {1}: the fields looked for
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

// A number as each language writes it: "2.5" and "2,5".
MessageArgument numberArgument(double value);
// A count grouped by thousands as each language writes it: "16,777,216" and "16.777.216".
MessageArgument countArgument(long long value);

// A message with its arguments, to be said in whichever language the reader has.
struct Message {
  MessageText id = MessageText::Count_;
  std::vector<MessageArgument> args;

  std::string in(ReportLanguage language) const;
  bool empty() const { return id == MessageText::Count_; }
  // The message said in each language, as another message's argument.
  MessageArgument asArgument() const { return {in(ReportLanguage::English), in(ReportLanguage::Turkish)}; }
};

// An ayar::Error that keeps its message as a Message: what() is the English, and a front end in
// another language says message() instead.
class MessageError : public Error {
 public:
  explicit MessageError(Message message)
      : Error(message.in(ReportLanguage::English)), m_message(std::move(message)) {}
  const Message& message() const { return m_message; }

 private:
  Message m_message;
};

// What an exception says in `language`: its Message when it has one, else its English what().
std::string errorText(const std::exception& error, ReportLanguage language);

}  // namespace ayar
