#pragma once

#include <CLI/CLI.hpp>

namespace ayar::cli {

// `ayar-cli runs list | show ID | import FILE... | export ID --format json|vllm|csv | delete ID`: the
// results store.
void addRunsCommand(CLI::App& app, int& exitCode);

}  // namespace ayar::cli
