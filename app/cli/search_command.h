#pragma once

#include <CLI/CLI.hpp>

namespace ayar::cli {

// `ayar-cli tune` (one engine flag searched for the best figure within the SLOs) and `ayar-cli
// capacity` (the largest request rate whose goodput meets the SLOs).
void addSearchCommands(CLI::App& app, int& exitCode);

}  // namespace ayar::cli
