#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/report/report_locale.h"

namespace ayar {

// What core says to a person outside the reports (what is wrong with an input, what a run is
// doing), written once here in both languages, as ReportText is for reports: ayar-cli prints the
// English, the workbench the UI's language. "{0}", "{1}", ... mark the arguments. To add a message:
// add the id here and its row to the table of its area (message_text.cpp includes one message_rows_*.inc
// per area, in the order of the groups below), in the same order (a static_assert checks it). The
// catalogue is a library of its own (ayar_core_messages) so that every part of core can link it.
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
  // ---- Messages that put others together (message_rows_general.inc) ----
  // A field of an input and what is wrong with it (the same in both languages; the parts are said in each).
  FieldProblem,  // {0}: the input, {1}: the field, {2}: what is wrong
  // ---- Studies and profiles (message_rows_study.inc) ----
  // Where a study comes from (the input of FieldProblem).
  StudySourceFile,    // {0}: the path
  StudySourceStored,  // {0}: the study id
  StudySourceNamed,   // {0}: the study name
  // What is wrong with a study field (the last part of FieldProblem).
  StudyFieldUnknown,  // {0}: the known fields
  StudyFieldMissing,
  StudyFieldNotString,  // {0}: the value
  StudyFieldEmpty,
  StudyTextShape,
  StudyTextLanguage,
  StudyTextNotString,
  StudyFlagDash,
  StudyFlagsNotList,
  StudyProfileShape,
  StudyInlineProfileName,
  StudyProfilesMissing,
  StudyProfilesNotList,
  StudyProfilesEmpty,
  StudyProfilesNone,
  StudyMilliseconds,  // {0}: the value
  StudyBaselineMissing,
  StudyNotList,
  StudyVariantShape,
  StudyNameTwice,  // {0}: the name
  StudyRemoveFlagsShape,
  StudyEngineOrFlags,
  StudyVariantChangesNothing,
  StudyProfileTwice,  // {0}: the profile
  StudySloShape,
  StudyGoodputNeedsSlo,
  StudyWarmupRange,  // {0}: the value
  StudyNotNegative,
  // Study files and studies as a whole.
  StudyNotObject,  // {0}: the input
  StudyNameEmpty,
  StudyUnknown,                // {0}: the name, {1}: the studies
  StudyFileUnreadable,         // {0}: the path
  StudyFileNotJson,            // {0}: the path, {1}: the parser's words
  StudyVariantSameAsBaseline,  // {0}: the study, {1}: the variant, {2}: its flags (or StudyNoFlags)
  StudyNoFlags,
  StudyNotInStore,         // {0}: the id, {1}: the store
  StudyCellConfiguration,  // {0}: the study id, {1}: the cell, {2}: the configuration
  StudyCellProfile,        // {0}: the study id, {1}: the cell, {2}: the profile
  ReportNoRunIds,
  ReportNoRun,  // {0}: the id, {1}: the store
  // Searches (tune, capacity).
  TuneRemote,
  TuneNoFlag,
  TuneNoValues,
  TuneValuesOrder,
  CapacityNeedsSlo,
  CapacityStartRate,
  CapacityMaxRate,
  // Profiles (profile_spec): fields and files.
  ProfileFieldNotRate,     // {0}: the field, {1}: the value
  ProfileFieldWrongType,   // {0}: the field, {1}: the value
  ProfileFieldLanguages,   // {0}: the field
  ProfileFieldNotString,   // {0}: the field
  ProfileLoadModeUnknown,  // {0}: the mode
  ProfileNotObject,
  ProfileFieldUnknown,    // {0}: the field
  ProfileFileUnreadable,  // {0}: the path
  ProfileFileNotJson,     // {0}: the path, {1}: the parser's words
  ProfileFileProblem,     // {0}: the path, {1}: what is wrong
  ProfileUnknown,         // {0}: the name, {1}: the profiles
  // Profiles (profile_spec): values that do not fit.
  ProfileDatasetUnknown,  // {0}: the dataset
  ProfileNumPrompts,      // {0}: the value
  ProfileAtLeastOne,      // {0}: the flag
  ProfileNotNegative,     // {0}: the flag
  ProfileRangeRatio,
  ProfilePrefixRepetition,
  ProfileTopP,
  ProfileMinP,
  ProfileRepetitionPenalty,
  ProfileRampUpUnknown,  // {0}: the strategy
  ProfileRampUpWithRate,
  ProfileRampUpNegative,
  ProfileRampUpOrder,
  ProfileRampUpStart,
  ProfileRampUpMode,
  ProfileRequestRate,
  ProfileBurstiness,
  ProfileBackendUnknown,  // {0}: the backend
  // ---- Datasets (message_rows_dataset.inc) ----
  // ShareGPT files.
  ShareGptNumPrompts,  // {0}: the count
  ShareGptOutputLen,   // {0}: the length
  ShareGptMissing,     // {0}: the path
  ShareGptUnreadable,  // {0}: the path
  ShareGptBadShape,    // {0}: the path, {1}: what is wrong
  ShareGptNotParsed,
  ShareGptNotJsonAt,  // {0}: the byte, {1}: the parser's words
  ShareGptTopLevelObject,
  ShareGptTopLevelValue,
  ShareGptTooFew,  // {0}: the path, {1}: usable entries, {2}: all entries, {3}: prompts asked for
  // Generated datasets: random, synthetic ShareGPT-like, prefix repetition.
  RandomNumPrompts,  // {0}: the count
  RandomRangeRatio,  // {0}: the value
  RandomNegative,
  RandomEmptyPrompt,    // {0}: the input length, {1}: the range ratio
  RandomNoVocabulary,   // {0}: the tokenizer file
  SyntheticNumPrompts,  // {0}: the count
  SyntheticMeanInput,   // {0}: the mean
  SyntheticMeanOutput,  // {0}: the mean
  SyntheticSigma,
  SyntheticOutputLen,   // {0}: the length
  PrefixNumPrefixes,    // {0}: the value
  PrefixTooFewPrompts,  // {0}: prompts, {1}: prefixes
  PrefixLengths,
  PrefixOutputLen,
  VocabularyTooFewWords,  // {0}: the tokenizer file, {1}: the count
  // ---- Engines (message_rows_engines.inc) ----
  // Engine specs (engine_spec): {0} is where in the spec (SpecContext, SpecFlagContext, ...).
  SpecContext,
  SpecFlagContext,  // {0}: the flag as written
  SpecEnvironmentContext,
  SpecEnvironmentVariableContext,  // {0}: where, {1}: the variable
  SpecFlagValueContext,            // {0}: the flag context
  JsonTypeNumber,
  JsonTypeObject,
  JsonTypeArray,
  JsonTypeString,
  JsonTypeBoolean,
  SpecNotString,              // {0}: where, {1}: the key, {2}: the JSON type
  SpecNotScalar,              // {0}: where, {1}: the JSON type
  SpecKindUnknown,            // {0}: where, {1}: the kind
  SpecApiKeyUnset,            // {0}: the variable
  SpecRemoteNeedsUrl,         // {0}: where
  SpecBaseUrlScheme,          // {0}: where, {1}: the URL
  SpecModelEmpty,             // {0}: where
  SpecEngineEmpty,            // {0}: where
  SpecHostEmpty,              // {0}: where
  SpecPortRangeFree,          // {0}: where, {1}: the port
  SpecFlagNameEmpty,          // {0}: where
  SpecFlagDash,               // {0}: where, {1}: the flag
  SpecRawWithValue,           // {0}: where, {1}: the argument
  SpecEnvironmentName,        // {0}: where, {1}: the name
  SpecFlagShape,              // {0}: the flag context
  SpecFlagUnknownKey,         // {0}: the flag context, {1}: the key
  SpecRawAlone,               // {0}: the flag context
  SpecFlagNoName,             // {0}: the flag context
  SpecNotObject,              // {0}: where, {1}: the JSON type
  SpecApiKeyInFile,           // {0}: where
  SpecFieldUnknown,           // {0}: where, {1}: the field
  SpecExternalNeedsEngine,    // {0}: where
  SpecBundledIsAyar,          // {0}: where, {1}: the engine
  SpecPortNotInteger,         // {0}: where, {1}: the value
  SpecPortRange,              // {0}: where, {1}: the port
  SpecFlagsNotList,           // {0}: where, {1}: the JSON type
  SpecEnvironmentEntryShape,  // {0}: where
  SpecEnvironmentShape,       // {0}: where
  // Starting an engine (engine_launcher, process).
  LauncherBundledIsAyar,   // {0}: the engine
  LauncherDeviceUnknown,   // {0}: the device, {1}: the engine, {2}: its devices
  LauncherBundledMissing,  // {0}: the program, {1}: the folder (or LauncherThisProgram), {2}: PATH
  LauncherThisProgram,
  LauncherStartFailed,         // {0}: why, {1}: the engine, {2}: the command
  PortSocketFailed,            // {0}: the system's words
  PortHostNotIp,               // {0}: the host
  PortBindFailed,              // {0}: the host, {1}: the system's words
  ProcessMissing,              // {0}: the program, {1}: the path
  ProcessIsFolder,             // {0}: the program, {1}: the path
  ProcessNotExecutable,        // {0}: the program, {1}: the path
  ProcessInPathNotExecutable,  // {0}: the program, {1}: the path
  ProcessNotInPath,            // {0}: the program, {1}: PATH
  ProcessNoWorkingFolder,      // {0}: the program, {1}: the folder
  ProcessLogUnwritable,        // {0}: the log file, {1}: the program, {2}: the system's words
  ProcessNoPipe,               // {0}: the program, {1}: the system's words
  ProcessSpawnFailed,          // {0}: the program, {1}: the system's words
  ProcessSpawnFailedIn,        // {0}: the program, {1}: the system's words, {2}: the folder
  ProcessNoThread,             // {0}: the program, {1}: why
  ResourcesEnvNotFolder,       // {0}: the folder
  ResourcesNotFound,           // {0}: the places looked in, one a line
  // The engine templates catalogue (engine_catalogue).
  CatalogueUnreadable,     // {0}: the file
  CatalogueNotJson,        // {0}: the file, {1}: the parser's words
  CatalogueNameMismatch,   // {0}: the file, {1}: the name, {2}: the file name
  CatalogueNoFolder,       // {0}: the folder
  CatalogueListFailed,     // {0}: the folder, {1}: the system's words
  CatalogueEmpty,          // {0}: the folder
  CatalogueUnknownEngine,  // {0}: the name, {1}: the engines
  // What is wrong inside an engine template file (TemplateReader): the last part of FieldProblem
  // ({0}: the file, {1}: where in it), or of TemplateProblem when it is the file as a whole.
  TemplateProblem,             // {0}: the file, {1}: what is wrong
  TemplateFieldUnknown,        // {0}: the field, {1}: the known fields
  TemplateFieldMissing,        // {0}: the field
  TemplateFieldNotString,      // {0}: the field, {1}: the JSON type
  TemplateFieldEmpty,          // {0}: the field
  TemplateFieldNotScalar,      // {0}: the field, {1}: the JSON type
  TemplateFieldNotList,        // {0}: the field
  TemplateFieldNotBoolean,     // {0}: the field
  TemplateFieldNotNumber,      // {0}: the field
  TemplatePlaceholderOpen,     // {0}: the argument
  TemplatePlaceholderUnknown,  // {0}: the placeholder, {1}: the known ones
  TemplateFlagShape,
  TemplateFlagDash,  // {0}: the field ("name" or "false_flag")
  TemplateFlagType,  // {0}: the type as written
  TemplateChoicesNeeded,
  TemplateOnlyFor,  // {0}: the field, {1}: the flag types it is for
  TemplateMinAboveMax,
  TemplatePatternInvalid,  // {0}: the regular expression library's words
  TemplateDefaultMisfits,  // {0}: what is wrong with it
  TemplateDescriptionShape,
  TemplateNotObject,
  TemplateArgsShape,
  TemplateGroupStringsOnly,
  TemplateArgumentShape,
  TemplateArgsNeedPlaceholder,  // {0}: the placeholder
  TemplateHealthPath,
  TemplateStartupTimeout,
  TemplateFlagsShape,
  TemplateSpellingTaken,  // {0}: the spelling, {1}: the flag that has it
  // ---- The tokenizer (message_rows_tokenizer.inc) ----
  // Tokenizer files (tokenizer.json) and ids; details of an unsupported file stay as written.
  TokenizerMissing,     // {0}: the file
  TokenizerCannotOpen,  // {0}: the file
  TokenizerCannotRead,  // {0}: the file
  TokenizerNotUtf8,     // {0}: the file
  TokenizerNotJson,     // {0}: the file, {1}: the parser's words
  TokenizerNotJsonAt,   // {0}: the file, {1}: the byte, {2}: what was wrong there
  TokenizerContent,     // {0}: the file, {1}: what is wrong
  TokenizerNotObject,
  TokenizerModelUnsupported,       // {0}: the model type
  TokenizerNormalizerUnsupported,  // {0}: the normalizer
  TokenizerNoDecoder,
  TokenizerDecoderUnsupported,  // {0}: the decoder
  TokenizerUnknownId,           // {0}: the id, {1}: the file, {2}: how many ids
  // What is wrong inside a tokenizer.json (the last part of TokenizerContent).
  TokenizerNoType,          // {0}: the part, {1}: its value
  TokenizerSequenceNoList,  // {0}: the part, {1}: the list's key
  TokenizerSplitBehavior,   // {0}: the behavior
  TokenizerSplitInvert,
  TokenizerSplitNoPattern,
  TokenizerPrefixSpaceLate,
  TokenizerPreTokenizerUnsupported,  // {0}: the type
  TokenizerPreTokenizerRegex,  // {0}: the pattern, {1}: the offset, {2}: the regular expression library's
                               // words
  TokenizerRegexFailed,        // {0}: the regular expression library's words
  TokenizerNoModel,
  TokenizerByteFallback,
  TokenizerAffix,  // {0}: the field
  TokenizerDropout,
  TokenizerNoVocab,
  TokenizerVocabId,      // {0}: the token, {1}: the id as written
  TokenizerNoByteToken,  // {0}: the token, {1}: the byte
  TokenizerNoMerges,
  TokenizerMergeUnknown,  // {0}: the rank, {1}: the left token, {2}: the right one
  TokenizerMergeNotTwo,   // {0}: the rank, {1}: the merge as written (may be empty)
  TokenizerAddedNotList,
  TokenizerAddedShape,    // {0}: the entry
  TokenizerAddedNotUtf8,  // {0}: the entry
  TokenizerEosNotToken,   // {0}: the value
  TokenizerEosUnknown,    // {0}: the value
  // Where a tokenizer.json stops being JSON (the last part of TokenizerNotJsonAt).
  TokenizerJsonExpected,  // {0}: the character
  TokenizerJsonTrailing,
  TokenizerJsonExpectedString,
  TokenizerJsonTooDeep,
  TokenizerJsonUnexpected,
  TokenizerJsonUnexpectedEnd,
  TokenizerJsonDigitsAfterPoint,
  TokenizerJsonExponent,
  TokenizerJsonUnterminated,
  TokenizerJsonControl,
  TokenizerJsonEscape,
  TokenizerJsonUnicodeCut,
  TokenizerJsonUnicodeInvalid,
  // ---- The results store (message_rows_store.inc) ----
  // Opening and writing the results store.
  StoreFailed,      // {0}: the file, {1}: the step (Store*Step), {2}: the details (StoreDetails...)
  StoreDetails,     // {0}: SQLite's words
  StoreDetailsWhy,  // {0}: SQLite's words
  StoreStepOpening,
  StoreStepOpeningForWriting,
  StoreStepPreparing,
  StoreStepQuery,
  StoreStepStatement,
  StoreStepWal,
  StoreStepJournalMode,
  StoreAdviceNotADatabase,
  StoreAdviceCorrupt,
  StoreAdviceReadOnly,
  StoreAdviceCannotOpen,
  StoreAdvicePermission,
  StoreAdviceBusy,
  StoreAdviceFull,
  StoreAdviceIo,
  StoreAdviceMemory,
  StoreAdviceConstraint,
  StorePathEmpty,
  StoreCannotCreateFolder,  // {0}: the file, {1}: the folder, {2}: the system's words
  StoreIsFolder,            // {0}: the path, {1}: an example file in it
  StoreNewerSchema,         // {0}: the file, {1}: its schema version, {2}: the newest this build knows
  StoreForeignDatabase,     // {0}: the file
  StoreNoStudy,             // {0}: the file, {1}: the study id
  StoreWriterStopped,       // {0}: the file, {1}: the last error (or StoreFinishAgain)
  StoreFinishAgain,
  StoreNoHome,
  StoreChunkTimes,  // {0}: what they belong to, {1}: the size
  StoreNameRunStatus,
  StoreNameRunKind,
  StoreNameCellStatus,
  StoreUnknownName,  // {0}: what it names, {1}: the text, {2}: the valid names
  // ---- The load generator (message_rows_load.inc) ----
  // Arrival schedules (arrival_schedule).
  ArrivalBurstiness,     // {0}: the value
  ArrivalSeed,           // {0}: the seed
  ArrivalRate,           // {0}: the rate
  ArrivalRateTooLong,    // {0}: the rate, {1}: the requests
  ArrivalRampUpUnknown,  // {0}: the strategy
  ArrivalRampUpNegative,
  ArrivalRampUpOrder,  // {0}: the start, {1}: the end
  ArrivalRampUpStart,
  ArrivalRampUpTooLong,  // {0}: the requests
  ArrivalStreams,        // {0}: the value
  ArrivalSweepRange,     // {0}: the synchronous rate, {1}: the throughput rate
  ArrivalSweepCount,     // {0}: the value
  // Requests, the endpoint and the client (openai_request, stream_client, load_runner).
  LoadBackendUnknown,  // {0}: the backend
  LoadExtraNotObject,  // {0}: which extra body (LoadExtraBody*), {1}: the value
  LoadExtraBodyAll,
  LoadExtraBodyOne,
  LoadNoEndpoint,
  LoadEndpointScheme,   // {0}: the URL
  LoadOpenFiles,        // {0}: requests, {1}: files needed, {2}: the limit
  LoadScheduleSize,     // {0}: arrivals, {1}: requests
  LoadEndpointInvalid,  // {0}: the URL, {1}: libcurl's words
  LoadHeaderInvalid,    // {0}: the header
  LoadNoEventLoop,      // {0}: the system's words
  // ---- Figures and result files (message_rows_results.inc) ----
  // Figures and their options (metrics).
  FigureUnknown,            // {0}: the key, {1}: the figures
  SummaryPercentile,        // {0}: the percentile
  SummarySloNegative,       // {0}: the metric, {1}: the value
  SummaryDurationNegative,  // {0}: the duration
  SummaryMetricUnknown,     // {0}: the key
  SeriesBinWidth,           // {0}: the width
  SeriesTooLong,            // {0}: the span, {1}: the width
  // Report options and result files (report).
  ReportFormatUnknown,    // {0}: the format
  ReportLanguageUnknown,  // {0}: the code
  ReportStyleUnknown,     // {0}: the style
  CsvCannotWrite,         // {0}: the file
  CsvWriteFailed,         // {0}: the file
  ResultCannotWrite,      // {0}: the file
  ResultWriteFailed,      // {0}: the file
  ResultCannotOpen,       // {0}: the file
  ResultNotJson,          // {0}: the file, {1}: the parser's words
  ResultEmpty,            // {0}: the file
  ResultNotObject,        // {0}: the file, {1}: the JSON type
  ResultNoResult,         // {0}: the file
  ResultField,            // {0}: the file, {1}: the field, {2}: what is wrong (Result*)
  ResultNotNumber,
  ResultNotCount,
  ResultNotString,
  ResultNotList,
  ResultErrorWithoutMessage,
  ResultListSizes,  // {0}: its entries, {1}: the others'
  ResultNotFinite,  // {0}: the position
  // ---- Bounds of a run, the engine during a run, input files, imported results ----
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
  StudyFieldControlCharacter,  // {0}: the byte as \xNN, {1}: where it is
  // Reading other programs' result files (runs import, compare, report).
  JsonTooDeep,            // {0}: the file, {1}: the deepest nesting read
  ImportFileTooLarge,     // {0}: the file, {1}: its size in MB, {2}: the largest read, in MB
  ImportOutOfMemory,      // {0}: the file, {1}: its size in MB
  ImportImpossibleValue,  // {0}: the file, {1}: the field, {2}: the value, {3}: why (json_input.h)
  ImportNoRequestCount,   // {0}: the file, {1}: the fields looked for
  ImportNoDuration,       // {0}: the file, {1}: the fields looked for
  // ---- Reading other programs' result files (message_rows_import.inc) ----
  ImportKnownFormats,
  ImportIsFolder,        // {0}: the path, {1}: ImportKnownFormats
  ImportCannotOpen,      // {0}: the path
  ImportNotJson,         // {0}: the path, {1}: how it starts, {2}: ImportKnownFormats
  ImportNotObject,       // {0}: the path, {1}: the JSON type, {2}: ImportKnownFormats
  ImportUnknownFormat,   // {0}: the path, {1}: ImportKnownFormats
  ImportRecordsNotJson,  // {0}: the file and line, {1}: the parser's words, {2}: what was expected
  ImportRecordsEmpty,    // {0}: the file, {1}: what was expected
  // A field of another program's file (JsonField): {0}: the file, {1}: the field (ImportField or
  // ImportTopLevel), {2}: what is wrong, {3}: what the file was read as (ImportExpect*).
  ImportFieldProblem,
  ImportField,  // {0}: the path from the root
  ImportTopLevel,
  ImportExpectGuidellm,
  ImportExpectAiperfRecords,
  ImportExpectAiperf,
  ImportExpectGenaiPerf,
  ImportIsMissing,
  ImportWrongType,  // {0}: the JSON type, {1}: what it should be (ImportWant*)
  ImportWantObject,
  ImportWantList,
  ImportWantNumber,
  ImportWantString,
  ImportWantBoolean,
  ImportNotWholeNumber,  // {0}: the value
  ImportNotGenerative,   // {0}: the benchmark type
  ImportNoBenchmark,
  ImportNotTimeUnit,  // {0}: the unit
  ImportNoLatencyMetric,
  // Notes stored with an imported run: what was read, left out, or taken as written.
  ImportNoteGuidellmRecomputed,  // {0}: requests
  ImportNoteGuidellmOutside,     // {0}: requests
  ImportNoteGuidellmTwoTimes,
  ImportNoteGuidellmNoConcurrency,
  ImportNoteGuidellmNoRequests,
  ImportNoteGuidellmSample,
  ImportNoteGuidellmDistributions,
  ImportNoteNoInputConfig,
  ImportNoteNoOutputTokens,
  ImportNoteNoInputTokens,
  ImportNoteNoPeaks,
  ImportNoteNoRecordsFile,
  ImportNoteWarmupLeftOut,         // {0}: requests
  ImportNoteAiperfRecomputed,      // {0}: requests, {1}: the file
  ImportNoteAiperfRecomputedSpan,  // {0}: requests, {1}: the file
  ImportNoteAiperfNoDue,
  ImportNoteSecret,
  ImportNoteNoDetails,
  ImportNoteNoStartTimes,
  ImportNoteNoItls,
  ImportNoteVllmRecomputed,  // {0}: requests
  ImportNoteGoodput,
  ImportNoteVllmNoDue,
  ImportNoteStartFromFileTime,
  ImportDifference,  // {0}: the figure, {1}: the file's value, {2}: the requests'
  // Writing a report file (the workbench's exports).
  ReportCannotWrite,  // {0}: the file, {1}: the system's words (may be empty)
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
      : english(both), turkish(std::move(both)) {}                           // NOLINT: implicit on purpose
  MessageArgument(const char* both) : MessageArgument(std::string(both)) {}  // NOLINT: as above
  MessageArgument(std::string en, std::string tr) : english(std::move(en)), turkish(std::move(tr)) {}
  const std::string& in(ReportLanguage language) const {
    return language == ReportLanguage::Turkish ? turkish : english;
  }
};

// A number as each language writes it: "2.5" and "2,5".
MessageArgument numberArgument(double value);
// A count grouped by thousands as each language writes it: "16,777,216" and "16.777.216".
MessageArgument countArgument(long long value);
// A number already written with a decimal point (std::to_string, a formatter of the English
// message): the same digits, with a decimal comma in Turkish.
MessageArgument decimalArgument(std::string english);

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

// What an exception says, in each language, as another message's argument (an error that wraps
// another keeps the inner one's Turkish).
MessageArgument errorArgument(const std::exception& error);

}  // namespace ayar
