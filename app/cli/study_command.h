#pragma once

#include <CLI/CLI.hpp>

namespace ayar::cli {

// `ayar-cli study run FILE | resume ID | list | presets | report ID`: studies of configurations x
// profiles, kept in the results store cell by cell, and their reports in English or Turkish.
void addStudyCommand(CLI::App& app, int& exitCode);
// `ayar-cli report RUN_IDS...`: stored runs compared with the first, in English or Turkish.
void addReportCommand(CLI::App& app, int& exitCode);

}  // namespace ayar::cli
