#pragma once

#include <QWidget>
#include <vector>

#include "core/study/profile_spec.h"
#include "widgets/form_field.h"

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace ayar {

// Edits a load profile: a preset to start from, the dataset and its lengths, the arrival schedule
// (rate or concurrency, burstiness, a concurrency cap), the request count and the seed. A field the
// chosen dataset or load does not use is greyed, with the reason as its tooltip, and the hint under
// the dataset says what the dataset decides itself. Fields the editor does not show (the API and
// sampling parameters, which RequestOptionsEditor edits; ramp-up) come through from the preset.
class ProfileEditor : public QWidget {
  Q_OBJECT

 public:
  explicit ProfileEditor(QWidget* parent = nullptr);

  // The presets offered (resources/profiles), listed in natural order ("1rps" before "16rps"); the
  // first entry is "custom".
  void setPresets(std::vector<ProfileSpec> presets);
  // Shows a profile; one made from a preset (its name or editedFrom) shows that preset chosen.
  void setProfile(const ProfileSpec& profile);
  // The profile as edited, named after the chosen preset (SetupPanel renames it when it differs from
  // the preset: nameEditedProfile). Fields with problems() hold what core's validate() refuses.
  ProfileSpec profile() const;
  // The chosen preset, or nullptr for "custom".
  const ProfileSpec* preset() const;
  // What cannot run, field by field, in the UI language.
  FieldProblems problems() const;
  // Empty when the profile can run, else the first problem.
  QString validationError() const;
  // Says next to the preset whether the fields still hold the preset as shipped.
  void setEdited(bool edited);

  QComboBox* presetBox() const { return m_preset; }
  QComboBox* datasetBox() const { return m_dataset; }
  QLineEdit* rateField() const { return m_rate; }
  QComboBox* loadModeBox() const { return m_mode; }
  QComboBox* rampUpBox() const { return m_rampUp; }
  QSpinBox* requestsField() const { return m_numPrompts; }
  QSpinBox* inputField() const { return m_inputLen; }
  QSpinBox* outputField() const { return m_outputLen; }
  QLabel* datasetHint() const { return m_datasetHint; }

 signals:
  void profileChanged();
  // The user picked a preset: the whole preset, including what other editors show (the API).
  void presetChosen(const ProfileSpec& preset);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void retranslate();
  void applyPreset(int index);
  void updateApplicableFields();
  void updatePresetTitle();
  std::string datasetName() const;
  LoadMode loadMode() const;
  QString label(QWidget* field) const;

  std::vector<ProfileSpec> m_presets;
  ProfileSpec m_base;  // what the editor does not show comes from here
  QFormLayout* m_form = nullptr;
  QComboBox* m_preset = nullptr;
  QLabel* m_editedMark = nullptr;
  QLabel* m_presetTitle = nullptr;
  QComboBox* m_dataset = nullptr;
  QLabel* m_datasetHint = nullptr;
  QLineEdit* m_datasetPath = nullptr;
  QComboBox* m_mode = nullptr;
  QLineEdit* m_rate = nullptr;
  QLineEdit* m_burstiness = nullptr;
  QSpinBox* m_maxConcurrency = nullptr;
  QSpinBox* m_concurrency = nullptr;
  QSpinBox* m_sweepPoints = nullptr;
  QComboBox* m_rampUp = nullptr;
  QSpinBox* m_rampStart = nullptr;
  QSpinBox* m_rampEnd = nullptr;
  QSpinBox* m_numPrompts = nullptr;
  QSpinBox* m_inputLen = nullptr;
  QSpinBox* m_outputLen = nullptr;
  QDoubleSpinBox* m_rangeRatio = nullptr;
  QSpinBox* m_prefixLen = nullptr;
  QSpinBox* m_numPrefixes = nullptr;
  QSpinBox* m_seed = nullptr;
  QWidget* m_presetRow = nullptr;
};

}  // namespace ayar
