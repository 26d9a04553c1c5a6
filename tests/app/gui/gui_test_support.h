#pragma once

#include <QSettings>
#include <chrono>
#include <functional>

#include "core/study/run_spec.h"

namespace ayar::test {

// A run of the bundled engine's timing simulator with fixed timings: `ttftMs` to the first token,
// `tpotMs` per token after it, `requests` random prompts at `rate` per second.
RunSpec simRunSpec(int ttftMs, int tpotMs, int requests, double rate, const std::string& label);

// Processes events until `done` holds or `timeout` passes; returns done().
bool waitFor(const std::function<bool()>& done, std::chrono::milliseconds timeout);

// Empties the test settings, so that each window starts as on a first start.
void clearSettings();

}  // namespace ayar::test
