// The API key off the command line: ayar-engine reads it from a file or the environment. Real
// ayar-engine processes (sim) on 127.0.0.1.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>
#include <optional>

#include "tests/engine/server/engine_process.h"
#include "tests/engine/server/http_client.h"
#include "tests/support/test_env.h"

namespace ayar::test {
namespace {

std::vector<std::string> simArgs(std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {
      "qwen3-8b", "--device", "sim", "--sim-profile", "fixed:0,0", "--tokenizer", tokenizerDir().string()};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

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
    EngineProcess engine(simArgs({"--api-key-file", (dir / "key").string()}));
    expectGuardedBy(engine.url(""), "sk-from-file", "--api-key-file");
    EXPECT_NE(engine.log().find("API key given by --api-key-file"), std::string::npos) << engine.log();
    EXPECT_EQ(engine.log().find("sk-from-file"), std::string::npos) << engine.log();
  }
  {
    ScopedVariable key("AYAR_API_KEY", "sk-from-ayar-variable");
    ScopedVariable vllmKey("VLLM_API_KEY", "sk-from-vllm-variable");  // AYAR_API_KEY comes first
    EngineProcess engine(simArgs());
    expectGuardedBy(engine.url(""), "sk-from-ayar-variable", "AYAR_API_KEY");
    EXPECT_NE(engine.log().find("API key given by AYAR_API_KEY"), std::string::npos) << engine.log();
  }
  {
    ScopedVariable key("VLLM_API_KEY", "sk-from-vllm-variable");
    EngineProcess engine(simArgs());
    expectGuardedBy(engine.url(""), "sk-from-vllm-variable", "VLLM_API_KEY");
  }
  {
    ScopedVariable key("AYAR_API_KEY", "sk-from-ayar-variable");  // the flag wins, as in vLLM
    EngineProcess engine(simArgs({"--api-key", "sk-from-flag"}));
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

}  // namespace
}  // namespace ayar::test
