#include "app/gui/setup_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "widgets/engine_flag_form.h"
#include "widgets/profile_editor.h"
#include "widgets/request_options_editor.h"

namespace ayar {

namespace {

const EngineKind kKinds[] = {EngineKind::Bundled, EngineKind::External, EngineKind::Remote};
// The port shown in the command line before a run: the real one is picked free when it starts.
constexpr int kShownPort = 8000;
const std::string kMaskedSecret = "***";

QString fromStd(const std::string& text) {
  return QString::fromStdString(text);
}

std::vector<std::string> toStd(const QStringList& list) {
  std::vector<std::string> out;
  for (const QString& s : list)
    out.push_back(s.toStdString());
  return out;
}

}  // namespace

SetupPanel::SetupPanel(const EngineCatalogue& catalogue, QWidget* parent)
    : QWidget(parent), m_catalogue(catalogue) {
  // The labels are made in the order retranslate() names them.
  auto* content = new QWidget;
  auto* column = new QVBoxLayout(content);
  column->addWidget(buildEngineBox(content));
  column->addWidget(buildFlagsBox(content));
  column->addWidget(buildProfileBox(content));
  column->addWidget(buildRequestsBox(content));
  auto* labelForm = new QFormLayout;
  m_label = new QLineEdit(content);
  m_label->setObjectName(QStringLiteral("runLabel"));
  labelForm->addRow(newLabel(content), m_label);
  column->addLayout(labelForm);
  column->addStretch(1);

  auto* scroll = new QScrollArea(this);
  m_scroll = scroll;
  scroll->setWidget(content);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  m_problems = new QLabel(this);
  m_problems->setObjectName(QStringLiteral("setupProblems"));
  m_problems->setWordWrap(true);
  m_problems->setStyleSheet(QStringLiteral("color: #d73c32"));
  m_problems->setVisible(false);
  m_start = new QPushButton(this);
  m_start->setObjectName(QStringLiteral("startButton"));
  m_start->setDefault(true);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(m_start, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(scroll, 1);
  layout->addWidget(m_problems);
  layout->addLayout(buttons);
  setMinimumWidth(400);

  connectInputs();
  retranslate();
  onKindChanged();
  guardWheel(content);
}

QLabel* SetupPanel::newLabel(QWidget* owner) {
  auto* l = new QLabel(owner);
  m_labels.push_back(l);
  return l;
}

// What runs: the engine kind, and a page for each (bundled, external, remote).
QWidget* SetupPanel::buildEngineBox(QWidget* content) {
  auto* engineBox = new QGroupBox(content);
  m_titled.push_back(engineBox);
  auto* engineForm = new QFormLayout(engineBox);
  m_kind = new QComboBox(engineBox);
  m_kind->setObjectName(QStringLiteral("engineKind"));
  for (int i = 0; i < 3; ++i)
    m_kind->addItem(QString());
  engineForm->addRow(newLabel(engineBox), m_kind);
  m_stack = new QStackedWidget(engineBox);
  engineForm->addRow(m_stack);
  m_stack->addWidget(buildBundledPage());
  m_stack->addWidget(buildExternalPage());
  m_stack->addWidget(buildRemotePage());
  return engineBox;
}

QWidget* SetupPanel::buildBundledPage() {
  auto* bundled = new QWidget(m_stack);
  auto* bundledForm = new QFormLayout(bundled);
  bundledForm->setContentsMargins(0, 0, 0, 0);
  // The bundled engine's devices and model presets, as its catalogue entry lists them.
  const EngineTemplate* ayar = m_catalogue.find("ayar");
  m_device = new QComboBox(bundled);
  m_device->setObjectName(QStringLiteral("device"));
  if (ayar) {
    for (const auto& device : ayar->devices)
      m_device->addItem(fromStd(device));
  }
  bundledForm->addRow(newLabel(bundled), m_device);
  m_model = new QComboBox(bundled);
  m_model->setObjectName(QStringLiteral("model"));
  m_model->setEditable(true);
  if (ayar) {
    for (const auto& preset : ayar->modelPresets)
      m_model->addItem(fromStd(preset));
  }
  m_modelFolder = new QPushButton(bundled);
  auto* modelRow = new QHBoxLayout;
  modelRow->addWidget(m_model, 1);
  modelRow->addWidget(m_modelFolder);
  bundledForm->addRow(newLabel(bundled), modelRow);
  return bundled;
}

QWidget* SetupPanel::buildExternalPage() {
  auto* external = new QWidget(m_stack);
  auto* externalForm = new QFormLayout(external);
  externalForm->setContentsMargins(0, 0, 0, 0);
  m_externalEngine = new QComboBox(external);
  for (const EngineTemplate& t : m_catalogue.templates()) {
    if (t.name != "ayar") m_externalEngine->addItem(fromStd(t.displayName), fromStd(t.name));
  }
  externalForm->addRow(newLabel(external), m_externalEngine);
  m_externalModel = new QLineEdit(external);
  externalForm->addRow(newLabel(external), m_externalModel);
  m_executable = new QLineEdit(external);
  externalForm->addRow(newLabel(external), m_executable);
  return external;
}

QWidget* SetupPanel::buildRemotePage() {
  auto* remote = new QWidget(m_stack);
  auto* remoteForm = new QFormLayout(remote);
  remoteForm->setContentsMargins(0, 0, 0, 0);
  m_baseUrl = new QLineEdit(remote);
  m_baseUrl->setPlaceholderText(QStringLiteral("http://127.0.0.1:8000"));
  remoteForm->addRow(newLabel(remote), m_baseUrl);
  m_remoteModel = new QLineEdit(remote);
  remoteForm->addRow(newLabel(remote), m_remoteModel);
  m_apiKeyEnv = new QLineEdit(remote);
  m_apiKeyEnv->setPlaceholderText(QStringLiteral("OPENAI_API_KEY"));
  remoteForm->addRow(newLabel(remote), m_apiKeyEnv);
  m_apiKey = new QLineEdit(remote);
  m_apiKey->setEchoMode(QLineEdit::Password);
  remoteForm->addRow(newLabel(remote), m_apiKey);
  m_rememberKey = new QCheckBox(remote);
  remoteForm->addRow(m_rememberKey);
  return remote;
}

QWidget* SetupPanel::buildFlagsBox(QWidget* content) {
  auto* flagsBox = new QGroupBox(content);
  m_flagsBox = flagsBox;
  m_titled.push_back(flagsBox);
  auto* flagsColumn = new QVBoxLayout(flagsBox);
  m_flags = new EngineFlagForm(flagsBox);
  flagsColumn->addWidget(m_flags);
  auto* flagsForm = new QFormLayout;
  m_extraArgs = new QLineEdit(flagsBox);
  m_extraArgs->setObjectName(QStringLiteral("extraArguments"));
  flagsForm->addRow(newLabel(flagsBox), m_extraArgs);
  m_commandLine = new QLineEdit(flagsBox);
  m_commandLine->setObjectName(QStringLiteral("commandLine"));
  flagsForm->addRow(newLabel(flagsBox), m_commandLine);
  flagsColumn->addLayout(flagsForm);
  m_commandError = new QLabel(flagsBox);
  m_commandError->setWordWrap(true);
  m_commandError->setStyleSheet(QStringLiteral("color: #d73c32"));
  flagsColumn->addWidget(m_commandError);
  return flagsBox;
}

QWidget* SetupPanel::buildProfileBox(QWidget* content) {
  auto* profileBox = new QGroupBox(content);
  m_titled.push_back(profileBox);
  auto* profileColumn = new QVBoxLayout(profileBox);
  m_profile = new ProfileEditor(profileBox);
  try {
    m_profile->setPresets(listProfiles());
  } catch (const Error&) {
    // No shipped profiles found: the editor still edits one by hand.
  }
  profileColumn->addWidget(m_profile);
  return profileBox;
}

QWidget* SetupPanel::buildRequestsBox(QWidget* content) {
  auto* requestsBox = new QGroupBox(content);
  m_titled.push_back(requestsBox);
  auto* requestsColumn = new QVBoxLayout(requestsBox);
  m_requests = new RequestOptionsEditor(requestsBox);
  requestsColumn->addWidget(m_requests);
  return requestsBox;
}

void SetupPanel::connectInputs() {
  for (QComboBox* c : {m_kind, m_device, m_model, m_externalEngine}) {
    c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    c->setMinimumContentsLength(8);
  }
  connect(m_start, &QPushButton::clicked, this, &SetupPanel::startRequested);
  connect(m_kind, &QComboBox::currentIndexChanged, this, &SetupPanel::onKindChanged);
  connect(m_externalEngine, &QComboBox::currentIndexChanged, this, &SetupPanel::onKindChanged);
  connect(m_modelFolder, &QPushButton::clicked, this, [this] {
    const QString folder =
        QFileDialog::getExistingDirectory(this, tr("Model folder (config.json, *.safetensors)"));
    if (!folder.isEmpty()) m_model->setEditText(folder);
  });
  for (QLineEdit* e : {m_externalModel, m_executable, m_extraArgs, m_apiKey})
    connect(e, &QLineEdit::textChanged, this, &SetupPanel::updateCommandLine);
  connect(m_model, &QComboBox::currentTextChanged, this, &SetupPanel::updateCommandLine);
  connect(m_device, &QComboBox::currentTextChanged, this, &SetupPanel::updateCommandLine);
  connect(m_flags, &EngineFlagForm::flagsChanged, this, &SetupPanel::updateCommandLine);
  connect(m_commandLine, &QLineEdit::editingFinished, this, &SetupPanel::applyEditedCommandLine);
  connect(m_profile, &ProfileEditor::presetChosen, m_requests, &RequestOptionsEditor::setProfileFields);
  connect(m_profile, &ProfileEditor::profileChanged, this, &SetupPanel::onProfileChanged);
  connect(m_requests, &RequestOptionsEditor::changed, this, &SetupPanel::onProfileChanged);
  for (QLineEdit* e : {m_externalModel, m_baseUrl, m_remoteModel, m_label})
    connect(e, &QLineEdit::textChanged, this, [this] {
      if (m_checked) showProblems(problems(), false);
    });
}

void SetupPanel::retranslate() {
  m_titled[0]->setProperty("title", tr("Engine"));
  m_titled[1]->setProperty("title", tr("Engine flags"));
  m_titled[2]->setProperty("title", tr("Load profile"));
  m_titled[3]->setProperty("title", tr("Requests and results"));
  const QString texts[] = {
      tr("Engine"),          tr("Device"),       tr("Model"), tr("Engine"),           tr("Model"),
      tr("Program"),         tr("URL"),          tr("Model"), tr("API key variable"), tr("API key"),
      tr("Extra arguments"), tr("Command line"), tr("Label")};
  for (std::size_t i = 0; i < m_labels.size() && i < std::size(texts); ++i)
    m_labels[i]->setText(texts[i]);
  m_kind->setItemText(0, tr("Bundled (ayar-engine)"));
  m_kind->setItemText(1, tr("External engine (command template)"));
  m_kind->setItemText(2, tr("Remote endpoint"));
  m_modelFolder->setText(tr("Folder…"));
  m_externalModel->setPlaceholderText(tr("Hugging Face id or folder"));
  m_executable->setPlaceholderText(tr("the template's program"));
  m_remoteModel->setPlaceholderText(tr("empty: the first model the server lists"));
  m_apiKey->setPlaceholderText(tr("typed here: used for this session only"));
  m_rememberKey->setText(tr("Remember the typed key on this computer"));
  m_extraArgs->setPlaceholderText(tr("arguments passed as written"));
  m_commandLine->setToolTip(
      tr("The engine's command line. Edit it and press Enter: the flags go back into the "
         "form. The port is picked when the run starts."));
  m_label->setPlaceholderText(tr("baseline, prefix caching on, ..."));
  m_start->setText(tr("Start run"));
  // One Stop button, the Live area's, beside the run's progress.
  m_start->setToolTip(m_start->isEnabled() ? QString() : tr("A run is going: Stop is in the Live area."));
  if (m_commandLine) updateCommandLine();  // its problems, in the new language
}

void SetupPanel::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(event);
}

void SetupPanel::setRunning(bool running) {
  m_start->setEnabled(!running);
  retranslate();
}

const EngineTemplate* SetupPanel::currentTemplate() const {
  switch (kKinds[m_kind->currentIndex()]) {
    case EngineKind::Bundled:
      return m_catalogue.find("ayar");
    case EngineKind::External:
      return m_catalogue.find(m_externalEngine->currentData().toString().toStdString());
    case EngineKind::Remote:
      return nullptr;
  }
  return nullptr;
}

void SetupPanel::onKindChanged() {
  const int index = std::max(0, m_kind->currentIndex());
  m_stack->setCurrentIndex(index);
  // The stack takes the height of its current page only, not of its tallest.
  for (int i = 0; i < m_stack->count(); ++i)
    m_stack->widget(i)->setSizePolicy(QSizePolicy::Preferred,
                                      i == index ? QSizePolicy::Preferred : QSizePolicy::Ignored);
  m_stack->updateGeometry();
  const EngineTemplate* t = currentTemplate();
  m_flagsBox->setVisible(t != nullptr);
  if (t && t->name != m_flags->engineTemplate().name) {
    const auto flags = m_flags->flags();
    m_flags->setTemplate(*t);
    m_flags->setFlags(flags);
    guardWheel(m_flags);
  }
  updateCommandLine();
}

void SetupPanel::onProfileChanged() {
  const ProfileSpec edited = m_profile->profile();
  m_requests->setDataset(edited.datasetName);
  if (const ProfileSpec* preset = m_profile->preset()) {
    RunSpec spec;
    spec.profile = edited;
    m_requests->applyTo(spec);
    nameEditedProfile(spec.profile, *preset);
    m_profile->setEdited(!spec.profile.editedFrom.empty());
  } else {
    m_profile->setEdited(false);
  }
  if (m_checked) showProblems(problems(), false);
}

EngineSpec SetupPanel::engineSpec() const {
  EngineSpec e;
  e.kind = kKinds[m_kind->currentIndex()];
  switch (e.kind) {
    case EngineKind::Bundled:
      e.engine = "ayar";
      e.device = m_device->currentText().toStdString();
      e.model = m_model->currentText().trimmed().toStdString();
      break;
    case EngineKind::External:
      e.engine = m_externalEngine->currentData().toString().toStdString();
      e.model = m_externalModel->text().trimmed().toStdString();
      e.executable = m_executable->text().trimmed().toStdString();
      break;
    case EngineKind::Remote:
      e.baseUrl = m_baseUrl->text().trimmed().toStdString();
      e.model = m_remoteModel->text().trimmed().toStdString();
      e.apiKeyEnv = m_apiKeyEnv->text().trimmed().toStdString();
      e.apiKey = m_apiKey->text().toStdString();
      return e;
  }
  e.flags = m_flags->flags();
  for (const QString& arg : QProcess::splitCommand(m_extraArgs->text()))
    e.flags.push_back(EngineFlag::rawArgument(arg.toStdString()));
  return e;
}

void SetupPanel::updateCommandLine() {
  if (m_updatingCommandLine) return;
  const EngineTemplate* t = currentTemplate();
  if (!t) {
    m_commandLine->clear();
    return;
  }
  const EngineSpec e = engineSpec();
  const auto args = engineCommandLine(e, *t, kShownPort);
  m_commandLine->setText(fromStd(displayCommandLine(
      args, e.apiKey.empty() ? std::vector<std::string>{} : std::vector<std::string>{e.apiKey})));
  m_commandError->clear();
  std::string problems;
  for (const FlagIssue& issue : checkFlags(*t, e.flags)) {
    if (!problems.empty()) problems += "\n";
    problems += issue.text.in(uiReportLanguage());
  }
  m_commandError->setText(fromStd(problems));
  if (m_checked) showProblems(this->problems(), false);
}

void SetupPanel::applyEditedCommandLine() {
  const EngineTemplate* t = currentTemplate();
  if (!t) return;
  EngineSpec e = engineSpec();
  e.flags.clear();
  std::vector<std::string> base = engineCommandLine(e, *t, kShownPort);
  for (std::string& arg : base) {
    if (!e.apiKey.empty() && arg == e.apiKey) arg = kMaskedSecret;
  }
  const std::vector<std::string> args = toStd(QProcess::splitCommand(m_commandLine->text()));
  if (args.size() < base.size() || !std::equal(base.begin(), base.end(), args.begin())) {
    m_commandError->setText(
        tr("Keep the start of the command line as it is (%1): change the model, device or "
           "engine above, and flags after it.")
            .arg(fromStd(displayCommandLine(base))));
    return;
  }
  std::vector<EngineFlag> flags;
  for (std::size_t i = base.size(); i < args.size(); ++i) {
    const std::string& a = args[i];
    const auto eq = a.find('=');
    const FlagSpec* spec = a.starts_with("--") ? t->findFlag(a.substr(0, eq)) : nullptr;
    if (!spec) {
      flags.push_back(EngineFlag::rawArgument(a));
    } else if (eq != std::string::npos) {
      flags.push_back(EngineFlag::option(a.substr(0, eq), a.substr(eq + 1)));
    } else if (spec->type == FlagType::Bool) {
      flags.push_back(EngineFlag::toggle(a));
    } else if (i + 1 < args.size()) {
      flags.push_back(EngineFlag::option(a, args[++i]));
    } else {
      flags.push_back(EngineFlag::rawArgument(a));
    }
  }
  m_updatingCommandLine = true;
  const auto rest = m_flags->setFlags(flags);
  QStringList extra;
  for (const EngineFlag& flag : rest) {
    extra.append(fromStd(shellQuote(flag.name)));
    if (flag.value) extra.append(fromStd(shellQuote(*flag.value)));
  }
  m_extraArgs->setText(extra.join(QLatin1Char(' ')));
  m_updatingCommandLine = false;
  updateCommandLine();
}

FieldProblems SetupPanel::problems() const {
  FieldProblems out;
  const auto add = [&](QWidget* field, const QString& label, const QString& what) {
    out.push_back({field, tr("%1: %2").arg(label, what)});
  };
  switch (kKinds[m_kind->currentIndex()]) {
    case EngineKind::Bundled:
      if (m_model->currentText().trimmed().isEmpty())
        add(m_model, tr("Model"),
            tr("empty. Choose a preset such as %1, or a folder with config.json and *.safetensors (Folder…).")
                .arg(QStringLiteral("qwen3-0.6b")));
      break;
    case EngineKind::External:
      if (m_externalModel->text().trimmed().isEmpty())
        add(m_externalModel, tr("Model"), tr("empty. Give a Hugging Face id or a model folder."));
      break;
    case EngineKind::Remote: {
      const QString url = m_baseUrl->text().trimmed();
      if (url.isEmpty()) {
        add(m_baseUrl, tr("URL"),
            tr("empty. Give the server's address, such as %1.").arg(QStringLiteral("http://gpu-box:8000")));
      } else if (!url.startsWith(QStringLiteral("http://")) && !url.startsWith(QStringLiteral("https://"))) {
        add(m_baseUrl, tr("URL"),
            tr("\"%1\" is not an http:// or https:// address, such as %2.")
                .arg(url, QStringLiteral("http://gpu-box:8000")));
      }
      break;
    }
  }
  if (const EngineTemplate* t = currentTemplate()) {
    const EngineSpec e = engineSpec();
    for (const FlagIssue& issue : checkFlags(*t, e.flags)) {
      if (issue.severity != FlagIssue::Severity::Error) continue;
      QWidget* field = m_flags->editorFor(fromStd(issue.flag));
      out.push_back({field ? field : m_extraArgs, fromStd(issue.text.in(uiReportLanguage()))});
    }
  }
  for (const FieldProblems& part : {m_profile->problems(), m_requests->problems()})
    out.insert(out.end(), part.begin(), part.end());
  return out;
}

void SetupPanel::showProblems(const FieldProblems& found, bool focusFirst) {
  for (QWidget* field : m_marked)
    markField(field, QString());
  m_marked.clear();
  QStringList lines;
  for (const FieldProblem& problem : found) {
    if (problem.field && fieldProblem(problem.field).isEmpty()) {
      markField(problem.field, problem.message);
      m_marked.push_back(problem.field);
    }
    lines.append(problem.message);
  }
  m_problems->setText(lines.join(QLatin1Char('\n')));
  m_problems->setVisible(!lines.isEmpty());
  if (focusFirst && !found.empty() && found.front().field) {
    m_scroll->ensureWidgetVisible(found.front().field);
    found.front().field->setFocus(Qt::OtherFocusReason);
  }
}

bool SetupPanel::check() {
  const FieldProblems found = problems();
  m_checked = !found.empty();
  showProblems(found, true);
  return found.empty();
}

RunSpec SetupPanel::runSpec() const {
  if (const FieldProblems found = problems(); !found.empty())
    throw Error(found.front().message.toStdString());
  RunSpec spec = m_base;
  spec.engine = engineSpec();
  spec.engine.validate();
  if (const EngineTemplate* t = currentTemplate()) validateFlags(*t, spec.engine.flags);
  spec.profile = m_profile->profile();
  m_requests->applyTo(spec);
  if (const ProfileSpec* preset = m_profile->preset()) nameEditedProfile(spec.profile, *preset);
  spec.profile.validate();
  spec.label = m_label->text().trimmed().toStdString();
  return spec;
}

void SetupPanel::setRunSpec(const RunSpec& spec) {
  m_base = spec;
  m_base.engine.apiKey.clear();
  const EngineSpec& e = spec.engine;
  for (int i = 0; i < 3; ++i) {
    if (kKinds[i] == e.kind) m_kind->setCurrentIndex(i);
  }
  switch (e.kind) {
    case EngineKind::Bundled:
      m_device->setCurrentText(fromStd(e.device));
      m_model->setEditText(fromStd(e.model));
      break;
    case EngineKind::External:
      m_externalEngine->setCurrentIndex(std::max(0, m_externalEngine->findData(fromStd(e.engine))));
      m_externalModel->setText(fromStd(e.model));
      m_executable->setText(fromStd(e.executable));
      break;
    case EngineKind::Remote:
      m_baseUrl->setText(fromStd(e.baseUrl));
      m_remoteModel->setText(fromStd(e.model));
      m_apiKeyEnv->setText(fromStd(e.apiKeyEnv));
      if (!e.apiKey.empty()) m_apiKey->setText(fromStd(e.apiKey));
      break;
  }
  onKindChanged();
  m_updatingCommandLine = true;
  const auto rest = m_flags->setFlags(e.flags);
  QStringList extra;
  for (const EngineFlag& flag : rest) {
    extra.append(fromStd(shellQuote(flag.name)));
    if (flag.value) extra.append(fromStd(shellQuote(*flag.value)));
  }
  m_extraArgs->setText(extra.join(QLatin1Char(' ')));
  m_updatingCommandLine = false;
  m_profile->setProfile(spec.profile);
  m_requests->setRunSpec(spec);
  m_requests->setDataset(spec.profile.datasetName);
  m_label->setText(fromStd(spec.label));
  updateCommandLine();
  onProfileChanged();
}

void SetupPanel::saveSettings(QSettings& settings) const {
  RunSpec spec;
  spec.engine = engineSpec();
  spec.profile = m_profile->profile();
  m_requests->applyTo(spec);
  if (const ProfileSpec* preset = m_profile->preset()) nameEditedProfile(spec.profile, *preset);
  nlohmann::json engine = spec.engine;  // never holds the key: EngineSpec's JSON leaves it out
  nlohmann::json profile = spec.profile;
  // The run's own options; headers are left out (they may hold secrets).
  nlohmann::json run = {{"request_model", spec.requestModel},        {"extra_body", spec.extraBody},
                        {"request_timeout_s", spec.requestTimeoutS}, {"num_warmups", spec.numWarmups},
                        {"request_id_prefix", spec.requestIdPrefix}, {"tokenizer", spec.tokenizer},
                        {"percentiles", spec.summary.percentiles}};
  const GoodputSlo& slo = spec.summary.goodput;
  for (const auto& [key, value] :
       {std::pair{"slo_ttft_ms", slo.ttftMs}, std::pair{"slo_tpot_ms", slo.tpotMs},
        std::pair{"slo_e2el_ms", slo.e2elMs}, std::pair{"ready_check_timeout_s", spec.readyCheckTimeoutS}}) {
    if (value) run[key] = *value;
  }
  if (spec.logprobs) run["logprobs"] = *spec.logprobs;
  settings.setValue(QStringLiteral("setup/engine"), fromStd(engine.dump()));
  settings.setValue(QStringLiteral("setup/profile"), fromStd(profile.dump()));
  settings.setValue(QStringLiteral("setup/run"), fromStd(run.dump()));
  settings.setValue(QStringLiteral("setup/label"), m_label->text());
  settings.setValue(QStringLiteral("setup/rememberKey"), m_rememberKey->isChecked());
  if (m_rememberKey->isChecked()) {
    settings.setValue(QStringLiteral("setup/apiKey"), m_apiKey->text());
  } else {
    settings.remove(QStringLiteral("setup/apiKey"));
  }
}

void SetupPanel::restoreSettings(const QSettings& settings) {
  RunSpec spec;
  try {
    const QString engine = settings.value(QStringLiteral("setup/engine")).toString();
    const QString profile = settings.value(QStringLiteral("setup/profile")).toString();
    if (!engine.isEmpty()) spec.engine = nlohmann::json::parse(engine.toStdString()).get<EngineSpec>();
    if (!profile.isEmpty()) {
      nlohmann::json::parse(profile.toStdString()).get_to(spec.profile);
    } else {
      spec.profile = loadProfile("cpu-quick");
    }
    const QString runText = settings.value(QStringLiteral("setup/run")).toString();
    if (!runText.isEmpty()) {
      const auto run = nlohmann::json::parse(runText.toStdString());
      spec.requestModel = run.value("request_model", std::string());
      if (run.contains("extra_body") && run["extra_body"].is_object()) spec.extraBody = run["extra_body"];
      spec.requestTimeoutS = run.value("request_timeout_s", spec.requestTimeoutS);
      spec.numWarmups = run.value("num_warmups", 0);
      spec.requestIdPrefix = run.value("request_id_prefix", std::string());
      spec.tokenizer = run.value("tokenizer", std::string());
      if (run.contains("ready_check_timeout_s"))
        spec.readyCheckTimeoutS = run["ready_check_timeout_s"].get<double>();
      if (run.contains("logprobs")) spec.logprobs = run["logprobs"].get<int>();
      if (run.contains("percentiles"))
        spec.summary.percentiles = run["percentiles"].get<std::vector<double>>();
      GoodputSlo& slo = spec.summary.goodput;
      for (auto [key, value] : {std::pair{"slo_ttft_ms", &slo.ttftMs}, std::pair{"slo_tpot_ms", &slo.tpotMs},
                                std::pair{"slo_e2el_ms", &slo.e2elMs}}) {
        if (run.contains(key)) *value = run[key].get<double>();
      }
    }
  } catch (const std::exception&) {
    return;  // settings from another version: start from the defaults
  }
  spec.label = settings.value(QStringLiteral("setup/label")).toString().toStdString();
  m_rememberKey->setChecked(settings.value(QStringLiteral("setup/rememberKey"), false).toBool());
  if (m_rememberKey->isChecked())
    spec.engine.apiKey = settings.value(QStringLiteral("setup/apiKey")).toString().toStdString();
  setRunSpec(spec);
}

}  // namespace ayar
