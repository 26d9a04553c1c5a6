// The API key off the command line: ayar-engine reads it from a file or the environment, and Ayar's
// launcher hands it over in the environment. Real ayar-engine processes (sim) on 127.0.0.1.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>
#include <iterator>
#include <optional>

#include "core/engines/engine_catalogue.h"
#include "core/engines/engine_launcher.h"
#include "core/engines/resources_dir.h"
#include "tests/engine/server/engine_process.h"
#include "tests/engine/server/http_client.h"
#include "tests/support/test_env.h"

namespace ayar::test {
namespace {

using namespace std::chrono_literals;

// Sets a variable of this process (which the engines it starts inherit) and restores it afterwards.
class ScopedVariable {
 public:
  ScopedVariable(const char* name, const char* value) : m_name(name) {
    if (const char* old = std::getenv(name)) m_old = old;
    if (value) {
      ::setenv(name, value, 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~ScopedVariable() {
    if (m_old) {
      ::setenv(m_name.c_str(), m_old->c_str(), 1);
    } else {
      ::unsetenv(m_name.c_str());
    }
  }
  ScopedVariable(const ScopedVariable&) = delete;
  ScopedVariable& operator=(const ScopedVariable&) = delete;

 private:
  std::string m_name;
  std::optional<std::string> m_old;
};

std::string readWhole(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// /v1 answers 401 without `key` and 200 with it.
void expectGuardedBy(const std::string& baseUrl, const std::string& key, const std::string& context) {
  EXPECT_EQ(httpGet(baseUrl + "/v1/models").status, 401) << context;
  EXPECT_EQ(httpGet(baseUrl + "/v1/models", {"Authorization: Bearer wrong-" + key}).status, 401) << context;
  EXPECT_EQ(httpGet(baseUrl + "/v1/models", {"Authorization: Bearer " + key}).status, 200) << context;
}

TEST(EngineApiKey, TheKeyComesFromAFileOrTheEnvironmentAndNeverShowsInTheLog) {
  // Variables of the machine running the tests must not decide what these engines require.
  ScopedVariable noAyarKey("AYAR_API_KEY", nullptr);
  ScopedVariable noVllmKey("VLLM_API_KEY", nullptr);
  TempDir dir;
  std::ofstream(dir / "key") << "sk-from-file\r\nsecond line is not the key\n";
  {
    EngineProcess engine(simEngineArgs("fixed:0,0", {"--api-key-file", (dir / "key").string()}));
    expectGuardedBy(engine.url(""), "sk-from-file", "--api-key-file");
    EXPECT_NE(engine.log().find("API key given by --api-key-file"), std::string::npos) << engine.log();
    EXPECT_EQ(engine.log().find("sk-from-file"), std::string::npos) << engine.log();
  }
  {
    ScopedVariable key("AYAR_API_KEY", "sk-from-ayar-variable");
    ScopedVariable vllmKey("VLLM_API_KEY", "sk-from-vllm-variable");  // AYAR_API_KEY comes first
    EngineProcess engine(simEngineArgs("fixed:0,0"));
    expectGuardedBy(engine.url(""), "sk-from-ayar-variable", "AYAR_API_KEY");
    EXPECT_NE(engine.log().find("API key given by AYAR_API_KEY"), std::string::npos) << engine.log();
  }
  {
    ScopedVariable key("VLLM_API_KEY", "sk-from-vllm-variable");
    EngineProcess engine(simEngineArgs("fixed:0,0"));
    expectGuardedBy(engine.url(""), "sk-from-vllm-variable", "VLLM_API_KEY");
  }
  {
    ScopedVariable key("AYAR_API_KEY", "sk-from-ayar-variable");  // the flag wins, as in vLLM
    EngineProcess engine(simEngineArgs("fixed:0,0", {"--api-key", "sk-from-flag"}));
    expectGuardedBy(engine.url(""), "sk-from-flag", "--api-key over AYAR_API_KEY");
  }
}

TEST(EngineApiKey, AKeyFileThatCannotGiveAKeyIsRefusedNamingTheFlag) {
  TempDir dir;
  std::ofstream(dir / "empty").flush();
  std::ofstream(dir / "blank") << "\nsk-on-the-second-line\n";
  const std::string base = dir.path().string();
  const struct {
    std::vector<std::string> args;
    std::string says;
  } cases[] = {
      {{"--api-key-file", base + "/missing"}, "no such file"},
      {{"--api-key-file", base + "/empty"}, "the file is empty"},
      {{"--api-key-file", base + "/blank"}, "the first line is empty"},
      {{"--api-key-file", base}, "a folder"},
      {{"--api-key-file", base + "/blank", "--api-key", "k"}, "both given"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = {"serve", "qwen3-tiny"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const EngineRun run = runEngine(args);
    EXPECT_EQ(run.exitCode, 2) << run.output;
    EXPECT_NE(run.output.find("--api-key-file"), std::string::npos) << run.output;
    EXPECT_NE(run.output.find(c.says), std::string::npos) << run.output;
    EXPECT_EQ(run.output.find("sk-on-the-second-line"), std::string::npos) << run.output;
  }
}

const EngineCatalogue& shipped() {
  static const EngineCatalogue catalogue = EngineCatalogue::loadFolder(resourcesDir() / "engines");
  return catalogue;
}

EngineSpec bundledSim() {
  EngineSpec spec;
  spec.model = "qwen3-8b";
  spec.device = "sim";
  for (const std::string flag : {"--sim-profile", "fixed:0,0", "--tokenizer"})
    spec.flags.push_back(EngineFlag::rawArgument(flag));
  spec.flags.push_back(EngineFlag::rawArgument(tokenizerDir().string()));
  return spec;
}

LaunchOptions launchOptions(const TempDir& dir) {
  LaunchOptions options;
  options.bundledEngine = engineBinary();
  options.logPath = dir / "engine.log";
  options.startupTimeout = 30s;
  options.stopGrace = 5s;
  return options;
}

TEST(EngineApiKey, AyarsLauncherPassesTheKeyInTheEnvironmentNotOnTheCommandLine) {
  TempDir dir;
  EngineSpec spec = bundledSim();
  spec.apiKey = "sk-launched-engine";
  EngineLauncher launcher(spec, shipped(), launchOptions(dir));
  launcher.start();
  const std::string proc = "/proc/" + std::to_string(launcher.process()->pid());
  // What every local user can read: the command line. The key is not on it, nor in what Ayar shows.
  const std::string commandLine = readWhole(proc + "/cmdline");
  ASSERT_NE(commandLine.find("serve"), std::string::npos) << commandLine;
  EXPECT_EQ(commandLine.find("sk-launched-engine"), std::string::npos) << commandLine;
  EXPECT_EQ(commandLine.find("--api-key"), std::string::npos) << commandLine;
  EXPECT_EQ(launcher.displayCommand().find("sk-launched-engine"), std::string::npos);
  // The environment, which only the engine's user can read, carries it.
  const std::string environment = readWhole(proc + "/environ");
  EXPECT_NE(environment.find(std::string("AYAR_API_KEY=sk-launched-engine") + '\0'), std::string::npos);
  expectGuardedBy(launcher.baseUrl(), "sk-launched-engine", "launched with a key");
  EXPECT_EQ(readWhole(launcher.logPath()).find("sk-launched-engine"), std::string::npos);
}

TEST(EngineApiKey, AnEngineLaunchedWithoutAKeyIgnoresKeysInAyarsOwnEnvironment) {
  // Ayar does not send these keys, so an engine that took them would refuse all of Ayar's requests.
  ScopedVariable ayarKey("AYAR_API_KEY", "sk-stray-ayar");
  ScopedVariable vllmKey("VLLM_API_KEY", "sk-stray-vllm");
  TempDir dir;
  EngineLauncher launcher(bundledSim(), shipped(), launchOptions(dir));
  launcher.start();
  EXPECT_EQ(httpGet(launcher.baseUrl() + "/v1/models").status, 200);
  const std::string environment =
      readWhole("/proc/" + std::to_string(launcher.process()->pid()) + "/environ");
  EXPECT_EQ(environment.find("sk-stray"), std::string::npos);
}

}  // namespace
}  // namespace ayar::test
