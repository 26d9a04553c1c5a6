#include "core/engines/engine_spec.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "core/engines/engine_catalogue.h"
#include "core/error.h"

namespace ayar {
namespace {

using nlohmann::json;

std::string errorFrom(const json& document) {
  try {
    (void)document.get<EngineSpec>();
  } catch (const Error& error) {
    return error.what();
  }
  return "(no error)";
}

EngineSpec fullExternalSpec() {
  EngineSpec spec;
  spec.kind = EngineKind::External;
  spec.engine = "vllm";
  spec.model = "Qwen/Qwen3-8B";
  spec.servedModelName = "qwen3-8b";
  spec.device = "cuda";
  spec.host = "0.0.0.0";
  spec.port = 8123;
  spec.flags = {EngineFlag::option("--max-num-seqs", "128"), EngineFlag::toggle("--enforce-eager"),
                EngineFlag::option("--enable-prefix-caching", "false"),
                EngineFlag::rawArgument("--foo=bar baz")};
  spec.executable = "venv/bin/vllm";
  spec.environment = {{"CUDA_VISIBLE_DEVICES", "0"}, {"HF_HOME", "cache dir"}};
  spec.apiKeyEnv = "AYAR_TEST_KEY";
  return spec;
}

TEST(EngineSpec, JsonRoundTripKeepsEveryField) {
  const EngineSpec spec = fullExternalSpec();
  const json document = spec;
  EXPECT_EQ(document.at("kind"), "external");
  EXPECT_EQ(document.at("flags").at(0), (json{{"name", "--max-num-seqs"}, {"value", "128"}}));
  EXPECT_EQ(document.at("flags").at(1), (json{{"name", "--enforce-eager"}}));
  EXPECT_EQ(document.at("flags").at(3), (json{{"raw", "--foo=bar baz"}}));
  EXPECT_EQ(json::parse(document.dump()).get<EngineSpec>(), spec);

  EngineSpec remote;
  remote.kind = EngineKind::Remote;
  remote.model = "qwen3";
  remote.baseUrl = "https://cluster.example:443/v1";
  EXPECT_EQ(json(remote).get<EngineSpec>(), remote);

  EngineSpec bundled;
  bundled.model = "qwen3-tiny";
  bundled.device = "sim";
  EXPECT_EQ(json(bundled).get<EngineSpec>(), bundled);
}

TEST(EngineSpec, ApiKeyIsNeverSerialised) {
  EngineSpec spec = fullExternalSpec();
  spec.apiKey = "sk-very-secret-123";
  const std::string text = json(spec).dump();
  EXPECT_EQ(text.find("sk-very-secret"), std::string::npos) << text;
  EXPECT_EQ(text.find("\"api_key\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"api_key_env\":\"AYAR_TEST_KEY\""), std::string::npos) << text;
  // Read back, the key is gone; the reference to it stays.
  const EngineSpec back = json::parse(text).get<EngineSpec>();
  EXPECT_TRUE(back.apiKey.empty());
  EXPECT_EQ(back.apiKeyEnv, "AYAR_TEST_KEY");
}

TEST(EngineSpec, ReadingAnApiKeyFromAFileIsRefused) {
  json document = fullExternalSpec();
  document["api_key"] = "sk-pasted";
  const std::string message = errorFrom(document);
  EXPECT_NE(message.find("\"api_key\""), std::string::npos) << message;
  EXPECT_NE(message.find("api_key_env"), std::string::npos) << message;
  EXPECT_EQ(message.find("sk-pasted"), std::string::npos) << message;
}

TEST(EngineSpec, BadFieldsAreNamed) {
  const json base = {{"kind", "bundled"}, {"model", "qwen3-tiny"}};
  auto with = [&](const char* key, json value) {
    json document = base;
    document[key] = std::move(value);
    return errorFrom(document);
  };
  EXPECT_NE(with("port", "abc").find("\"port\" must be an integer"), std::string::npos);
  EXPECT_NE(with("port", 70000).find("\"port\" is 70000"), std::string::npos);
  EXPECT_NE(with("kind", "cloud").find("\"kind\" is \"cloud\""), std::string::npos);
  EXPECT_NE(with("flags", "--enforce-eager").find("\"flags\" must be a list"), std::string::npos);
  EXPECT_NE(
      with("flags", json::array({{{"name", "max-num-seqs"}, {"value", 8}}})).find("write \"--max-num-seqs\""),
      std::string::npos);
  EXPECT_NE(with("flags", json::array({{{"name", "--a"}, {"valeu", 8}}})).find("unknown key \"valeu\""),
            std::string::npos);
  EXPECT_NE(with("modle", "x").find("unknown field \"modle\""), std::string::npos);
  EXPECT_NE(with("model", 3).find("\"model\" must be a string"), std::string::npos);
  EXPECT_NE(with("engine", "vllm").find("use \"kind\": \"external\""), std::string::npos);
  EXPECT_NE(errorFrom({{"kind", "external"}, {"model", "m"}}).find("needs \"engine\""), std::string::npos);
  EXPECT_NE(errorFrom({{"kind", "bundled"}}).find("\"model\" is empty"), std::string::npos);
  EXPECT_NE(errorFrom({{"kind", "remote"}, {"model", "m"}}).find("\"base_url\""), std::string::npos);
  EXPECT_NE(errorFrom({{"kind", "remote"}, {"base_url", "gpu-box:8000"}}).find("http://"), std::string::npos);
  EXPECT_NE(errorFrom(json::array()).find("must be a JSON object"), std::string::npos);
}

TEST(EngineSpec, FlagValuesMayBeWrittenAsNumbersOrBooleans) {
  const json document = {{"kind", "bundled"},
                         {"model", "qwen3-tiny"},
                         {"flags",
                          {{{"name", "--max-num-seqs"}, {"value", 64}},
                           {{"name", "--gpu-memory-utilization"}, {"value", 0.85}},
                           {{"name", "--enable-prefix-caching"}, {"value", false}},
                           "--enforce-eager"}},
                         {"environment", {{"CUDA_VISIBLE_DEVICES", 1}}}};
  const EngineSpec spec = document.get<EngineSpec>();
  ASSERT_EQ(spec.flags.size(), 4u);
  EXPECT_EQ(spec.flags[0], EngineFlag::option("--max-num-seqs", "64"));
  EXPECT_EQ(spec.flags[1], EngineFlag::option("--gpu-memory-utilization", "0.85"));
  EXPECT_EQ(spec.flags[2], EngineFlag::option("--enable-prefix-caching", "false"));
  EXPECT_EQ(spec.flags[3], EngineFlag::toggle("--enforce-eager"));
  EXPECT_EQ(spec.environment,
            (std::vector<std::pair<std::string, std::string>>{{"CUDA_VISIBLE_DEVICES", "1"}}));
}

TEST(EngineSpec, ApiKeyComesFromTheNamedVariable) {
  EngineSpec spec;
  spec.apiKeyEnv = "AYAR_TEST_ENGINE_SPEC_KEY";
  ::unsetenv("AYAR_TEST_ENGINE_SPEC_KEY");
  try {
    (void)spec.resolveApiKey();
    FAIL() << "an unset key variable must be an error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("AYAR_TEST_ENGINE_SPEC_KEY"), std::string::npos);
  }
  ::setenv("AYAR_TEST_ENGINE_SPEC_KEY", "key-from-env", 1);
  EXPECT_EQ(spec.resolveApiKey(), "key-from-env");
  spec.apiKey = "typed-in";
  EXPECT_EQ(spec.resolveApiKey(), "typed-in");
  ::unsetenv("AYAR_TEST_ENGINE_SPEC_KEY");
  EXPECT_EQ(EngineSpec{}.resolveApiKey(), "");
}

TEST(EngineSpec, RemoteBaseUrlLosesTrailingSlashesAndV1) {
  EngineSpec spec;
  spec.kind = EngineKind::Remote;
  spec.baseUrl = "http://gpu-box:8000/v1/";
  EXPECT_EQ(spec.normalizedBaseUrl(), "http://gpu-box:8000");
  spec.baseUrl = "http://gpu-box:8000/";
  EXPECT_EQ(spec.normalizedBaseUrl(), "http://gpu-box:8000");
  spec.baseUrl = "https://h/prefix";
  EXPECT_EQ(spec.normalizedBaseUrl(), "https://h/prefix");
}

TEST(EngineKindNames, RoundTripAndRejectUnknownWords) {
  for (auto kind : {EngineKind::Bundled, EngineKind::External, EngineKind::Remote}) {
    EXPECT_EQ(engineKindFromString(toString(kind)), kind);
  }
  EXPECT_THROW(engineKindFromString("Bundled"), Error);
}

TEST(ShellQuote, QuotesOnlyWhatAShellWouldSplitOrExpand) {
  EXPECT_EQ(shellQuote("--max-num-seqs"), "--max-num-seqs");
  EXPECT_EQ(shellQuote("Qwen/Qwen3-8B"), "Qwen/Qwen3-8B");
  EXPECT_EQ(shellQuote("0.9"), "0.9");
  EXPECT_EQ(shellQuote("a b"), "'a b'");
  EXPECT_EQ(shellQuote("it's"), "'it'\\''s'");
  EXPECT_EQ(shellQuote(""), "''");
  EXPECT_EQ(shellQuote("$HOME"), "'$HOME'");
  EXPECT_EQ(shellQuote("{\"method\": \"ngram\"}"), "'{\"method\": \"ngram\"}'");
}

TEST(ShellQuote, DisplayLineHidesSecrets) {
  const std::vector<std::string> args = {"vllm", "serve", "my model", "--api-key", "sk-1"};
  EXPECT_EQ(displayCommandLine(args), "vllm serve 'my model' --api-key sk-1");
  EXPECT_EQ(displayCommandLine(args, {"sk-1"}), "vllm serve 'my model' --api-key '***'");
}

TEST(EngineSpec, RunsOnThisMachineWhenAyarStartsItOrTheUrlIsLoopback) {
  EngineSpec spec;
  spec.kind = EngineKind::Bundled;
  EXPECT_TRUE(runsOnThisMachine(spec));
  spec.kind = EngineKind::External;
  EXPECT_TRUE(runsOnThisMachine(spec));
  spec.kind = EngineKind::Remote;
  for (const char* url : {"http://127.0.0.1:8000", "http://localhost:8000/v1", "https://[::1]:443/v1",
                          "127.0.0.2:9000", "http://localhost"})
    EXPECT_TRUE((spec.baseUrl = url, runsOnThisMachine(spec))) << url;
  for (const char* url : {"http://gpu-box:8000", "http://10.0.0.7:8000/v1", "https://[2001:db8::1]:443",
                          "http://localhost.example.com:8000", "http://128.0.0.1"})
    EXPECT_FALSE((spec.baseUrl = url, runsOnThisMachine(spec))) << url;
}

}  // namespace
}  // namespace ayar
