#pragma once

#include <QWidget>
#include <vector>

#include "core/study/profile_spec.h"

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace ayar {

// Edits a load profile: a preset to start from, the dataset and lengths, the arrival schedule (rate
// or concurrency, burstiness, a concurrency cap), the request count and the seed. Fields the editor
// does not show (sampling parameters, ramp-up) come through from the preset unchanged.
class ProfileEditor : public QWidget {
  Q_OBJECT

 public:
  explicit ProfileEditor(QWidget* parent = nullptr);

  // The presets offered (resources/profiles); the first entry is "custom".
  void setPresets(std::vector<ProfileSpec> presets);
  void setProfile(const ProfileSpec& profile);
  // The profile as edited. The request rate field accepts a number or "inf" (all at once).
  ProfileSpec profile() const;
  // Empty when the profile is valid, else the message of ProfileSpec::validate().
  QString validationError() const;

 signals:
  void profileChanged();

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void retranslate();
  void applyPreset(int index);

  std::vector<ProfileSpec> m_presets;
  ProfileSpec m_base;  // what the editor does not show comes from here
  QFormLayout* m_form = nullptr;
  QComboBox* m_preset = nullptr;
  QComboBox* m_dataset = nullptr;
  QComboBox* m_mode = nullptr;
  QLineEdit* m_rate = nullptr;
  QDoubleSpinBox* m_burstiness = nullptr;
  QSpinBox* m_maxConcurrency = nullptr;
  QSpinBox* m_concurrency = nullptr;
  QSpinBox* m_numPrompts = nullptr;
  QSpinBox* m_inputLen = nullptr;
  QSpinBox* m_outputLen = nullptr;
  QDoubleSpinBox* m_rangeRatio = nullptr;
  QSpinBox* m_seed = nullptr;
  QLineEdit* m_datasetPath = nullptr;
};

}  // namespace ayar
