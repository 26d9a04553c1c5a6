#pragma once

#include <CLI/CLI.hpp>

namespace ayar::cli {

// `ayar-cli runs list | show ID | export ID --format json|csv | delete ID`: the results store.
void addRunsCommand(CLI::App& app, int& exitCode);

}  // namespace ayar::cli
