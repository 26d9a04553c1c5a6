#include "engine/server/engine_options.h"

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>

#ifndef AYAR_VERSION
#define AYAR_VERSION "0.0.0"
#endif

namespace ayar::engine {

namespace {

struct FlagError {
  std::string message;
};

// The key from --api-key, else --api-key-file, else the environment (AYAR_API_KEY, then vLLM's
// VLLM_API_KEY); an empty variable counts as unset, as in vLLM.
void resolveApiKey(EngineOptions& options, const std::string& keyFile) {
  if (!options.apiKey.empty() && !keyFile.empty()) {
    throw FlagError{
        "--api-key and --api-key-file are both given: keep one (--api-key-file keeps the key "
        "off the command line)"};
  }
  if (!options.apiKey.empty()) {
    options.apiKeySource = "--api-key";
    return;
  }
  if (!keyFile.empty()) {
    const auto refuse = [&keyFile](const std::string& why) {
      return FlagError{"--api-key-file " + keyFile + ": " + why +
                       "; give a readable file whose first line is the key"};
    };
    std::error_code error;
    if (!std::filesystem::exists(keyFile, error)) throw refuse("there is no such file");
    if (std::filesystem::is_directory(keyFile, error)) throw refuse("it is a folder, not a file");
    std::ifstream file(keyFile);
    if (!file) throw refuse(std::string("the file cannot be read (") + std::strerror(errno) + ")");
    std::string line;
    if (!std::getline(file, line)) throw refuse("the file is empty");
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) {
      throw FlagError{"--api-key-file " + keyFile +
                      ": the first line is empty; write the key on the first line of the file"};
    }
    options.apiKey = line;
    options.apiKeySource = "--api-key-file";
    return;
  }
  for (const char* variable : {"AYAR_API_KEY", "VLLM_API_KEY"}) {
    const char* value = std::getenv(variable);
    if (value != nullptr && *value != '\0') {
      options.apiKey = value;
      options.apiKeySource = variable;
      return;
    }
  }
}

}  // namespace

std::optional<std::int64_t> parseByteCount(const std::string& text) {
  static const std::regex kPattern(R"(\s*(\d+(?:\.\d+)?)\s*([kmgtKMGT]i?)?[bB]?\s*)");
  std::smatch match;
  if (!std::regex_match(text, match, kPattern)) return std::nullopt;
  const double number = std::stod(match[1].str());
  double multiplier = 1.0;
  if (match[2].matched) {
    const std::string suffix = match[2].str();
    const int power =
        static_cast<int>(std::string("kmgt").find(static_cast<char>(std::tolower(suffix[0])))) + 1;
    const bool binary = std::isupper(static_cast<unsigned char>(suffix[0])) || suffix.size() == 2;
    multiplier = std::pow(binary ? 1024.0 : 1000.0, power);
  }
  const double bytes = number * multiplier;
  if (!std::isfinite(bytes) || bytes >= 9.0e18) return std::nullopt;
  return static_cast<std::int64_t>(bytes);
}

CommandLineOutcome parseEngineCommandLine(int argc, const char* const* argv, EngineOptions& options) {
  CLI::App app{"ayar-engine " AYAR_VERSION
               ": the bundled OpenAI-compatible LLM server of Ayar. Its flags mirror `vllm serve`.",
               "ayar-engine"};
  app.set_version_flag("--version", "ayar-engine " AYAR_VERSION);
  app.require_subcommand(1);
  CLI::App* serve = app.add_subcommand(
      "serve",
      "Serve MODEL over HTTP: /v1/completions, /v1/chat/completions, /v1/models, /health, /metrics.");
  serve->option_defaults()->always_capture_default();
  CLI::App* device = app.add_subcommand(
      "device",
      "Print the device `serve --device auto` picks on this machine, one line: 'cuda GPU-NAME MEMORY' or "
      "'cpu WHY-NO-GPU'.");

  serve
      ->add_option(
          "MODEL", options.model,
          "A preset (qwen3-tiny, qwen3-0.6b, qwen3-1.7b, qwen3-4b, qwen3-8b, qwen3-14b, qwen3-32b) or a "
          "Hugging Face folder (config.json, *.safetensors, tokenizer.json)")
      ->required();
  serve->add_option("--host", options.host, "Address to listen on");
  serve->add_option("--port", options.port, "Port to listen on (0: any free port, logged at start)")
      ->check(CLI::Range(0, 65535));
  serve
      ->add_option("--device", options.device,
                   "Where the model runs: auto (cuda when built and a GPU is present, else cpu), cuda, cpu "
                   "(float32 reference), sim (timing simulator, no math; results are labelled simulated)")
      ->check(CLI::IsMember({"auto", "cuda", "cpu", "sim"}));
  serve
      ->add_option(
          "--load-format", options.loadFormat,
          "auto (safetensors for a folder, dummy for a preset), safetensors, or dummy (seeded random "
          "weights: every size runs without a download)")
      ->check(CLI::IsMember({"auto", "safetensors", "dummy"}));
  serve->add_option(
      "--tokenizer", options.tokenizer,
      "Tokenizer folder or tokenizer.json (default: the model folder's, else the Qwen3 tokenizer "
      "that set-up fetched)");
  serve->add_option("--served-model-name", options.servedModelName,
                    "The model name clients send and the API reports (default: MODEL as given)");
  serve
      ->add_option("--max-model-len", options.maxModelLen,
                   "Context length: prompt + output tokens (default: the model's max_position_embeddings)")
      ->check(CLI::Range(1, 1 << 24));
  serve
      ->add_option(
          "--max-num-seqs", options.maxNumSeqs,
          "Most sequences in one batch. Default as vLLM's: 1024 on a GPU with at least 70 GiB that is "
          "not an A100 (and the h100/h200 sim), else 256; never above --max-num-batched-tokens")
      ->check(CLI::Range(1, 1 << 20));
  serve
      ->add_option("--max-num-batched-tokens", options.maxNumBatchedTokens,
                   "Most tokens in one step (decodes first, then prefill chunks)")
      ->check(CLI::Range(1, 1 << 24));
  serve
      ->add_option("--gpu-memory-utilization", options.gpuMemoryUtilization,
                   "Fraction of the device memory for weights, activations and KV cache (cuda, sim)")
      ->check(CLI::Range(0.0, 1.0));
  std::string kvCacheMemory;
  serve->add_option(
      "--kv-cache-memory-bytes", kvCacheMemory,
      "KV cache size in bytes (e.g. 4G, 512Mi); overrides --gpu-memory-utilization. Default: from "
      "the utilisation on cuda/sim, 1 GiB on cpu");
  serve->add_option("--block-size", options.blockSize, "Tokens per KV cache block")
      ->check(CLI::IsMember({8, 16, 32, 64, 128}));
  serve->add_flag("--enable-prefix-caching,!--no-enable-prefix-caching", options.enablePrefixCaching,
                  "Reuse the KV blocks of a common prompt prefix (default on)");
  serve->add_flag("--enforce-eager", options.enforceEager,
                  "No CUDA graphs (cuda; the h100/h200 sim models the eager launch cost); no effect on cpu");
  // vLLM's names. fp8 runs on cpu (the reference, rounding as the GPU would) and is modelled by the sim;
  // cuda refuses it at start (engine_setup).
  serve
      ->add_option("--kv-cache-dtype", options.kvCacheDtype,
                   "KV cache data type: auto (the model's: bf16 on cuda and sim, float32 on cpu), or fp8 "
                   "(= fp8_e4m3, one byte an element with a scale of 1, twice the sequences in the same "
                   "memory; --device cpu at reference speed and sim, not yet cuda)")
      ->check(CLI::Validator(
          [](std::string& given) {
            return given == "auto" || given == "fp8" || given == "fp8_e4m3"
                       ? std::string()
                       : given + ": use auto, fp8 or fp8_e4m3 (fp8_e5m2 is not modelled)";
          },
          "{auto,fp8,fp8_e4m3}"));
  serve
      ->add_option("--quantization", options.quantization,
                   "Weight quantization: none (bf16), or fp8 (linear layers in FP8 e4m3 with a scale per "
                   "output channel, activations per token, embedding and lm_head in bf16; --device cpu at "
                   "reference speed and sim, not yet cuda). An FP8 checkpoint (config.json's "
                   "quantization_config) is served in FP8 without it")
      ->check(CLI::Validator(
          [](std::string& given) {
            return given == "none" || given == "fp8" ? std::string()
                                                     : given + ": use none or fp8 (no other scheme is built)";
          },
          "{none,fp8}"));
  serve->add_option("--seed", options.seed, "Seed of the sampler (and of dummy weights)");
  serve->add_option("--step-log", options.stepLog,
                    "Write one CSV line per engine step to this file: when it started, how long it took, the "
                    "batch (sequences, decodes, prefill chunks, tokens), first tokens and their waits");
  serve
      ->add_option("--reasoning-parser", options.reasoningParser,
                   "qwen3: chat output before </think> goes to reasoning_content")
      ->check(CLI::IsMember({"qwen3"}));
  serve->add_option("--api-key", options.apiKey,
                    "Require 'Authorization: Bearer KEY' on /v1 routes (/health, /metrics and /version stay "
                    "open). A key here can be read by every local user: prefer --api-key-file, or the "
                    "environment variable AYAR_API_KEY (VLLM_API_KEY is read too, as vLLM does)");
  std::string apiKeyFile;
  serve->add_option("--api-key-file", apiKeyFile,
                    "Read the API key from the first line of this file (its line ending dropped)");
  serve->add_option("--sim-profile", options.simProfile,
                    "--device sim only: h100, h200 (roofline of the card), fixed:TTFT_MS,ITL_MS or "
                    "step:BASE_MS,PER_SEQ_MS (each step BASE + PER_SEQ x sequences in it)");
  serve
      ->add_option("--max-waiting-requests", options.maxWaitingRequests,
                   "Requests queued beyond the running batch; more are refused with 503")
      ->check(CLI::Range(1, 1 << 24));
  std::string maxBody = std::to_string(options.maxRequestBodyBytes);
  serve->add_option("--max-request-body-bytes", maxBody, "Largest request body accepted (larger: 413)");
  serve->add_option("--io-threads", options.ioThreads, "HTTP io threads (each holds many connections)")
      ->check(CLI::Range(1, 16));
  serve
      ->add_option("--http-read-timeout", options.httpReadTimeoutSeconds,
                   "Seconds a connection may take to send a complete request, idle keep-alive time included")
      ->check(CLI::Range(0.001, 86400.0));
  serve
      ->add_option("--http-write-timeout", options.httpWriteTimeoutSeconds,
                   "Seconds one write to a client may take before the client counts as gone")
      ->check(CLI::Range(0.001, 86400.0));

  try {
    app.parse(argc, argv);
    if (device->parsed()) return {.serve = false, .exitCode = 0, .printDevice = true};
    options.simProfileGiven = serve->count("--sim-profile") > 0;
    resolveApiKey(options, apiKeyFile);
    if (!kvCacheMemory.empty()) {
      options.kvCacheMemoryBytes = parseByteCount(kvCacheMemory);
      if (!options.kvCacheMemoryBytes || *options.kvCacheMemoryBytes <= 0) {
        throw FlagError{"--kv-cache-memory-bytes '" + kvCacheMemory +
                        "' is not a positive byte count: give e.g. 1073741824, 4G or 512Mi"};
      }
    }
    const auto bodyBytes = parseByteCount(maxBody);
    if (!bodyBytes || *bodyBytes < 1024) {
      throw FlagError{"--max-request-body-bytes '" + maxBody + "' must be a byte count of at least 1024"};
    }
    options.maxRequestBodyBytes = *bodyBytes;
    if (options.gpuMemoryUtilization <= 0.0) {
      throw FlagError{"--gpu-memory-utilization must be above 0 and at most 1, e.g. 0.9"};
    }
    if (options.maxNumSeqs && options.maxNumBatchedTokens < *options.maxNumSeqs) {
      throw FlagError{"--max-num-batched-tokens (" + std::to_string(options.maxNumBatchedTokens) +
                      ") must be at least --max-num-seqs (" + std::to_string(*options.maxNumSeqs) +
                      "): raise it or lower --max-num-seqs"};
    }
    if (options.simProfileGiven && options.device != "sim") {
      throw FlagError{"--sim-profile applies to --device sim only: add --device sim or drop --sim-profile"};
    }
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) return {false, app.exit(error)};  // --help, --version
    std::cerr << "ayar-engine: error: " << error.what() << ". Run 'ayar-engine serve --help' for the flags."
              << std::endl;
    return {false, 2};
  } catch (const FlagError& error) {
    std::cerr << "ayar-engine: error: " << error.message << "." << std::endl;
    return {false, 2};
  }
  return {true, 0};
}

}  // namespace ayar::engine
