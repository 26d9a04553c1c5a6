// `ayar-engine` as a user starts it: help, version, refused flags, refused models, start and stop.
#include <gtest/gtest.h>
#include <signal.h>

#include <nlohmann/json.hpp>

#include "core/engines/engine_catalogue.h"
#include "engine/model/model_config.h"
#include "engine/server/engine_setup.h"
#include "tests/engine/server/engine_process.h"
#include "tests/engine/server/http_client.h"
#include "tests/support/test_env.h"

namespace ayar::test {
namespace {

TEST(EngineCommandLine, HelpListsEveryFlag) {
  const EngineRun run = runEngine({"serve", "--help"});
  EXPECT_EQ(run.exitCode, 0);
  for (const char* flag : {"MODEL",
                           "--host",
                           "--port",
                           "--device",
                           "--load-format",
                           "--tokenizer",
                           "--served-model-name",
                           "--max-model-len",
                           "--max-num-seqs",
                           "--max-num-batched-tokens",
                           "--gpu-memory-utilization",
                           "--kv-cache-memory-bytes",
                           "--block-size",
                           "--enable-prefix-caching",
                           "--no-enable-prefix-caching",
                           "--enforce-eager",
                           "--kv-cache-dtype",
                           "--quantization",
                           "--seed",
                           "--reasoning-parser",
                           "--api-key",
                           "--api-key-file",
                           "AYAR_API_KEY",
                           "VLLM_API_KEY",
                           "--sim-profile",
                           "--max-waiting-requests",
                           "--max-request-body-bytes",
                           "--http-read-timeout"}) {
    EXPECT_NE(run.output.find(flag), std::string::npos) << flag;
  }
  EXPECT_NE(run.output.find("=8000"), std::string::npos);  // defaults are shown
  // --max-num-seqs has no single default: vLLM's rule by device, stated in the help.
  EXPECT_NE(run.output.find("1024 on a GPU with at least 70 GiB"), std::string::npos) << run.output;
  // fp8 is offered where it is modelled, and the help says where that is.
  EXPECT_NE(run.output.find("{none,fp8}"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("--device cpu at reference speed and sim, not yet cuda"), std::string::npos)
      << run.output;
}

// The workbench offers the bundled engine's models from its catalogue entry (resources/engines/
// ayar.json, model_presets): the entry lists every preset the engine knows, in the engine's order.
TEST(EngineCommandLine, TheCatalogueListsEveryModelPreset) {
  std::vector<std::string> presets;
  for (const engine::ModelConfig& model : engine::modelPresets())
    presets.push_back(model.name);
  EXPECT_EQ(EngineCatalogue::loadDefault().at("ayar").modelPresets, presets);
}

TEST(EngineCommandLine, VersionPrintsTheVersion) {
  const EngineRun run = runEngine({"--version"});
  EXPECT_EQ(run.exitCode, 0);
  EXPECT_NE(run.output.find(std::string("ayar-engine ") + AYAR_VERSION), std::string::npos);
}

// `ayar-engine device` says in one line what `serve --device auto` picks: the GPU where one is usable
// (ayar-cli then defaults to qwen3-8b on it), else the CPU and why.
TEST(EngineCommandLine, DevicePrintsWhatAutoPicksInOneLine) {
  const EngineRun run = runEngine({"device"});
  EXPECT_EQ(run.exitCode, 0);
  const std::string reason = engine::cudaUnavailableReason();
  if (reason.empty()) {
    EXPECT_TRUE(run.output.starts_with("cuda ")) << run.output;
    EXPECT_NE(run.output.find(" GiB"), std::string::npos) << run.output;
  } else {
    EXPECT_EQ(run.output, "cpu " + reason + "\n");
  }
}

TEST(EngineCommandLine, BadFlagsExitWithCode2AndAOneLineMessageNamingTheFlag) {
  struct Case {
    std::vector<std::string> args;
    std::string named;
  };
  const std::vector<Case> cases = {
      {{"serve", "qwen3-tiny", "--bogus-flag"}, "--bogus-flag"},
      {{"serve", "qwen3-tiny", "--port", "70000"}, "--port"},
      {{"serve", "qwen3-tiny", "--port", "eighty"}, "--port"},
      {{"serve", "qwen3-tiny", "--block-size", "7"}, "--block-size"},
      {{"serve", "qwen3-tiny", "--device", "tpu"}, "--device"},
      {{"serve", "qwen3-tiny", "--gpu-memory-utilization", "1.5"}, "--gpu-memory-utilization"},
      {{"serve", "qwen3-tiny", "--gpu-memory-utilization", "0"}, "--gpu-memory-utilization"},
      {{"serve", "qwen3-tiny", "--max-num-seqs", "0"}, "--max-num-seqs"},
      {{"serve", "qwen3-tiny", "--max-num-seqs", "512", "--max-num-batched-tokens", "100"},
       "--max-num-batched-tokens"},
      {{"serve", "qwen3-tiny", "--kv-cache-memory-bytes", "lots"}, "--kv-cache-memory-bytes"},
      {{"serve", "qwen3-tiny", "--reasoning-parser", "deepseek_r1"}, "--reasoning-parser"},
      {{"serve", "qwen3-tiny", "--sim-profile", "h200"}, "--sim-profile"},
      {{"serve", "qwen3-tiny", "--device", "sim", "--sim-profile", "fixed:abc"}, "--sim-profile"},
      {{"serve", "qwen3-tiny", "--device", "cuda"}, "--device cuda"},
      {{"serve", "qwen3-tiny", "--device", "sim", "--kv-cache-dtype", "fp8_e5m2"}, "--kv-cache-dtype"},
      {{"serve", "qwen3-tiny", "--device", "sim", "--quantization", "awq"}, "--quantization"},
      {{"serve", "qwen3-tiny", "--max-model-len", "100000"}, "--max-model-len"},
      {{"serve", "qwen3-tiny", "--tokenizer", "/nonexistent/tokenizer"}, "/nonexistent/tokenizer"},
      {{"serve", "no-such-model"}, "Unknown model 'no-such-model'"},
      {{"serve"}, "MODEL"},
  };
  for (const Case& c : cases) {
    const EngineRun run = runEngine(c.args);
    std::string command;
    for (const auto& arg : c.args)
      command += arg + " ";
    EXPECT_EQ(run.exitCode, 2) << command << "\n" << run.output;
    EXPECT_NE(run.output.find(c.named), std::string::npos) << command << "\n" << run.output;
    EXPECT_NE(run.output.find("error"), std::string::npos) << command;
    EXPECT_EQ(std::count(run.output.begin(), run.output.end(), '\n'), 1) << command << "\n" << run.output;
  }
}

TEST(EngineCommandLine, AModelTooBigForTheMemoryIsRefusedBeforeAnythingIsAllocated) {
  const EngineRun cpu = runEngine({"serve", "qwen3-32b", "--device", "cpu"});
  EXPECT_EQ(cpu.exitCode, 2);
  EXPECT_NE(cpu.output.find("does not fit on --device cpu"), std::string::npos) << cpu.output;
  EXPECT_LT(cpu.maxRssKiB, 100 * 1024 * test::kMemorySlack) << "122 GiB of weights must not be touched";

  const EngineRun sim = runEngine(
      {"serve", "qwen3-32b", "--device", "sim", "--sim-profile", "h100", "--gpu-memory-utilization", "0.5"});
  EXPECT_EQ(sim.exitCode, 2);
  EXPECT_NE(sim.output.find("--gpu-memory-utilization"), std::string::npos) << sim.output;

  const EngineRun context =
      runEngine({"serve", "qwen3-0.6b", "--device", "cpu", "--kv-cache-memory-bytes", "64M"});
  EXPECT_EQ(context.exitCode, 2);
  EXPECT_NE(context.output.find("largest --max-model-len"), std::string::npos) << context.output;
}

TEST(EngineCommandLine, TheStartLineNamesModelDeviceBlocksAndSimulation) {
  EngineProcess engine({"qwen3-8b", "--device", "sim", "--sim-profile", "h100", "--tokenizer",
                        tokenizerDir().string(), "--max-model-len", "8192"});
  const std::string log = engine.log();
  EXPECT_NE(log.find("model qwen3-8b"), std::string::npos) << log;
  EXPECT_NE(log.find("device sim (simulated, profile h100"), std::string::npos) << log;
  EXPECT_NE(log.find("KV blocks of 16 tokens"), std::string::npos) << log;
  EXPECT_NE(log.find("max-model-len 8192"), std::string::npos) << log;
}

TEST(EngineCommandLine, SigtermAbortsRunningRequestsAndExitsWithCode0) {
  EngineProcess engine(
      {"qwen3-8b", "--device", "sim", "--sim-profile", "fixed:0,20", "--tokenizer", tokenizerDir().string()});
  RawConnection client(engine.port());
  client.send(
      rawPost("/v1/completions", R"({"prompt":"x","max_tokens":5000,"ignore_eos":true,"stream":true})"));
  ASSERT_NE(client.readUntil("data: {").find("data: {"), std::string::npos);
  EXPECT_EQ(engine.stop(), 0) << engine.log();
  std::string received;
  EXPECT_TRUE(client.readUntilClosed(received, std::chrono::seconds(5)));
  EXPECT_NE(engine.log().find("SIGTERM received"), std::string::npos);
}

}  // namespace
}  // namespace ayar::test
