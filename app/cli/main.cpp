// ayar-cli: Ayar's command line. Links ayar_core only (no Qt), so it runs on a headless GPU server.
#include <CLI/CLI.hpp>
#include <iostream>
#include <new>

#include "app/cli/bench_command.h"
#include "app/cli/runs_command.h"
#include "app/cli/search_command.h"
#include "app/cli/study_command.h"
#include "app/cli/terminal_text.h"
#include "core/error.h"
#include "core/study/profile_spec.h"

namespace {

void addProfilesCommand(CLI::App& app, int& exitCode) {
  auto* cmd = app.add_subcommand("profiles", "List the load profiles shipped in resources/profiles");
  cmd->callback([&exitCode] {
    for (const auto& profile : ayar::listProfiles()) {
      const auto title = profile.title.count("en") ? profile.title.at("en") : std::string();
      std::cout << profile.name << "\n    " << profile.describe() << (title.empty() ? "" : "\n    " + title)
                << "\n";
    }
    exitCode = 0;
  });
}

}  // namespace

int main(int argc, char** argv) {
  // What files and servers say reaches a terminal as text, never as escape sequences.
  const ayar::cli::TerminalGuard terminal;
  CLI::App app{"Ayar: benchmark and tune LLM serving (vLLM-compatible figures)", "ayar-cli"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("ayar-cli ") + AYAR_VERSION);
  int exitCode = 0;
  ayar::cli::addBenchCommand(app, exitCode);
  ayar::cli::addRunsCommand(app, exitCode);
  ayar::cli::addStudyCommand(app, exitCode);
  ayar::cli::addReportCommand(app, exitCode);
  ayar::cli::addSearchCommands(app, exitCode);
  addProfilesCommand(app, exitCode);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  } catch (const ayar::Error& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  } catch (const std::bad_alloc&) {
    // What was allocated is freed by now: say so rather than abort.
    std::cerr << "error: ayar-cli ran out of memory; nothing more was written. Close other programs, or "
                 "give it less to hold (a smaller file, fewer requests).\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "internal error: " << e.what() << "\n";
    return 1;
  }
  return exitCode;
}
