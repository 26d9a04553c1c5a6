#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace ayar::engine {

// `ayar-engine serve MODEL [flags]`: the flags of docs/ENGINE.md with vLLM's names, meanings and defaults,
// plus the few an HTTP server needs (--max-waiting-requests, --max-request-body-bytes, --io-threads,
// --http-read-timeout, --http-write-timeout).
struct EngineOptions {
  std::string model;  // a preset name or a Hugging Face folder
  std::string host = "127.0.0.1";
  int port = 8000;
  std::string device = "auto";      // auto | cuda | cpu | sim
  std::string loadFormat = "auto";  // auto | safetensors | dummy
  std::string tokenizer;            // empty: the model folder's, else defaultTokenizerDir()
  std::string servedModelName;      // empty: MODEL as given
  std::optional<int> maxModelLen;   // unset: the model's max_position_embeddings
  // Unset: vLLM's rule, decided once the device is known (resolveMaxNumSeqs in engine_setup.h).
  std::optional<int> maxNumSeqs;
  int maxNumBatchedTokens = 8192;
  double gpuMemoryUtilization = 0.9;
  std::optional<std::int64_t> kvCacheMemoryBytes;  // unset: sim from utilisation, cpu 1 GiB
  int blockSize = 16;
  bool enablePrefixCaching = true;
  bool enforceEager = false;
  std::string kvCacheDtype = "auto";
  std::string quantization = "none";
  std::uint64_t seed = 0;
  std::string reasoningParser;  // empty or "qwen3"
  // Required on /v1 routes when not empty: from --api-key, else the first line of --api-key-file, else
  // $AYAR_API_KEY, else $VLLM_API_KEY. The last three keep the key off the command line, which every
  // local user can read.
  std::string apiKey;
  std::string apiKeySource;  // where apiKey came from, for the log: "--api-key-file", "AYAR_API_KEY", ...
  std::string simProfile = "h200";
  bool simProfileGiven = false;
  int maxWaitingRequests = 4096;
  std::int64_t maxRequestBodyBytes = std::int64_t{16} << 20;
  int ioThreads = 2;  // the first limit when every token needs its own write (see bench_engine_server)
  double httpReadTimeoutSeconds = 30.0;
  double httpWriteTimeoutSeconds = 30.0;
  std::string stepLog;  // empty: none; else a CSV file with one line per engine step
};

struct CommandLineOutcome {
  bool serve = false;  // false: exit with exitCode (help, version, or an error already printed)
  int exitCode = 0;
  bool printDevice = false;  // `ayar-engine device`: print what --device auto picks, then exit
};

// Parses argv. Help and --version print to stdout (exit 0); a bad flag prints one line to stderr that
// names the flag and what to do (exit 2).
CommandLineOutcome parseEngineCommandLine(int argc, const char* const* argv, EngineOptions& options);

// "1G", "512M", "1.5GiB", "4096": vLLM's human-readable byte counts (k/m/g/t decimal, K/M/G/T and
// Ki/Mi/Gi/Ti binary). nullopt when the text is not one.
std::optional<std::int64_t> parseByteCount(const std::string& text);

}  // namespace ayar::engine
