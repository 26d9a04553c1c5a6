#include "tests/app/gui/gui_test_support.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QThread>

#include "tests/support/test_env.h"

namespace ayar::test {

RunSpec simRunSpec(int ttftMs, int tpotMs, int requests, double rate, const std::string& label) {
  RunSpec spec;
  spec.engine.kind = EngineKind::Bundled;
  spec.engine.engine = "ayar";
  spec.engine.device = "sim";
  spec.engine.model = "qwen3-0.6b";
  spec.engine.flags = {
      EngineFlag::option("--sim-profile", "fixed:" + std::to_string(ttftMs) + "," + std::to_string(tpotMs))};
  spec.profile.datasetName = "random";
  spec.profile.randomInputLen = 32;
  spec.profile.randomOutputLen = 16;
  spec.profile.ignoreEos = true;
  spec.profile.numPrompts = requests;
  spec.profile.requestRate = rate;
  spec.profile.seed = 7;
  spec.label = label;
  spec.tokenizer = tokenizerDir().string();
  return spec;
}

bool waitFor(const std::function<bool()>& done, std::chrono::milliseconds timeout) {
  QElapsedTimer timer;
  timer.start();
  while (!done()) {
    if (timer.elapsed() > timeout.count()) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    QThread::msleep(5);
  }
  return true;
}

void clearSettings() {
  QSettings settings;
  settings.clear();
  settings.sync();
}

}  // namespace ayar::test
