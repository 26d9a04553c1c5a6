#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "app/report/report_export.h"
#include "core/report/report_text.h"

namespace ayar {

// The charts of a study's report (PDF and HTML), drawn offscreen as the Compare area draws them: for
// each option profile, the cumulative distributions of the deciding latency (end-to-end latency when
// the study decides on a throughput) of every configuration measured on it, named in `language`.
// Throws ayar::Error naming the study when the store has no such study.
std::vector<ReportChart> studyReportCharts(const std::filesystem::path& storePath, std::int64_t studyId,
                                           ReportLanguage language);

// Writes a study's report to `path` as `format`, with studyReportCharts() for PDF and HTML (the formats
// that carry charts; the others are not drawn). Throws ayar::Error as writeReportFile and
// buildStudyReport do.
void writeStudyReportFile(const std::filesystem::path& storePath, std::int64_t studyId,
                          ReportLanguage language, const QString& path, ReportFileFormat format);

}  // namespace ayar
