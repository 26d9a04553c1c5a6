#pragma once

#include <QString>
#include <filesystem>

namespace ayar {

// `ayar --report WHAT --format F --lang L --output FILE`: the report a user would export from the
// window, written without one. WHAT is run ids separated by commas (the first is the baseline, the
// others are compared with it; one id gives that run's result) or "study:ID". F is pdf, html, md,
// csv or json (empty: from the output's suffix); L the report language (tr or en; empty: the language
// the workbench would open in, the last chosen or the system's). Returns an error message naming the
// input at fault, empty on success.
QString writeHeadlessReport(const std::filesystem::path& storePath, const QString& what,
                            const QString& format, const QString& language, const QString& output);

}  // namespace ayar
