#pragma once

#include <CLI/CLI.hpp>

namespace ayar::cli {

// `ayar-cli bench`: vllm bench serve's flags with the same meanings, plus profiles, the bundled or an
// external engine, and the results store. Sets `exitCode` when it runs.
void addBenchCommand(CLI::App& app, int& exitCode);

}  // namespace ayar::cli
