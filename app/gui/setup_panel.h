#pragma once

#include <QWidget>
#include <optional>

#include "core/engines/engine_catalogue.h"
#include "core/study/run_spec.h"
#include "widgets/form_field.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QScrollArea;
class QSettings;
class QStackedWidget;

namespace ayar {

class EngineFlagForm;
class ProfileEditor;
class RequestOptionsEditor;

// The Setup area: the engine (bundled, an external engine from its command template, or a remote
// endpoint), the model, the engine's flags as a form generated from its catalogue with the whole
// command line shown and editable, the load profile and a label. runSpec() builds what a run needs.
// An API key typed here is used for the run only; it is kept on this computer only when the user
// ticks "remember", and never goes into results, reports or logs (core stores the variable's name).
class SetupPanel : public QWidget {
  Q_OBJECT

 public:
  explicit SetupPanel(const EngineCatalogue& catalogue, QWidget* parent = nullptr);

  // The run as set up; throws ayar::Error naming the field at fault (the first of problems()).
  RunSpec runSpec() const;
  // What cannot run, field by field, with the form's labels, in the UI language.
  FieldProblems problems() const;
  // Marks every field of problems() and lists them under the form, the first one scrolled to and
  // focused; after a failed check the marks follow each edit. True when nothing is wrong.
  bool check();
  void setRunSpec(const RunSpec& spec);
  void setRunning(bool running);
  void saveSettings(QSettings& settings) const;
  void restoreSettings(const QSettings& settings);

  EngineFlagForm* flagForm() const { return m_flags; }
  ProfileEditor* profileEditor() const { return m_profile; }
  RequestOptionsEditor* requestOptions() const { return m_requests; }
  QComboBox* deviceBox() const { return m_device; }
  QComboBox* modelBox() const { return m_model; }
  QLabel* problemsLabel() const { return m_problems; }
  QLineEdit* commandLine() const { return m_commandLine; }
  QPushButton* startButton() const { return m_start; }

 signals:
  void startRequested();

 protected:
  void changeEvent(QEvent* event) override;

 private:
  // The panel's parts, made once by the constructor in this order.
  QLabel* newLabel(QWidget* owner);
  QWidget* buildEngineBox(QWidget* content);
  QWidget* buildBundledPage();
  QWidget* buildExternalPage();
  QWidget* buildRemotePage();
  QWidget* buildFlagsBox(QWidget* content);
  QWidget* buildProfileBox(QWidget* content);
  QWidget* buildRequestsBox(QWidget* content);
  void connectInputs();
  void retranslate();
  void onKindChanged();
  void updateCommandLine();
  void applyEditedCommandLine();
  void onProfileChanged();
  void showProblems(const FieldProblems& problems, bool focusFirst);
  const EngineTemplate* currentTemplate() const;
  EngineSpec engineSpec() const;

  const EngineCatalogue& m_catalogue;
  RunSpec m_base;  // what the panel does not show (tokenizer, backend, ...) comes from the last setRunSpec()
  QComboBox* m_kind = nullptr;
  QStackedWidget* m_stack = nullptr;
  QComboBox* m_device = nullptr;
  QComboBox* m_model = nullptr;
  QPushButton* m_modelFolder = nullptr;
  QComboBox* m_externalEngine = nullptr;
  QLineEdit* m_externalModel = nullptr;
  QLineEdit* m_executable = nullptr;
  QLineEdit* m_baseUrl = nullptr;
  QLineEdit* m_remoteModel = nullptr;
  QLineEdit* m_apiKeyEnv = nullptr;
  QLineEdit* m_apiKey = nullptr;
  QCheckBox* m_rememberKey = nullptr;
  EngineFlagForm* m_flags = nullptr;
  QWidget* m_flagsBox = nullptr;
  QLineEdit* m_extraArgs = nullptr;
  QLineEdit* m_commandLine = nullptr;
  QLabel* m_commandError = nullptr;
  ProfileEditor* m_profile = nullptr;
  RequestOptionsEditor* m_requests = nullptr;
  QLabel* m_problems = nullptr;
  QScrollArea* m_scroll = nullptr;
  std::vector<QWidget*> m_marked;  // fields marked by the last check
  bool m_checked = false;          // a check failed: marks follow every edit
  QLineEdit* m_label = nullptr;
  QPushButton* m_start = nullptr;
  // Labels retranslated by retranslate(), in the order they were made.
  std::vector<QLabel*> m_labels;
  std::vector<QWidget*> m_titled;  // group boxes
  bool m_updatingCommandLine = false;
};

}  // namespace ayar
