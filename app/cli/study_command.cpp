#include "app/cli/study_command.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <thread>

#include "app/cli/cli_store.h"
#include "app/cli/progress_display.h"
#include "app/cli/terminal_text.h"
#include "core/error.h"
#include "core/report/report_document.h"
#include "core/report/text_block.h"
#include "core/store/result_store.h"
#include "core/store/store_path.h"
#include "core/study/study_report.h"
#include "core/study/study_runner.h"

namespace ayar::cli {
namespace {

// Set by SIGINT/SIGTERM; the main thread turns it into StudyRunner::cancel().
std::atomic<int> g_studyStopSignals{0};

extern "C" void onStudyStopSignal(int) {
  if (g_studyStopSignals.fetch_add(1) >= 1) std::_Exit(130);  // a second Ctrl-C: leave at once
}

struct StudyFlags {
  std::string store;
  std::string file;
  std::int64_t id = 0;
  std::string lang = "en";
  std::string format = "md";
  std::string output;
  bool quiet = false;
  bool printReport = false;  // run and resume: a report only when --format or --output is given
};

std::filesystem::path storePathOf(const StudyFlags& flags) {
  return flags.store.empty() ? defaultStorePath() : std::filesystem::path(flags.store);
}

std::filesystem::path existingStore(const StudyFlags& flags) {
  return existingStorePath(flags.store, "ayar-cli study run FILE");
}

// Writes `text` to `path` as is (binary: the bytes the renderer made), or to stdout without a path.
void writeOutput(const std::string& path, const std::string& text) {
  if (path.empty()) {
    std::cout << text;
    return;
  }
  std::ofstream out(path, std::ios::binary);
  if (!out) throw Error("cannot write " + path + ": check the folder exists and is writable");
  out << text;
  if (!out) throw Error("writing " + path + " failed (disk full?)");
}

// Runs (or resumes) a stored study with a line per cell and the load's progress bar in between.
int runStudy(const std::filesystem::path& store, std::int64_t id, const StudyFlags& flags) {
  ProgressDisplay display;
  StudyObserver observer;
  const auto cellName = [](const StudyCell& cell, int total) {
    return "[" + std::to_string(cell.index + 1) + "/" + std::to_string(total) + "] " + cell.configuration +
           " @ " + cell.profile;
  };
  observer.onStage = [&display](const Message& message) {
    display.message("ayar: " + message.in(ReportLanguage::English));
  };
  observer.onCellStarted = [&](const StudyCell& cell, int total) {
    display.message(cellName(cell, total) + ": running");
  };
  observer.onCellFinished = [&](const StudyCell& cell, int total) {
    std::string line = cellName(cell, total) + ": " + std::string(toString(cell.status));
    if (cell.runId) line += " (run " + std::to_string(*cell.runId) + ")";
    if (!cell.error.empty() && cell.status != CellStatus::Done) {
      const std::string first = cell.error.substr(0, cell.error.find('\n'));
      line += ": " + first;
    }
    display.message(line);
  };
  StudyRunner runner(store, id, {}, observer);
  std::exception_ptr error;
  std::atomic<bool> done{false};
  std::thread worker([&] {
    try {
      runner.run();
    } catch (...) {
      error = std::current_exception();
    }
    done = true;
  });
  struct sigaction action {};
  action.sa_handler = onStudyStopSignal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  bool cancelAnnounced = false;
  while (!done) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the UI's redraw tick
    if (g_studyStopSignals.load() > 0 && !cancelAnnounced) {
      cancelAnnounced = true;
      display.message(
          "ayar: stopping the study; finished cells are kept. Continue with `ayar-cli study resume " +
          std::to_string(id) + "`");
      runner.cancel();
    }
    const LoadProgress progress = runner.progress();
    if (!flags.quiet && progress.total > 0) display.update(progress);
  }
  worker.join();
  if (error) std::rethrow_exception(error);

  ResultStore reader(store);
  const auto cells = reader.listStudyCells(id);
  int finished = 0;
  for (const StudyCell& cell : cells)
    finished += cell.status == CellStatus::Done ? 1 : 0;
  std::cerr << "ayar: study " << id << ": " << finished << " of " << cells.size() << " cells done, in "
            << store.string() << "\n";
  if (cancelAnnounced) return 130;
  std::cerr << "ayar: the report: ayar-cli study report " << id << " --lang en|tr --format md|html|csv|json"
            << (flags.store.empty() ? "" : " --store " + flags.store) << "\n";
  if (flags.printReport) {
    const ReportFormat format = parseReportFormat(flags.format);
    writeOutput(
        flags.output,
        renderReport(buildStudyReport(store, id, reportLocaleFor(parseReportLanguage(flags.lang), format)),
                     format));
  }
  return finished > 0 ? 0 : 1;
}

int startStudy(const StudyFlags& flags) {
  const StudySpec study = loadStudy(flags.file);
  parseReportFormat(flags.format);  // a bad format or language stops before any run
  parseReportLanguage(flags.lang);
  const std::filesystem::path store = storePathOf(flags);
  const std::int64_t id = StudyRunner::create(study, store);
  std::cerr << "ayar: study " << id << " (" << study.name << "): " << study.configurations().size()
            << " configurations x " << study.profiles.size() << " profiles"
            << (study.followUpProfiles.empty()
                    ? std::string()
                    : ", then " + std::to_string(study.followUpProfiles.size()) + " follow-up profiles")
            << "\n";
  return runStudy(store, id, flags);
}

int resumeStudy(const StudyFlags& flags) {
  const std::filesystem::path store = existingStore(flags);
  StudyRunner::loadStored(store, flags.id);  // names the id when there is no such study
  return runStudy(store, flags.id, flags);
}

int listStudies(const StudyFlags& flags) {
  ResultStore store(existingStore(flags));
  const auto studies = store.listStudies();
  if (studies.empty()) {
    std::cout << "no studies in " << store.path().string() << "\n";
    return 0;
  }
  std::printf("%-5s %-19s %-11s %-28s %s\n", "ID", "STARTED", "STATUS", "NAME", "CELLS DONE");
  for (const StoredStudy& study : studies) {
    const auto cells = store.listStudyCells(study.id);
    int done = 0;
    int failed = 0;
    for (const StudyCell& cell : cells) {
      done += cell.status == CellStatus::Done ? 1 : 0;
      failed += cell.status == CellStatus::FailedToStart || cell.status == CellStatus::Failed ? 1 : 0;
    }
    std::printf("%-5lld %-19s %-11s %-28s %d/%zu%s\n", static_cast<long long>(study.id),
                localTime(study.createdAt).c_str(), std::string(toString(study.status)).c_str(),
                oneLine(study.name).c_str(), done, cells.size(),
                failed > 0 ? (" (" + std::to_string(failed) + " failed)").c_str() : "");
  }
  return 0;
}

int reportStudy(const StudyFlags& flags) {
  const ReportLanguage language = parseReportLanguage(flags.lang);
  const ReportFormat format = parseReportFormat(flags.format);
  writeOutput(flags.output, renderReport(buildStudyReport(existingStore(flags), flags.id,
                                                          reportLocaleFor(language, format)),
                                         format));
  return 0;
}

struct RunsReportFlags {
  std::vector<std::int64_t> ids;
  std::string store;
  std::string lang = "en";
  std::string format = "md";
  std::string output;
  std::vector<std::string> figures;  // result keys; empty: the seeds' figures
};

}  // namespace

void addReportCommand(CLI::App& app, int& exitCode) {
  auto flags = std::make_shared<RunsReportFlags>();
  auto* report = app.add_subcommand(
      "report",
      "Stored runs side by side: the first is the baseline, the others read \"1.26x faster\" against it");
  report->add_option("RUN_IDS", flags->ids, "Run ids (see runs list); the first is the baseline")->required();
  report->add_option("--store", flags->store, "Results store file (default: ~/.local/share/ayar/ayar.db)");
  report->add_option("--lang", flags->lang, "Report language: en or tr (default en)");
  report->add_option("--format", flags->format, "Report format: md, html, csv or json (default md)");
  report->add_option("-o,--output", flags->output, "File to write the report to (default: standard output)");
  report
      ->add_option("--figures", flags->figures,
                   "The figures to list, by result key, comma-separated (e.g. mean_ttft_ms,p99_itl_ms,"
                   "output_throughput); default: the seed documents' eight")
      ->delimiter(',');
  report->callback([flags, &exitCode] {
    StudyFlags where;
    where.store = flags->store;
    const ReportLanguage language = parseReportLanguage(flags->lang);
    const ReportFormat format = parseReportFormat(flags->format);
    std::vector<RunFigure> figures;
    for (const std::string& key : flags->figures)
      figures.push_back(parseRunFigure(key));  // an unknown key: an error that lists the known ones
    if (figures.empty()) figures = defaultComparisonFigures();
    writeOutput(flags->output, renderReport(buildRunsReport(existingStore(where), flags->ids,
                                                            reportLocaleFor(language, format), figures),
                                            format));
    exitCode = 0;
  });
}

void addStudyCommand(CLI::App& app, int& exitCode) {
  auto* study = app.add_subcommand(
      "study", "Run a study (configurations x profiles, engine restarts between them) and report it");
  study->require_subcommand(1);
  auto flags = std::make_shared<StudyFlags>();
  auto addStore = [&flags](CLI::App* command) {
    command->add_option("--store", flags->store, "Results store file (default: ~/.local/share/ayar/ayar.db)");
  };
  // Returns whether --format or --output was given.
  auto addReportOptions = [&flags](CLI::App* command, const std::string& what) {
    command->add_option("--lang", flags->lang, "Report language: en or tr (default en)");
    auto* format =
        command->add_option("--format", flags->format, "Report format: md, html, csv or json (default md)");
    auto* output = command->add_option("-o,--output", flags->output,
                                       "File to write the report to (default: " + what + ")");
    return [format, output] { return format->count() > 0 || output->count() > 0; };
  };

  auto* run = study->add_subcommand("run", "Run a study file (or a preset from resources/studies)");
  run->add_option("FILE", flags->file,
                  "A study JSON file, or the name of a preset (smoke, qwen3-8b-latency, ...)")
      ->required();
  addStore(run);
  const auto runReport = addReportOptions(run, "standard output, when --format is given");
  run->add_flag("--quiet", flags->quiet, "No progress bar within a cell");
  run->callback([flags, runReport, &exitCode] {
    flags->printReport = runReport();
    exitCode = startStudy(*flags);
  });

  auto* resume =
      study->add_subcommand("resume", "Continue a stopped or killed study; finished cells are kept");
  resume->add_option("ID", flags->id, "Study id (see study list)")->required();
  addStore(resume);
  const auto resumeReport = addReportOptions(resume, "standard output, when --format is given");
  resume->add_flag("--quiet", flags->quiet, "No progress bar within a cell");
  resume->callback([flags, resumeReport, &exitCode] {
    flags->printReport = resumeReport();
    exitCode = resumeStudy(*flags);
  });

  auto* list = study->add_subcommand("list", "Studies in the store, newest first, with their cells done");
  addStore(list);
  list->callback([flags, &exitCode] { exitCode = listStudies(*flags); });

  auto* presets = study->add_subcommand("presets", "The study presets shipped in resources/studies");
  presets->callback([&exitCode] {
    for (const std::string& name : listStudyPresets()) {
      const StudySpec spec = loadStudy(name);
      std::cout << name << "\n    " << localized(spec.title, "en", spec.name) << "\n";
    }
    exitCode = 0;
  });

  auto* report = study->add_subcommand("report", "A stored study's report in the seed documents' shape");
  report->add_option("ID", flags->id, "Study id (see study list)")->required();
  addStore(report);
  addReportOptions(report, "standard output");
  report->callback([flags, &exitCode] { exitCode = reportStudy(*flags); });
}

}  // namespace ayar::cli
