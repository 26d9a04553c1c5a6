#include "core/engines/engine_catalogue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "core/engines/resources_dir.h"
#include "core/error.h"
#include "core/report/message_text.h"
#include "tests/support/test_env.h"

namespace ayar {
namespace {

using nlohmann::json;

// Sets (or unsets) an environment variable for one test and puts the old value back.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::optional<std::string>& value) : m_name(name) {
    if (const char* old = std::getenv(name)) m_old = old;
    if (value) {
      ::setenv(name, value->c_str(), 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (m_old) {
      ::setenv(m_name.c_str(), m_old->c_str(), 1);
    } else {
      ::unsetenv(m_name.c_str());
    }
  }

 private:
  std::string m_name;
  std::optional<std::string> m_old;
};

const EngineCatalogue& shipped() {
  static const EngineCatalogue catalogue = [] {
    ScopedEnv noOverride("AYAR_RESOURCES_DIR", std::nullopt);
    return EngineCatalogue::loadDefault();
  }();
  return catalogue;
}

std::string messageOf(const std::function<void()>& action) {
  try {
    action();
  } catch (const Error& error) {
    return error.what();
  }
  return "(no error)";
}

std::string turkishMessageOf(const std::function<void()>& action) {
  try {
    action();
  } catch (const Error& error) {
    return errorText(error, ReportLanguage::Turkish);
  }
  return "(no error)";
}

json minimalTemplate(const std::string& name) {
  return {{"name", name},
          {"display_name", "Test engine"},
          {"executable", "test-engine"},
          {"args", {"serve", "{model}", "--port", "{port}"}},
          {"flags",
           {{{"name", "--batch"},
             {"type", "int"},
             {"min", 1},
             {"description", {{"en", "Batch size."}, {"tr", "Grup boyu."}}}}}}};
}

TEST(ResourcesDir, EnvironmentVariableWins) {
  test::TempDir dir;
  ScopedEnv override("AYAR_RESOURCES_DIR", dir.path().string());
  EXPECT_EQ(resourcesDir(), dir.path());
}

TEST(ResourcesDir, EnvironmentVariableNamingNoFolderIsAnError) {
  test::TempDir dir;
  ScopedEnv override("AYAR_RESOURCES_DIR", (dir / "missing").string());
  const std::string message = messageOf([] { (void)resourcesDir(); });
  EXPECT_NE(message.find("AYAR_RESOURCES_DIR"), std::string::npos) << message;
  EXPECT_NE(message.find((dir / "missing").string()), std::string::npos) << message;
}

TEST(ResourcesDir, BuildTreeFindsTheSourceResources) {
  ScopedEnv noOverride("AYAR_RESOURCES_DIR", std::nullopt);
  EXPECT_TRUE(std::filesystem::exists(resourcesDir() / "engines" / "vllm.json"));
}

TEST(EngineCatalogue, LoadsTheShippedTemplates) {
  std::vector<std::string> names;
  for (const auto& engineTemplate : shipped().templates())
    names.push_back(engineTemplate.name);
  EXPECT_EQ(names, (std::vector<std::string>{"ayar", "sglang", "tensorrt-llm", "vllm"}));
  for (const auto& engineTemplate : shipped().templates()) {
    EXPECT_FALSE(engineTemplate.displayName.empty());
    EXPECT_EQ(engineTemplate.healthPath, "/health");
    EXPECT_FALSE(engineTemplate.flags.empty());
    for (const auto& flag : engineTemplate.flags) {
      EXPECT_FALSE(flag.descriptionEn.empty()) << engineTemplate.name << " " << flag.name;
      EXPECT_FALSE(flag.descriptionTr.empty()) << engineTemplate.name << " " << flag.name;
    }
  }
  EXPECT_TRUE(shipped().at("ayar").completeCatalogue);
  EXPECT_FALSE(shipped().at("vllm").completeCatalogue);
  // Only the bundled engine has models known by name (the workbench offers them).
  ASSERT_FALSE(shipped().at("ayar").modelPresets.empty());
  EXPECT_EQ(shipped().at("ayar").modelPresets.front(), "qwen3-tiny");
  EXPECT_TRUE(shipped().at("vllm").modelPresets.empty());
  EXPECT_EQ(shipped().at("vllm").apiKeyEnv, "VLLM_API_KEY");
}

TEST(EngineCatalogue, ShippedTemplatesListTheMainTuningFlags) {
  const std::map<std::string, std::vector<std::string>> expected = {
      {"vllm",
       {"--max-model-len", "--max-num-seqs", "--max-num-batched-tokens", "--gpu-memory-utilization",
        "--block-size", "--enable-prefix-caching", "--no-enable-prefix-caching", "--enable-chunked-prefill",
        "--kv-cache-dtype", "--quantization", "--tensor-parallel-size", "-tp", "--enforce-eager",
        "--reasoning-parser", "--speculative-config", "--performance-mode"}},
      {"sglang",
       {"--mem-fraction-static", "--max-running-requests", "--chunked-prefill-size", "--schedule-policy",
        "--tp", "--tp-size", "--quantization", "--kv-cache-dtype", "--enable-torch-compile",
        "--cuda-graph-max-bs"}},
      {"tensorrt-llm",
       {"--max_batch_size", "--max_num_tokens", "--kv_cache_free_gpu_memory_fraction", "--tp_size",
        "--backend"}},
      {"ayar",
       {"--max-model-len", "--max-num-seqs", "--max-num-batched-tokens", "--gpu-memory-utilization",
        "--block-size", "--enable-prefix-caching", "--no-enable-prefix-caching", "--enforce-eager",
        "--kv-cache-dtype", "--quantization", "--seed", "--reasoning-parser", "--sim-profile",
        "--load-format", "--tokenizer"}}};
  for (const auto& [engine, flags] : expected) {
    for (const auto& flag : flags) {
      EXPECT_NE(shipped().at(engine).findFlag(flag), nullptr) << engine << " lacks " << flag;
    }
  }
  EXPECT_EQ(shipped().at("sglang").findFlag("--mem-fraction-static")->vllmFlag, "--gpu-memory-utilization");
  EXPECT_EQ(shipped().at("tensorrt-llm").findFlag("--max_batch_size")->vllmFlag, "--max-num-seqs");
  EXPECT_EQ(shipped().at("vllm").findFlag("--gpu-memory-utilization")->defaultValue, "0.9");
}

TEST(EngineCatalogue, UnknownEngineListsTheKnownOnes) {
  const std::string message = messageOf([] { (void)shipped().at("tgi"); });
  EXPECT_NE(message.find("\"tgi\""), std::string::npos) << message;
  EXPECT_NE(message.find("ayar, sglang, tensorrt-llm, vllm"), std::string::npos) << message;
  EXPECT_EQ(shipped().find("tgi"), nullptr);
}

TEST(EngineCatalogue, FolderErrorsNameTheFolder) {
  test::TempDir dir;
  EXPECT_NE(messageOf([&] { (void)EngineCatalogue::loadFolder(dir.path()); }).find("holds no *.json"),
            std::string::npos);
  EXPECT_NE(messageOf([&] { (void)EngineCatalogue::loadFolder(dir / "missing"); }).find("does not exist"),
            std::string::npos);
}

TEST(EngineCatalogue, LoadsAValidTemplateFolder) {
  test::TempDir dir;
  std::ofstream(dir / "test.json") << minimalTemplate("test").dump(2);
  std::ofstream(dir / "notes.txt") << "not a template";
  const EngineCatalogue catalogue = EngineCatalogue::loadFolder(dir.path());
  ASSERT_EQ(catalogue.templates().size(), 1u);
  const EngineTemplate& loaded = catalogue.at("test");
  EXPECT_EQ(loaded.sourcePath, dir / "test.json");
  EXPECT_EQ(loaded.healthPath, "/health");
  EXPECT_EQ(loaded.reservedFlags(), std::vector<std::string>{"--port"});
  EXPECT_EQ(loaded.findFlag("--batch")->min, 1.0);
}

// Each broken template yields an error naming the file and the field at fault.
TEST(EngineCatalogue, TemplateErrorsNameTheFileAndTheField) {
  test::TempDir dir;
  struct Case {
    std::function<void(json&)> breakIt;
    std::string expected;
    std::string expectedTurkish;
  };
  const std::vector<Case> cases = {
      {[](json& t) { t.erase("executable"); }, "\"executable\" is missing", "\"executable\" eksik"},
      {[](json& t) { t["executable"] = 5; }, "\"executable\" must be a string",
       "\"executable\" metin olmalı, sayı değil"},
      {[](json& t) { t["name"] = "other"; }, "\"name\" is \"other\" but the file is broken.json",
       "\"name\" alanı \"other\", dosyanın adı ise broken.json"},
      {[](json& t) {
         t["args"] = {"serve", "{modle}", "{port}"};
       },
       "args[1]: unknown placeholder {modle}", "args[1]: bilinmeyen yer tutucu {modle}"},
      {[](json& t) {
         t["args"] = {"serve", "{model"};
       },
       "never closes it", "hiç kapatmıyor"},
      {[](json& t) {
         t["args"] = {"serve", "{model}"};
       },
       "must use the {port} placeholder", "args: {port} yer tutucusunu kullanmalı"},
      {[](json& t) { t["args"].push_back(json::array()); }, "args[4]: must be a string, or a non-empty list",
       "args[4]: bir metin ya da boş olmayan"},
      {[](json& t) { t["health_path"] = "health"; }, "health_path: must start with /",
       "health_path: / ile başlamalı"},
      {[](json& t) { t["startup_timeout_s"] = 0; }, "startup_timeout_s: must be a whole number",
       "startup_timeout_s: en az 1 olan"},
      {[](json& t) { t["tpyo"] = 1; }, "unknown field \"tpyo\"", "bilinmeyen alan \"tpyo\""},
      {[](json& t) { t["flags"][0]["type"] = "integer"; }, "flags[0] (--batch): \"type\" is \"integer\"",
       "flags[0] (--batch): \"type\" alanı \"integer\""},
      {[](json& t) { t["flags"][0]["type"] = "choice"; }, "flags[0] (--batch): a choice flag needs",
       "flags[0] (--batch): choice türündeki bir bayrak"},
      {[](json& t) { t["flags"][0]["choices"] = {"1"}; }, "\"choices\" is only for choice flags",
       "\"choices\" yalnızca choice bayrakları içindir"},
      {[](json& t) { t["flags"][0]["default"] = 0; }, "flags[0] (--batch): \"default\" does not fit the flag",
       "flags[0] (--batch): \"default\" değeri bayrağa uymuyor: --batch için 0 verilmiş"},
      {[](json& t) { t["flags"][0]["description"].erase("tr"); },
       "flags[0] (--batch): description: \"tr\" is missing", "flags[0] (--batch): description: \"tr\" eksik"},
      {[](json& t) { t["flags"][0]["name"] = "batch"; }, "\"name\" must start with a dash",
       "\"name\" tireyle başlamalı"},
      {[](json& t) { t["flags"][0]["false_flag"] = "--no-batch"; }, "\"false_flag\" is only for bool flags",
       "\"false_flag\" yalnızca bool bayrakları içindir"},
      {[](json& t) { t["flags"][0]["min"] = "one"; }, "\"min\" must be a number", "\"min\" bir sayı olmalı"},
      {[](json& t) { t["flags"][0]["max"] = 0; }, "\"min\" is larger than \"max\"",
       "\"min\", \"max\" değerinden büyük"},
      {[](json& t) { t["flags"].push_back(t["flags"][0]); },
       "flags[1] (--batch): --batch is already used by --batch",
       "flags[1] (--batch): --batch zaten --batch tarafından kullanılıyor"},
      {[](json& t) {
         t["flags"][0]["type"] = "string";
         t["flags"][0].erase("min");
         t["flags"][0]["pattern"] = "([";
       },
       "\"pattern\" is not a valid regular expression", "\"pattern\" geçerli bir düzenli ifade değil"},
  };
  for (const auto& c : cases) {
    json broken = minimalTemplate("broken");
    c.breakIt(broken);
    std::ofstream(dir / "broken.json") << broken.dump();
    const std::string message = messageOf([&] { (void)EngineCatalogue::loadFile(dir / "broken.json"); });
    EXPECT_NE(message.find((dir / "broken.json").string()), std::string::npos) << message;
    EXPECT_NE(message.find(c.expected), std::string::npos)
        << "expected \"" << c.expected << "\" in: " << message;
    const std::string turkish =
        turkishMessageOf([&] { (void)EngineCatalogue::loadFile(dir / "broken.json"); });
    EXPECT_NE(turkish.find((dir / "broken.json").string()), std::string::npos) << turkish;
    EXPECT_NE(turkish.find(c.expectedTurkish), std::string::npos)
        << "expected \"" << c.expectedTurkish << "\" in: " << turkish;
  }
  std::ofstream(dir / "broken.json") << "{\"name\": \"broken\",";
  const std::string message = messageOf([&] { (void)EngineCatalogue::loadFile(dir / "broken.json"); });
  EXPECT_NE(message.find("broken.json: not valid JSON"), std::string::npos) << message;
}

std::vector<std::string> messages(const std::vector<FlagIssue>& issues, FlagIssue::Severity severity) {
  std::vector<std::string> result;
  for (const auto& issue : issues) {
    if (issue.severity == severity) result.push_back(issue.message);
  }
  return result;
}

TEST(FlagValidation, AcceptsWellFormedValues) {
  const std::vector<EngineFlag> flags = {
      EngineFlag::option("--max-model-len", "8192"),
      EngineFlag::option("--max-num-seqs", "256"),
      EngineFlag::option("--gpu-memory-utilization", "0.95"),
      EngineFlag::option("--block-size", "16"),
      EngineFlag::toggle("--enable-prefix-caching"),
      EngineFlag::option("--enable-chunked-prefill", "false"),
      EngineFlag::option("--kv-cache-dtype", "fp8"),
      EngineFlag::option("-tp", "2"),
      EngineFlag::toggle("--enforce-eager"),
      EngineFlag::option("--speculative-config", R"({"method": "ngram", "num_speculative_tokens": 4})"),
      EngineFlag::option("--performance-mode", "throughput"),
      EngineFlag::rawArgument("--anything=goes"),
  };
  EXPECT_TRUE(checkFlags(shipped().at("vllm"), flags).empty());
  EXPECT_TRUE(checkFlags(shipped().at("ayar"), {EngineFlag::option("--sim-profile", "fixed:20,5.5"),
                                                EngineFlag::toggle("--no-enable-prefix-caching")})
                  .empty());
}

// Flag lists that start the engine the same way give the same settings: a switch and its "true", a
// negation and "false", a default spelled out and left out, 16384 and "16384.0".
TEST(EffectiveFlags, SpellingsOfTheSameSettingsAgreeAndDefaultsFillIn) {
  const EngineTemplate& ayar = shipped().at("ayar");
  const auto defaults = effectiveFlags(ayar, {});
  EXPECT_EQ(defaults.at("--enable-prefix-caching"), "true");
  EXPECT_EQ(defaults.at("--max-num-batched-tokens"), "8192");
  // The engine picks --max-num-seqs from the device when it starts: no default to fill in.
  EXPECT_EQ(defaults.count("--max-num-seqs"), 0u);
  EXPECT_EQ(effectiveFlags(ayar, {EngineFlag::toggle("--enable-prefix-caching"),
                                  EngineFlag::option("--max-num-batched-tokens", "8192")}),
            defaults);
  EXPECT_NE(effectiveFlags(ayar, {EngineFlag::option("--max-num-seqs", "256")}), defaults);
  EXPECT_EQ(effectiveFlags(ayar, {EngineFlag::toggle("--no-enable-prefix-caching")}),
            effectiveFlags(ayar, {EngineFlag::option("--enable-prefix-caching", "false")}));
  EXPECT_NE(effectiveFlags(ayar, {EngineFlag::toggle("--no-enable-prefix-caching")}), defaults);
  EXPECT_EQ(effectiveFlags(ayar, {EngineFlag::option("--max-num-batched-tokens", "16384")}),
            effectiveFlags(ayar, {EngineFlag::option("--max-num-batched-tokens", "16384.0")}));
  EXPECT_NE(effectiveFlags(ayar, {EngineFlag::option("--max-num-batched-tokens", "16384")}), defaults);
  EXPECT_EQ(effectiveFlags(ayar, {EngineFlag::rawArgument("--foo=bar")}).at("--foo=bar"), "");
}

TEST(FlagValidation, WrongValuesAreErrorsNamingTheFlag) {
  const auto issues =
      checkFlags(shipped().at("vllm"), {
                                           EngineFlag::option("--max-num-seqs", "many"),
                                           EngineFlag::option("--gpu-memory-utilization", "1.5"),
                                           EngineFlag::option("--block-size", "17"),
                                           EngineFlag::option("--enforce-eager", "maybe"),
                                           EngineFlag::toggle("--max-model-len"),
                                           EngineFlag::option("--speculative-config", "{bad"),
                                           EngineFlag::option("--no-enable-prefix-caching", "1"),
                                           EngineFlag::option("--tensor-parallel-size", "0"),
                                       });
  const std::vector<std::string> expected = {
      "--max-num-seqs needs a whole number, not \"many\".",
      "--gpu-memory-utilization is 1.5; it must be between 0.01 and 1.",
      "--block-size is \"17\"; use one of: 1, 8, 16, 32, 64, 128.",
      "--enforce-eager is a switch: give it no value, or true/false, not \"maybe\".",
      "--max-model-len needs a value (int).",
      "--speculative-config needs a JSON object (like {\"method\": \"ngram\"}), not \"{bad\".",
      "--no-enable-prefix-caching takes no value; it turns --enable-prefix-caching off.",
      "--tensor-parallel-size is 0; it must be at least 1.",
  };
  EXPECT_EQ(messages(issues, FlagIssue::Severity::Error), expected);
  EXPECT_EQ(issues.size(), expected.size());

  const auto patternIssues = checkFlags(shipped().at("ayar"), {EngineFlag::option("--sim-profile", "fast")});
  ASSERT_EQ(patternIssues.size(), 1u);
  // A person reads the flag's description, not its regular expression, in their own language.
  const FlagSpec& sim = *shipped().at("ayar").findFlag("--sim-profile");
  EXPECT_EQ(patternIssues[0].message,
            "--sim-profile is \"fast\", which the engine does not take. " + sim.descriptionEn);
  EXPECT_EQ(patternIssues[0].text.in(ReportLanguage::Turkish),
            "--sim-profile için \"fast\" verilmiş; motor bu biçimi kabul etmez. " + sim.descriptionTr);
  EXPECT_EQ(patternIssues[0].message.find(sim.pattern), std::string::npos);
}

// Every flag problem is written in both languages, the same facts in each.
TEST(FlagValidation, EveryProblemReadsInTurkishToo) {
  const auto issues = checkFlags(shipped().at("ayar"), {EngineFlag::option("--gpu-memory-utilization", "5"),
                                                        EngineFlag::option("--max-num-seqs", "many"),
                                                        EngineFlag::option("--max-num-seqs", "8")});
  ASSERT_EQ(issues.size(), 3u);
  EXPECT_EQ(issues[0].message, "--gpu-memory-utilization is 5; it must be between 0.05 and 1.");
  EXPECT_EQ(issues[0].text.in(ReportLanguage::Turkish),
            "--gpu-memory-utilization için 5 verilmiş; 0.05 ile 1 arasında olmalı.");
  EXPECT_EQ(issues[1].text.in(ReportLanguage::Turkish), "--max-num-seqs bir tam sayı ister, \"many\" değil.");
  EXPECT_EQ(issues[2].text.in(ReportLanguage::Turkish), "--max-num-seqs iki kez verilmiş; birini bırakın.");
}

TEST(FlagValidation, ValidateThrowsEveryErrorAndReturnsWarnings) {
  const std::string message = [] {
    try {
      validateFlags(shipped().at("vllm"),
                    {EngineFlag::option("--max-num-seqs", "x"), EngineFlag::option("--max-model-len", "-1")});
    } catch (const Error& error) {
      return std::string(error.what());
    }
    return std::string("(no error)");
  }();
  EXPECT_EQ(message,
            "--max-num-seqs needs a whole number, not \"x\".\n--max-model-len is -1; it must be at least 1.");
  const auto warnings = validateFlags(shipped().at("vllm"), {EngineFlag::option("--kv-cache-dtype", "fp4")});
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0].flag, "--kv-cache-dtype");
  EXPECT_NE(warnings[0].message.find("passed as written"), std::string::npos);
}

TEST(FlagValidation, UnknownFlagIsAnErrorOnlyForACompleteCatalogue) {
  const auto partial = checkFlags(shipped().at("vllm"), {EngineFlag::option("--swap-space", "4")});
  EXPECT_EQ(
      messages(partial, FlagIssue::Severity::Warning),
      std::vector<std::string>{
          "--swap-space is not in Ayar's catalogue of vLLM flags; it is passed as written, unchecked."});
  const auto complete = checkFlags(shipped().at("ayar"), {EngineFlag::option("--swap-space", "4")});
  ASSERT_EQ(messages(complete, FlagIssue::Severity::Error).size(), 1u);
  EXPECT_NE(complete[0].message.find(
                "--swap-space is not a flag of Ayar engine (bundled). Its flags are: --max-model-len"),
            std::string::npos)
      << complete[0].message;
}

TEST(FlagValidation, FlagsTheTemplateSetsAndDuplicatesAreRefused) {
  const auto reserved = checkFlags(shipped().at("vllm"), {EngineFlag::option("--port", "9000")});
  ASSERT_EQ(reserved.size(), 1u);
  EXPECT_NE(reserved[0].message.find("--port is set by Ayar"), std::string::npos);
  const auto twice = checkFlags(shipped().at("sglang"),
                                {EngineFlag::option("--tp", "2"), EngineFlag::option("--tp-size", "4")});
  EXPECT_EQ(messages(twice, FlagIssue::Severity::Error),
            std::vector<std::string>{"--tp-size is given twice; keep one."});
  const auto noDash = checkFlags(shipped().at("vllm"), {EngineFlag::option("max-num-seqs", "4")});
  ASSERT_EQ(noDash.size(), 1u);
  EXPECT_NE(noDash[0].message.find("write \"--max-num-seqs\""), std::string::npos);
}

using Args = std::vector<std::string>;

TEST(EngineCommandLine, BundledEngineMirrorsVllmServe) {
  EngineSpec spec;
  spec.model = "qwen3-tiny";
  spec.device = "cpu";
  spec.flags = {EngineFlag::option("--max-num-seqs", "8"), EngineFlag::toggle("--enforce-eager"),
                EngineFlag::option("--enable-prefix-caching", "false"), EngineFlag::rawArgument("--seed=7")};
  EXPECT_EQ(
      engineCommandLine(spec, shipped().at("ayar"), 8123, "bin/ayar-engine"),
      (Args{"bin/ayar-engine", "serve", "qwen3-tiny", "--host", "127.0.0.1", "--port", "8123", "--device",
            "cpu", "--max-num-seqs", "8", "--enforce-eager", "--no-enable-prefix-caching", "--seed=7"}));
  spec.servedModelName = "tiny";
  spec.apiKey = "sk-local";
  // The key goes in the engine's environment (AYAR_API_KEY), never on its command line.
  const Args args = engineCommandLine(spec, shipped().at("ayar"), 8123, "ayar-engine");
  EXPECT_EQ(Args(args.begin(), args.begin() + 11),
            (Args{"ayar-engine", "serve", "qwen3-tiny", "--host", "127.0.0.1", "--port", "8123", "--device",
                  "cpu", "--served-model-name", "tiny"}));
  EXPECT_EQ(std::find(args.begin(), args.end(), "sk-local"), args.end());
  EXPECT_EQ(std::find(args.begin(), args.end(), "--api-key"), args.end());
  EXPECT_EQ(shipped().at("ayar").apiKeyEnv, "AYAR_API_KEY");
}

TEST(EngineCommandLine, VllmTemplate) {
  EngineSpec spec;
  spec.kind = EngineKind::External;
  spec.engine = "vllm";
  spec.model = "Qwen/Qwen3-8B";
  spec.flags = {EngineFlag::option("--max-num-seqs", "128"),
                EngineFlag::option("--gpu-memory-utilization", "0.95"),
                EngineFlag::option("--enable-chunked-prefill", "false"),
                EngineFlag::option("--speculative-config", R"({"method": "ngram"})")};
  const Args args = engineCommandLine(spec, shipped().at("vllm"), 8000);
  EXPECT_EQ(args, (Args{"vllm", "serve", "Qwen/Qwen3-8B", "--host", "127.0.0.1", "--port", "8000",
                        "--max-num-seqs", "128", "--gpu-memory-utilization", "0.95",
                        "--no-enable-chunked-prefill", "--speculative-config", R"({"method": "ngram"})"}));
  EXPECT_EQ(displayCommandLine(args),
            "vllm serve Qwen/Qwen3-8B --host 127.0.0.1 --port 8000 --max-num-seqs 128 "
            "--gpu-memory-utilization 0.95 "
            "--no-enable-chunked-prefill --speculative-config '{\"method\": \"ngram\"}'");
  spec.servedModelName = "qwen3";
  spec.executable = "venv/bin/vllm";
  EXPECT_EQ(Args(engineCommandLine(spec, shipped().at("vllm"), 8000)).at(0), "venv/bin/vllm");
  EXPECT_EQ(engineCommandLine(spec, shipped().at("vllm"), 8000).at(7), "--served-model-name");
}

TEST(EngineCommandLine, SglangTemplate) {
  EngineSpec spec;
  spec.kind = EngineKind::External;
  spec.engine = "sglang";
  spec.model = "Qwen/Qwen3-14B";
  spec.apiKey = "sk-sg";
  spec.flags = {EngineFlag::option("--mem-fraction-static", "0.85"), EngineFlag::option("--tp", "2"),
                EngineFlag::toggle("--enable-torch-compile"),
                EngineFlag::option("--disable-radix-cache", "false")};
  EXPECT_EQ(engineCommandLine(spec, shipped().at("sglang"), 30000),
            (Args{"python3", "-m", "sglang.launch_server", "--model-path", "Qwen/Qwen3-14B", "--host",
                  "127.0.0.1", "--port", "30000", "--api-key", "sk-sg", "--mem-fraction-static", "0.85",
                  "--tp", "2", "--enable-torch-compile"}));
}

TEST(EngineCommandLine, TensorRtLlmTemplate) {
  EngineSpec spec;
  spec.kind = EngineKind::External;
  spec.engine = "tensorrt-llm";
  spec.model = "Qwen/Qwen3-14B";
  spec.servedModelName = "ignored";  // trtllm-serve serves the model under its own name
  spec.flags = {EngineFlag::option("--backend", "pytorch"), EngineFlag::option("--max_batch_size", "64"),
                EngineFlag::option("--kv_cache_free_gpu_memory_fraction", "0.9")};
  EXPECT_EQ(engineCommandLine(spec, shipped().at("tensorrt-llm"), 8001),
            (Args{"trtllm-serve", "Qwen/Qwen3-14B", "--host", "127.0.0.1", "--port", "8001", "--backend",
                  "pytorch", "--max_batch_size", "64", "--kv_cache_free_gpu_memory_fraction", "0.9"}));
}

TEST(EngineCommandLine, RemoteEndpointsHaveNone) {
  EngineSpec spec;
  spec.kind = EngineKind::Remote;
  spec.baseUrl = "http://gpu-box:8000";
  EXPECT_THROW(engineCommandLine(spec, shipped().at("vllm"), 8000), Error);
}

}  // namespace
}  // namespace ayar
