// The Setup panel as a newcomer uses it: pick a shipped preset, change a field or two, press Start;
// type something wrong and see where and why. A real ayar-engine (timing simulator) and a real store.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTest>
#include <QWheelEvent>
#include <fstream>
#include <nlohmann/json.hpp>

#include "app/gui/history_model.h"
#include "app/gui/history_page.h"
#include "app/gui/main_window.h"
#include "app/gui/run_controller.h"
#include "app/gui/setup_panel.h"
#include "core/engines/engine_catalogue.h"
#include "core/engines/resources_dir.h"
#include "core/store/result_store.h"
#include "tests/app/gui/gui_test_support.h"
#include "tests/support/sse_server/sse_test_server.h"
#include "tests/support/test_env.h"
#include "widgets/engine_flag_form.h"
#include "widgets/form_field.h"
#include "widgets/profile_editor.h"
#include "widgets/request_options_editor.h"

namespace ayar {
namespace {

// What a newcomer's first window holds (the simulator of an H200), with the simulator's timings set
// to fixed ones through the flag form, so that every preset finishes in seconds.
void typeFastSimulator(SetupPanel& setup) {
  auto* sim = qobject_cast<QLineEdit*>(setup.flagForm()->editorFor(QStringLiteral("--sim-profile")));
  ASSERT_NE(sim, nullptr);
  sim->setText(QStringLiteral("fixed:5,1"));
  ASSERT_EQ(setup.deviceBox()->currentText(), QStringLiteral("sim"));
}

void choosePreset(ProfileEditor& editor, const QString& name) {
  QComboBox* box = editor.presetBox();
  for (int i = 1; i < box->count(); ++i) {
    if (box->itemText(i) == name) {
      box->setCurrentIndex(i);
      emit box->activated(i);
      return;
    }
  }
  ADD_FAILURE() << "no preset " << name.toStdString();
}

// Presses Start and waits for the run's end; returns the stored run (empty when it did not start).
std::optional<StoredRun> pressStartAndWait(MainWindow& window) {
  QSignalSpy finished(&window, &MainWindow::runFinished);
  window.setupPanel()->startButton()->click();
  if (!window.controller()->isRunning()) {
    ADD_FAILURE() << "the run did not start: " << window.statusText().toStdString();
    return std::nullopt;
  }
  EXPECT_TRUE(finished.wait(180000)) << "the run did not finish";
  if (finished.isEmpty()) return std::nullopt;
  EXPECT_TRUE(finished.front().at(1).toString().isEmpty()) << finished.front().at(1).toString().toStdString();
  return window.store().findRun(finished.front().at(0).toLongLong());
}

TEST(SetupPanel, EveryShippedPresetStartsAndFinishesFromTheForm) {
  test::clearSettings();
  test::TempDir dir;
  MainWindow window({dir / "ayar.db", QStringLiteral("en")});
  window.show();
  SetupPanel& setup = *window.setupPanel();
  typeFastSimulator(setup);
  const std::vector<ProfileSpec> presets = listProfiles();
  ASSERT_GE(presets.size(), 11u);
  for (const ProfileSpec& preset : presets) {
    SCOPED_TRACE(preset.name);
    choosePreset(*setup.profileEditor(), QString::fromStdString(preset.name));
    // The API shown is the preset's: a chat preset is sent as chat.
    const std::string backend = preset.backend.empty() ? "openai" : preset.backend;
    EXPECT_EQ(setup.requestOptions()->apiBox()->currentData().toString().toStdString(), backend);
    setup.profileEditor()->requestsField()->setValue(4);  // a few requests, at the preset's own rate
    const auto run = pressStartAndWait(window);
    ASSERT_TRUE(run);
    EXPECT_EQ(run->status, RunStatus::Completed);
    EXPECT_EQ(run->storedRequests, 4);
    EXPECT_EQ(run->info.backend, backend);
    EXPECT_EQ(run->info.endpoint, preset.endpoint.empty() ? "/v1/completions" : preset.endpoint);
    EXPECT_EQ(run->summary.value("completed", 0), 4);
    // Four requests where the preset has hundreds: stored as the preset, edited.
    EXPECT_EQ(run->info.profile.value("edited_from", std::string()), preset.name);
    EXPECT_EQ(run->info.profile.value("name", std::string()), "");
    EXPECT_EQ(run->info.profile.value("num_prompts", 0), 4);
  }
}

TEST(SetupPanel, AnEditedPresetIsStoredAndListedAsEditedWithWhatRan) {
  test::clearSettings();
  test::TempDir dir;
  MainWindow window({dir / "ayar.db", QStringLiteral("en")});
  SetupPanel& setup = *window.setupPanel();
  typeFastSimulator(setup);
  ProfileEditor& profile = *setup.profileEditor();
  choosePreset(profile, QStringLiteral("cpu-quick"));
  // As shipped, the preset is the preset.
  EXPECT_EQ(setup.runSpec().profile.name, "cpu-quick");
  // cpu-quick turned into ShareGPT at 4/s: no longer cpu-quick.
  profile.datasetBox()->setCurrentIndex(profile.datasetBox()->findData(QStringLiteral("sharegpt")));
  profile.rateField()->setText(QStringLiteral("4"));
  profile.requestsField()->setValue(6);
  const RunSpec spec = setup.runSpec();
  EXPECT_EQ(spec.profile.name, "");
  EXPECT_EQ(spec.profile.editedFrom, "cpu-quick");
  EXPECT_EQ(spec.profile.datasetName, "sharegpt");
  const auto run = pressStartAndWait(window);
  ASSERT_TRUE(run);
  EXPECT_EQ(run->info.profile.value("dataset_name", std::string()), "sharegpt");
  EXPECT_EQ(run->info.profile.value("request_rate", 0.0), 4.0);

  HistoryModel& history = *window.historyModel();
  ASSERT_EQ(history.rowCount(), 1);
  EXPECT_EQ(history.index(0, HistoryModel::Profile).data().toString(), QStringLiteral("cpu-quick, edited"));
  HistoryFilter filter;
  filter.setSourceModel(&history);
  filter.setSearchText(QStringLiteral("sharegpt"));
  EXPECT_EQ(filter.rowCount(), 1);
  filter.setSearchText(QStringLiteral("random"));
  EXPECT_EQ(filter.rowCount(), 0);

  // Set up again: the form shows what ran, the preset it came from chosen and marked edited.
  ASSERT_TRUE(window.setUpAgain(run->id));
  EXPECT_EQ(profile.preset()->name, "cpu-quick");
  EXPECT_EQ(profile.datasetBox()->currentData().toString(), QStringLiteral("sharegpt"));
  EXPECT_EQ(setup.runSpec().profile.editedFrom, "cpu-quick");
  EXPECT_EQ(setup.runSpec().profile.numPrompts, 6);
}

TEST(SetupPanel, FieldsTheDatasetDoesNotUseAreGreyedAndSayWhy) {
  test::clearSettings();
  test::TempDir dir;
  MainWindow window({dir / "ayar.db", QStringLiteral("en")});
  ProfileEditor& profile = *window.setupPanel()->profileEditor();
  choosePreset(profile, QStringLiteral("cpu-quick"));
  EXPECT_TRUE(profile.inputField()->isEnabled());
  EXPECT_TRUE(profile.outputField()->isEnabled());
  EXPECT_FALSE(window.setupPanel()->requestOptions()->ignoreEosBox()->isEnabled());  // random forces it
  EXPECT_TRUE(window.setupPanel()->requestOptions()->ignoreEosBox()->isChecked());

  profile.datasetBox()->setCurrentIndex(profile.datasetBox()->findData(QStringLiteral("sharegpt")));
  EXPECT_FALSE(profile.inputField()->isEnabled());
  EXPECT_FALSE(profile.inputField()->toolTip().isEmpty());
  EXPECT_TRUE(profile.datasetHint()->text().contains(QStringLiteral("ShareGPT")));
  // Output tokens stays, meaning what it says: the dataset's lengths, or every reply this long.
  profile.outputField()->setValue(0);
  EXPECT_EQ(profile.outputField()->text(), QStringLiteral("the dataset's"));
  EXPECT_FALSE(window.setupPanel()->runSpec().profile.sharegptOutputLen.has_value());
  profile.outputField()->setValue(64);
  EXPECT_EQ(window.setupPanel()->runSpec().profile.sharegptOutputLen, 64);
  EXPECT_TRUE(window.setupPanel()->requestOptions()->ignoreEosBox()->isEnabled());
}

// Each wrong input is marked where it was typed, said in the form's words and the UI's language,
// and nothing starts.
TEST(SetupPanel, WrongInputIsMarkedAtItsFieldInTheUiLanguageAndNothingStarts) {
  for (const QString& language : {QStringLiteral("en"), QStringLiteral("tr")}) {
    test::clearSettings();
    test::TempDir dir;
    MainWindow window({dir / "ayar.db", language});
    window.show();
    SetupPanel& setup = *window.setupPanel();
    ProfileEditor& profile = *setup.profileEditor();
    const bool turkish = language == QStringLiteral("tr");
    const QString rateLabel =
        turkish ? QStringLiteral("İstek hızı (/sn)") : QStringLiteral("Request rate (/s)");
    struct Case {
      QWidget* field;
      std::function<void()> spoil, mend;
      QString says;
    };
    auto* gpuMemory =
        qobject_cast<QLineEdit*>(setup.flagForm()->editorFor(QStringLiteral("--gpu-memory-utilization")));
    auto* sim = qobject_cast<QLineEdit*>(setup.flagForm()->editorFor(QStringLiteral("--sim-profile")));
    ASSERT_TRUE(gpuMemory && sim);
    const std::vector<Case> cases{
        {profile.rateField(), [&] { profile.rateField()->clear(); },
         [&] { profile.rateField()->setText(QStringLiteral("2")); }, rateLabel},
        {profile.rateField(), [&] { profile.rateField()->setText(QStringLiteral("abc")); },
         [&] { profile.rateField()->setText(QStringLiteral("2")); }, QStringLiteral("\"abc\"")},
        {setup.modelBox(), [&] { setup.modelBox()->setEditText(QString()); },
         [&] { setup.modelBox()->setEditText(QStringLiteral("qwen3-0.6b")); },
         turkish ? QStringLiteral("Model: boş") : QStringLiteral("Model: empty")},
        {gpuMemory, [&] { gpuMemory->setText(QStringLiteral("5")); }, [&] { gpuMemory->clear(); },
         QStringLiteral("--gpu-memory-utilization")},
        {sim, [&] { sim->setText(QStringLiteral("fast")); }, [&] { sim->setText(QStringLiteral("h200")); },
         QStringLiteral("--sim-profile")},
    };
    const int areaBefore = window.areas()->currentIndex();
    for (const Case& c : cases) {
      c.spoil();
      window.setupPanel()->startButton()->click();
      EXPECT_FALSE(window.controller()->isRunning());
      EXPECT_EQ(window.areas()->currentIndex(), areaBefore);
      const QString problem = fieldProblem(c.field);
      EXPECT_TRUE(problem.contains(c.says)) << language.toStdString() << ": " << problem.toStdString();
      EXPECT_TRUE(setup.problemsLabel()->isVisibleTo(&setup));
      EXPECT_TRUE(setup.problemsLabel()->text().contains(problem))
          << setup.problemsLabel()->text().toStdString();
      EXPECT_TRUE(c.field->hasFocus() || QApplication::focusWidget() == nullptr);
      c.mend();
      // The mark goes as soon as the field is right.
      EXPECT_TRUE(fieldProblem(c.field).isEmpty()) << fieldProblem(c.field).toStdString();
    }
    EXPECT_FALSE(setup.problemsLabel()->isVisibleTo(&setup)) << setup.problemsLabel()->text().toStdString();
    if (turkish) {
      profile.rateField()->setText(QStringLiteral("2,5"));
      EXPECT_DOUBLE_EQ(setup.runSpec().profile.requestRate, 2.5);
    }
  }
}

// Sends a wheel turn to `target` as the window system does: an event the widget leaves unaccepted
// goes on to its parents, up to the window. (QApplication does that only for spontaneous events,
// which a test cannot make.)
void turnWheelOver(QWidget* target) {
  for (QWidget* w = target; w; w = w->parentWidget()) {
    const QPointF at = QPointF(target->mapTo(w, QPoint(target->width() / 2, target->height() / 2)));
    QWheelEvent wheel(at, w->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    wheel.ignore();
    QApplication::sendEvent(w, &wheel);
    if (wheel.isAccepted() || w->isWindow()) return;
  }
}

TEST(SetupPanel, TheWheelOverTheFormScrollsItAndChangesNoField) {
  test::clearSettings();
  test::TempDir dir;
  MainWindow window({dir / "ayar.db", QStringLiteral("en")});
  window.resize(1366, 768);
  window.show();
  window.activateWindow();
  ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
  SetupPanel& setup = *window.setupPanel();
  auto* caching =
      qobject_cast<QComboBox*>(setup.flagForm()->editorFor(QStringLiteral("--enable-prefix-caching")));
  ASSERT_NE(caching, nullptr);
  auto* scroll = setup.findChild<QScrollArea*>();
  ASSERT_NE(scroll, nullptr);
  ASSERT_GT(scroll->verticalScrollBar()->maximum(), 0) << "the form fits: nothing to scroll";
  const int index = caching->currentIndex();
  const int requests = setup.profileEditor()->requestsField()->value();
  int scrolled = scroll->verticalScrollBar()->value();
  for (QWidget* target : std::initializer_list<QWidget*>{caching, setup.profileEditor()->requestsField(),
                                                         setup.requestOptions()->apiBox()}) {
    turnWheelOver(target);
    EXPECT_GT(scroll->verticalScrollBar()->value(), scrolled) << target->objectName().toStdString();
    scrolled = scroll->verticalScrollBar()->value();
  }
  EXPECT_EQ(caching->currentIndex(), index);
  EXPECT_EQ(setup.profileEditor()->requestsField()->value(), requests);
  // With the focus, the wheel is the field's.
  caching->setFocus();
  ASSERT_TRUE(caching->hasFocus());
  turnWheelOver(caching);
  EXPECT_NE(caching->currentIndex(), index);
}

// vLLM's other load shapes from the form: a ramp-up of the rate, and a sweep from one request at a
// time to all at once (a stored run for each point).
TEST(SetupPanel, ARampUpAndASweepRunFromTheForm) {
  test::clearSettings();
  test::TempDir dir;
  MainWindow window({dir / "ayar.db", QStringLiteral("en")});
  SetupPanel& setup = *window.setupPanel();
  typeFastSimulator(setup);
  ProfileEditor& profile = *setup.profileEditor();
  choosePreset(profile, QStringLiteral("cpu-quick"));
  profile.requestsField()->setValue(6);
  profile.rampUpBox()->setCurrentIndex(profile.rampUpBox()->findData(QStringLiteral("linear")));
  EXPECT_FALSE(profile.rateField()->isEnabled());  // the ramp sets the rate
  profile.findChild<QSpinBox*>(QStringLiteral("rampUpStart"))->setValue(4);
  profile.findChild<QSpinBox*>(QStringLiteral("rampUpEnd"))->setValue(2);
  setup.startButton()->click();
  EXPECT_FALSE(window.controller()->isRunning());  // from 4 down to 2 is not a ramp-up
  EXPECT_FALSE(fieldProblem(profile.findChild<QSpinBox*>(QStringLiteral("rampUpEnd"))).isEmpty());
  profile.findChild<QSpinBox*>(QStringLiteral("rampUpEnd"))->setValue(12);
  const auto ramp = pressStartAndWait(window);
  ASSERT_TRUE(ramp);
  EXPECT_EQ(ramp->info.profile.value("ramp_up_strategy", std::string()), "linear");
  EXPECT_EQ(ramp->info.profile.value("ramp_up_end_rps", 0), 12);
  EXPECT_EQ(ramp->storedRequests, 6);

  profile.loadModeBox()->setCurrentIndex(3);  // sweep
  profile.findChild<QSpinBox*>(QStringLiteral("sweepPoints"))->setValue(1);
  const std::size_t before = window.store().listRuns().size();
  ASSERT_TRUE(pressStartAndWait(window));
  EXPECT_EQ(window.store().listRuns().size(), before + 3);  // one at a time, all at once, one rate between
}

QStringList listedModels(const SetupPanel& setup) {
  QStringList models;
  for (int i = 0; i < setup.modelBox()->count(); ++i)
    models.append(setup.modelBox()->itemText(i));
  return models;
}

QStringList presetsOf(const EngineCatalogue& catalogue) {
  QStringList presets;
  for (const std::string& preset : catalogue.at("ayar").modelPresets)
    presets.append(QString::fromStdString(preset));
  return presets;
}

// The bundled engine's models are its catalogue entry's model_presets, in their order, and nothing
// else: a preset added to the catalogue is offered without a change to the panel.
TEST(SetupPanel, TheModelsOfferedAreTheCataloguesPresetsInOrder) {
  test::clearSettings();
  test::TempDir dir;
  MainWindow window({dir / "ayar.db", QStringLiteral("en")});
  const QStringList shipped = presetsOf(EngineCatalogue::loadDefault());
  ASSERT_FALSE(shipped.isEmpty());
  EXPECT_EQ(listedModels(*window.setupPanel()), shipped);

  // A catalogue whose entry lists other presets: the panel lists those.
  nlohmann::json entry = nlohmann::json::parse(std::ifstream(resourcesDir() / "engines" / "ayar.json"));
  entry["model_presets"] = {"qwen3-0.6b", "tiny-test-model", "qwen3-tiny"};
  std::filesystem::create_directories(dir / "engines");
  std::ofstream(dir / "engines" / "ayar.json") << entry.dump();
  const EngineCatalogue catalogue = EngineCatalogue::loadFolder(dir / "engines");
  const SetupPanel setup(catalogue);
  EXPECT_EQ(listedModels(setup), (QStringList{QStringLiteral("qwen3-0.6b"), QStringLiteral("tiny-test-model"),
                                              QStringLiteral("qwen3-tiny")}));
  EXPECT_EQ(listedModels(setup), presetsOf(catalogue));
}

// "Set up again" fills the form without shrinking its fields; the View menu shows and hides Setup.
TEST(SetupPanel, SetUpAgainKeepsTheFieldsWidthsAndTheViewMenuTogglesTheSetup) {
  test::clearSettings();
  test::TempDir dir;
  MainWindow window({dir / "ayar.db", QStringLiteral("en")});
  window.resize(1366, 768);
  window.show();
  SetupPanel& setup = *window.setupPanel();
  QCoreApplication::processEvents();
  const int device = setup.deviceBox()->width(), model = setup.modelBox()->width();
  setup.setRunSpec(test::simRunSpec(5, 1, 3, 100.0, "again"));
  const auto run = pressStartAndWait(window);
  ASSERT_TRUE(run);
  ASSERT_TRUE(window.setUpAgain(run->id));
  for (int i = 0; i < 5; ++i)
    QCoreApplication::processEvents();
  EXPECT_EQ(setup.deviceBox()->width(), device);
  EXPECT_EQ(setup.modelBox()->width(), model);

  QAction* toggle = nullptr;
  for (QAction* action : window.findChildren<QAction*>()) {
    if (action->text() == QStringLiteral("Setup")) toggle = action;
  }
  ASSERT_NE(toggle, nullptr);
  EXPECT_TRUE(toggle->isEnabled());
  toggle->trigger();
  EXPECT_FALSE(setup.isVisible());
  toggle->trigger();
  EXPECT_TRUE(setup.isVisible());
}

// The request options reach the server as set: the API, sampling parameters, an extra body, headers.
TEST(SetupPanel, RequestOptionsReachTheServerAsSet) {
  test::clearSettings();
  test::TempDir dir;
  test::SseTestServer server({.ttftMs = 1, .itlMs = 1, .tokensPerChunk = 1, .recordRequests = true});
  MainWindow window({dir / "ayar.db", QStringLiteral("en")});
  SetupPanel& setup = *window.setupPanel();
  RunSpec remote;
  remote.engine.kind = EngineKind::Remote;
  remote.engine.baseUrl = server.baseUrl();
  remote.engine.model = "test-model";
  remote.tokenizer = test::tokenizerDir().string();
  remote.profile = loadProfile("cpu-quick");
  setup.setRunSpec(remote);
  ProfileEditor& profile = *setup.profileEditor();
  profile.requestsField()->setValue(3);
  profile.rateField()->setText(QStringLiteral("inf"));
  RequestOptionsEditor& options = *setup.requestOptions();
  options.apiBox()->setCurrentIndex(options.apiBox()->findData(QStringLiteral("openai-chat")));
  EXPECT_EQ(options.endpointField()->text(), QStringLiteral("/v1/chat/completions"));  // followed the API
  options.temperatureField()->setText(QStringLiteral("0.7"));
  options.findChild<QLineEdit*>(QStringLiteral("extraBody"))->setText(QStringLiteral("{\"top_k\": 20}"));
  options.headersField()->setPlainText(QStringLiteral("X-Team: tuning\nX-Trace: on"));
  const auto run = pressStartAndWait(window);
  ASSERT_TRUE(run);
  int chats = 0;
  for (const auto& request : server.servedRequests()) {
    if (request.path != "/v1/chat/completions") continue;
    ++chats;
    const auto body = nlohmann::json::parse(request.body);
    EXPECT_TRUE(body.contains("messages"));
    EXPECT_DOUBLE_EQ(body.value("temperature", -1.0), 0.7);
    EXPECT_EQ(body.value("top_k", 0), 20);
    const auto has = [&](const char* name, const char* value) {
      return std::find(request.headers.begin(), request.headers.end(),
                       std::pair<std::string, std::string>(name, value)) != request.headers.end();
    };
    EXPECT_TRUE(has("x-team", "tuning"));
    EXPECT_TRUE(has("x-trace", "on"));
  }
  EXPECT_EQ(chats, 4);  // the test request and three
  EXPECT_EQ(run->info.profile.value("backend", std::string()), "openai-chat");
  EXPECT_EQ(run->info.profile.value("temperature", 0.0), 0.7);
  // Headers may hold secrets: not in the store, not in the saved settings.
  EXPECT_EQ(run->info.config.dump().find("tuning"), std::string::npos);
  window.close();
  QSettings settings;
  for (const QString& key : settings.allKeys())
    EXPECT_FALSE(settings.value(key).toString().contains(QStringLiteral("tuning"))) << key.toStdString();
}

}  // namespace
}  // namespace ayar
