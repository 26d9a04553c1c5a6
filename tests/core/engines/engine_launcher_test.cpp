#include "core/engines/engine_launcher.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <cerrno>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/engines/resources_dir.h"
#include "core/error.h"
#include "tests/core/engines/line_watch.h"
#include "tests/support/test_env.h"

namespace ayar {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

const std::string kHealthServer = AYAR_TEST_HEALTH_SERVER;

const EngineCatalogue& shipped() {
  static const EngineCatalogue catalogue = EngineCatalogue::loadFolder(resourcesDir() / "engines");
  return catalogue;
}

// The bundled engine's spec, run by the test server; its own flags go in as raw arguments.
EngineSpec bundled(std::vector<std::string> serverFlags = {}) {
  EngineSpec spec;
  spec.model = "qwen3-tiny";
  spec.device = "cpu";
  for (auto& flag : serverFlags)
    spec.flags.push_back(EngineFlag::rawArgument(std::move(flag)));
  return spec;
}

LaunchOptions testOptions(const test::TempDir& dir) {
  LaunchOptions options;
  options.bundledEngine = kHealthServer;
  options.logPath = dir / "engine.log";
  options.startupTimeout = 30s;
  options.stopGrace = 5s;
  options.remoteTimeout = 5s;
  return options;
}

std::string startError(EngineLauncher& launcher) {
  try {
    launcher.start();
  } catch (const Error& error) {
    return error.what();
  }
  return "(no error)";
}

bool reaped(pid_t pid) {
  return ::waitpid(pid, nullptr, WNOHANG) == -1 && errno == ECHILD;
}

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(EngineLauncher, BundledEngineStartsOnAFreePortAndWaitsForHealth) {
  test::TempDir dir;
  test::LineWatch watch;
  LaunchOptions options = testOptions(dir);
  options.onLogLine = watch.callback();
  EngineLauncher launcher(bundled({"--health-delay-ms", "300"}), shipped(), options);
  const auto before = Clock::now();
  launcher.start();
  EXPECT_GE(Clock::now() - before, 300ms);
  EXPECT_TRUE(launcher.isRunning());
  ASSERT_GT(launcher.port(), 0);
  EXPECT_EQ(launcher.baseUrl(), "http://127.0.0.1:" + std::to_string(launcher.port()));
  EXPECT_EQ(httpGet(launcher.baseUrl() + "/health", 5s).status, 200);

  const std::vector<std::string>& args = launcher.commandLine();
  const std::vector<std::string> expectedHead = {
      kHealthServer, "serve", "qwen3-tiny", "--host", "127.0.0.1", "--port", std::to_string(launcher.port()),
      "--device",    "cpu"};
  EXPECT_EQ(std::vector<std::string>(args.begin(), args.begin() + 9), expectedHead);
  EXPECT_TRUE(contains(launcher.displayCommand(), "--health-delay-ms 300"));

  EXPECT_FALSE(watch.waitFor("loading qwen3-tiny").empty());
  EXPECT_EQ(launcher.logPath(), dir / "engine.log");
  EXPECT_TRUE(contains(readFile(launcher.logPath()), "health_server: loading qwen3-tiny on 127.0.0.1:"));
}

TEST(EngineLauncher, UsesTheSpecsPortWhenGiven) {
  test::TempDir dir;
  EngineSpec spec = bundled();
  spec.port = pickFreePort();
  EngineLauncher launcher(spec, shipped(), testOptions(dir));
  launcher.start();
  EXPECT_EQ(launcher.port(), *spec.port);
  EXPECT_EQ(httpGet(launcher.baseUrl() + "/v1/models", 5s).status, 200);
}

TEST(EngineLauncher, TimesOutWithAClearMessageAndStopsTheEngine) {
  test::TempDir dir;
  LaunchOptions options = testOptions(dir);
  options.startupTimeout = 500ms;
  EngineLauncher launcher(bundled({"--health-delay-ms", "600000"}), shipped(), options);
  const auto before = Clock::now();
  const std::string message = startError(launcher);
  EXPECT_LT(Clock::now() - before, 10s);
  const std::string url = launcher.baseUrl() + "/health";
  EXPECT_TRUE(contains(message, "Ayar engine (bundled) did not become ready: " + url +
                                    " did not answer 200 within 0.5 s (last answer: HTTP 503)"))
      << message;
  EXPECT_TRUE(contains(message, "The engine was stopped.")) << message;
  EXPECT_TRUE(contains(message, "\nCommand: " + kHealthServer + " serve qwen3-tiny")) << message;
  EXPECT_TRUE(contains(message, "\nLog: " + (dir / "engine.log").string())) << message;
  EXPECT_TRUE(contains(message, "\nLast log lines:\n  health_server: loading qwen3-tiny")) << message;
  ASSERT_NE(launcher.process(), nullptr);
  EXPECT_TRUE(reaped(launcher.process()->pid()));
  EXPECT_FALSE(launcher.isRunning());
}

TEST(EngineLauncher, EarlyExitFailsFastWithExitCodeAndLogTail) {
  test::TempDir dir;
  EngineLauncher launcher(
      bundled({"--health-delay-ms", "600000", "--exit-after-ms", "200", "--exit-code", "7"}), shipped(),
      testOptions(dir));
  const auto before = Clock::now();
  const std::string message = startError(launcher);
  EXPECT_LT(Clock::now() - before, 10s);
  EXPECT_TRUE(contains(message, "Ayar engine (bundled) exited during start-up (exit code 7) before " +
                                    launcher.baseUrl() + "/health answered."))
      << message;
  EXPECT_TRUE(contains(message, "  health_server: fatal: simulated engine failure")) << message;
  EXPECT_TRUE(contains(message, "--exit-code 7")) << message;
  EXPECT_TRUE(reaped(launcher.process()->pid()));
}

TEST(EngineLauncher, AnEngineRejectingAFlagShowsItsMessage) {
  test::TempDir dir;
  EngineLauncher launcher(bundled({"--bogus"}), shipped(), testOptions(dir));
  const std::string message = startError(launcher);
  EXPECT_TRUE(contains(message, "(exit code 2)")) << message;
  EXPECT_TRUE(contains(message, "health_server: unknown flag --bogus")) << message;
}

TEST(EngineLauncher, StopTerminatesTheEngine) {
  test::TempDir dir;
  EngineLauncher launcher(bundled(), shipped(), testOptions(dir));
  launcher.start();
  const pid_t pid = launcher.process()->pid();
  const std::string health = launcher.baseUrl() + "/health";
  launcher.stop();
  EXPECT_FALSE(launcher.isRunning());
  EXPECT_TRUE(reaped(pid));
  EXPECT_EQ(launcher.process()->exitStatus()->signal, SIGTERM);
  const HttpProbe probe = httpGet(health, 2s);
  EXPECT_EQ(probe.status, 0);
  EXPECT_FALSE(probe.error.empty());
  launcher.stop();  // idempotent
}

TEST(EngineLauncher, StopKillsAnEngineThatIgnoresSigterm) {
  test::TempDir dir;
  LaunchOptions options = testOptions(dir);
  options.stopGrace = 300ms;
  EngineLauncher launcher(bundled({"--ignore-sigterm"}), shipped(), options);
  launcher.start();
  const auto before = Clock::now();
  launcher.stop();
  EXPECT_GE(Clock::now() - before, 300ms);
  EXPECT_EQ(launcher.process()->exitStatus()->signal, SIGKILL);
  EXPECT_TRUE(reaped(launcher.process()->pid()));
}

TEST(EngineLauncher, DestructorStopsTheEngine) {
  test::TempDir dir;
  pid_t pid = -1;
  {
    EngineLauncher launcher(bundled(), shipped(), testOptions(dir));
    launcher.start();
    pid = launcher.process()->pid();
  }
  EXPECT_TRUE(reaped(pid));
}

TEST(EngineLauncher, CancelStartStopsTheEngine) {
  test::TempDir dir;
  LaunchOptions options = testOptions(dir);
  EngineLauncher* self = nullptr;
  // Cancel as soon as the engine says it listens, as a GUI's Cancel button would from its thread.
  options.onLogLine = [&self](std::string_view line) {
    if (line.find("listening") != std::string_view::npos && self != nullptr) self->cancelStart();
  };
  EngineLauncher launcher(bundled({"--health-delay-ms", "600000"}), shipped(), options);
  self = &launcher;
  const std::string message = startError(launcher);
  EXPECT_TRUE(contains(message, "Starting Ayar engine (bundled) was cancelled")) << message;
  EXPECT_TRUE(reaped(launcher.process()->pid()));
}

TEST(EngineLauncher, ApiKeyReachesTheEngineButNotTheDisplayedCommand) {
  test::TempDir dir;
  EngineSpec spec = bundled();
  spec.apiKey = "sk-launcher-test";
  EngineLauncher launcher(spec, shipped(), testOptions(dir));
  launcher.start();
  EXPECT_EQ(httpGet(launcher.baseUrl() + "/v1/models", 5s, "sk-launcher-test").status, 200);
  EXPECT_EQ(httpGet(launcher.baseUrl() + "/v1/models", 5s).status, 401);
  // It travels in the environment: the command line, which every local user can read, has no key.
  EXPECT_FALSE(contains(launcher.displayCommand(), "sk-launcher-test"));
  EXPECT_FALSE(contains(launcher.displayCommand(), "--api-key"));
  for (const std::string& argument : launcher.process()->args())
    EXPECT_FALSE(contains(argument, "sk-launcher-test")) << argument;
}

TEST(EngineLauncher, ExternalTemplateIsExpandedAndItsFlagsChecked) {
  test::TempDir dir;
  std::filesystem::create_directory(dir / "engines");
  const nlohmann::json fake = {
      {"name", "fake"},
      {"display_name", "Fake engine"},
      {"executable", kHealthServer},
      {"args",
       {"{model}", "--host", "{host}", "--port", "{port}", {"--served-model-name", "{served_model_name}"}}},
      {"complete_catalogue", true},
      {"flags",
       {{{"name", "--health-delay-ms"},
         {"type", "int"},
         {"min", 0},
         {"description", {{"en", "Delay."}, {"tr", "Gecikme."}}}}}}};
  std::ofstream(dir / "engines" / "fake.json") << fake.dump(2);
  const EngineCatalogue catalogue = EngineCatalogue::loadFolder(dir / "engines");

  EngineSpec spec;
  spec.kind = EngineKind::External;
  spec.engine = "fake";
  spec.model = "some/model";
  spec.servedModelName = "served-name";
  spec.flags = {EngineFlag::option("--health-delay-ms", "-5")};
  try {
    EngineLauncher rejected(spec, catalogue, testOptions(dir));
    FAIL() << "a flag out of range must be refused before anything starts";
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()), "--health-delay-ms is -5; it must be at least 0.");
  }

  spec.flags = {EngineFlag::option("--health-delay-ms", "100")};
  EngineLauncher launcher(spec, catalogue, testOptions(dir));
  launcher.start();
  EXPECT_EQ(launcher.commandLine(),
            (std::vector<std::string>{kHealthServer, "some/model", "--host", "127.0.0.1", "--port",
                                      std::to_string(launcher.port()), "--served-model-name", "served-name",
                                      "--health-delay-ms", "100"}));
  const HttpProbe models = httpGet(launcher.baseUrl() + "/v1/models", 5s);
  EXPECT_EQ(models.status, 200);
  EXPECT_TRUE(contains(models.body, "\"served-name\"")) << models.body;
}

TEST(EngineLauncher, MissingBundledEngineNamesWhereItLooked) {
  test::TempDir dir;
  LaunchOptions options = testOptions(dir);
  options.bundledEngine = dir / "ayar-engine";
  EngineLauncher launcher(bundled(), shipped(), options);
  const std::string message = startError(launcher);
  EXPECT_TRUE(contains(message, (dir / "ayar-engine").string() + " does not exist")) << message;
}

TEST(EngineLauncher, SpecProblemsAreRefusedBeforeStarting) {
  test::TempDir dir;
  auto refusal = [&](const EngineSpec& spec) {
    try {
      EngineLauncher launcher(spec, shipped(), testOptions(dir));
    } catch (const Error& error) {
      return std::string(error.what());
    }
    return std::string("(no error)");
  };
  EngineSpec spec = bundled();
  spec.device = "tpu";
  EXPECT_TRUE(contains(refusal(spec), "use one of: auto, cuda, cpu, sim"));
  spec = bundled();
  spec.flags = {EngineFlag::option("--max-num-seqs", "lots")};
  EXPECT_TRUE(contains(refusal(spec), "--max-num-seqs needs a whole number"));
  spec = bundled();
  spec.apiKeyEnv = "AYAR_TEST_NO_SUCH_KEY_VARIABLE";
  EXPECT_TRUE(contains(refusal(spec), "AYAR_TEST_NO_SUCH_KEY_VARIABLE"));
  spec = bundled();
  spec.kind = EngineKind::External;
  spec.engine = "tgi";
  EXPECT_TRUE(contains(refusal(spec), "no engine template \"tgi\""));
}

// A remote endpoint: a server someone else started, here the test server run directly.
class RemoteEndpoint {
 public:
  explicit RemoteEndpoint(std::vector<std::string> flags) : m_port(pickFreePort()) {
    ProcessOptions options;
    options.args = {kHealthServer, "remote-model", "--port", std::to_string(m_port)};
    options.args.insert(options.args.end(), flags.begin(), flags.end());
    options.onOutputLine = m_watch.callback();
    m_process = std::make_unique<Process>(std::move(options));
    EXPECT_FALSE(m_watch.waitFor("listening").empty());
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(m_port); }

 private:
  int m_port;
  test::LineWatch m_watch;
  std::unique_ptr<Process> m_process;
};

EngineSpec remote(const std::string& url) {
  EngineSpec spec;
  spec.kind = EngineKind::Remote;
  spec.model = "remote-model";
  spec.baseUrl = url;
  return spec;
}

TEST(EngineLauncher, RemoteEndpointIsCheckedNotStarted) {
  test::TempDir dir;
  RemoteEndpoint endpoint({});
  EngineLauncher launcher(remote(endpoint.url() + "/v1/"), shipped(), testOptions(dir));
  launcher.start();
  EXPECT_TRUE(launcher.isRunning());
  EXPECT_EQ(launcher.baseUrl(), endpoint.url());
  EXPECT_EQ(launcher.process(), nullptr);
  EXPECT_TRUE(launcher.commandLine().empty());
  EXPECT_TRUE(launcher.logPath().empty());
}

TEST(EngineLauncher, UnreachableRemoteEndpointIsNamed) {
  test::TempDir dir;
  const std::string url = "http://127.0.0.1:" + std::to_string(pickFreePort());
  EngineLauncher launcher(remote(url), shipped(), testOptions(dir));
  const std::string message = startError(launcher);
  EXPECT_TRUE(contains(message, "The endpoint " + url + " is not reachable: GET " + url + "/health: "))
      << message;
  EXPECT_TRUE(contains(message, "GET " + url + "/v1/models: ")) << message;
  EXPECT_FALSE(launcher.isRunning());
}

TEST(EngineLauncher, RemoteEndpointWithoutHealthIsCheckedThroughModelsWithTheKey) {
  test::TempDir dir;
  RemoteEndpoint endpoint({"--no-health", "--api-key", "sk-remote"});
  EngineLauncher keyless(remote(endpoint.url()), shipped(), testOptions(dir));
  const std::string message = startError(keyless);
  EXPECT_TRUE(contains(message, "refused the request (HTTP 401")) << message;
  EXPECT_TRUE(contains(message, "api_key_env")) << message;

  EngineSpec spec = remote(endpoint.url());
  spec.apiKey = "sk-remote";
  EngineLauncher launcher(spec, shipped(), testOptions(dir));
  launcher.start();
  EXPECT_TRUE(launcher.isRunning());
}

TEST(PickFreePort, GivesAPortNothingListensOn) {
  const int port = pickFreePort();
  EXPECT_GT(port, 0);
  EXPECT_LT(port, 65536);
  EXPECT_EQ(httpGet("http://127.0.0.1:" + std::to_string(port) + "/health", 2s).status, 0);
  EXPECT_THROW(pickFreePort("gpu-box"), Error);
}

}  // namespace
}  // namespace ayar
