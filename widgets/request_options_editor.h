#pragma once

#include <QWidget>
#include <string>
#include <vector>

#include "core/study/run_spec.h"
#include "widgets/form_field.h"

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace ayar {

// What every request carries and how the results are summarised, as `ayar-cli bench` takes them: the
// API (completions or chat) and its path, the model name sent, ignore_eos, vLLM's sampling parameters,
// an extra body, request headers, the request timeout, warm-up requests, the percentiles and the
// goodput SLOs. The API and sampling parameters are a part of the load profile (a preset names
// them); headers may hold secrets and are used for the session only, never stored.
class RequestOptionsEditor : public QWidget {
  Q_OBJECT

 public:
  explicit RequestOptionsEditor(QWidget* parent = nullptr);

  // Shows what `spec` sends (its own backend and endpoint when set, else its profile's).
  void setRunSpec(const RunSpec& spec);
  // Shows the profile's part (API, endpoint, ignore_eos, sampling), when a preset is chosen.
  void setProfileFields(const ProfileSpec& profile);
  // Writes the fields into `spec`: the API, endpoint, ignore_eos and sampling into its profile (the
  // run's own backend and endpoint are cleared, so the profile decides), the rest into the run.
  // Fields with problems() are left as they were.
  void applyTo(RunSpec& spec) const;
  // The dataset decides whether ignore_eos is a choice (the random dataset always sends it).
  void setDataset(const std::string& dataset);
  FieldProblems problems() const;

  QComboBox* apiBox() const { return m_api; }
  QLineEdit* endpointField() const { return m_endpoint; }
  QLineEdit* temperatureField() const { return m_temperature; }
  QPlainTextEdit* headersField() const { return m_headers; }
  QCheckBox* ignoreEosBox() const { return m_ignoreEos; }

 signals:
  void changed();

 protected:
  void changeEvent(QEvent* event) override;

 private:
  struct Number {
    QLineEdit* field = nullptr;
    std::optional<double> ProfileSpec::*member = nullptr;
  };
  void retranslate();
  void onApiChanged();
  QString label(QWidget* field) const;
  std::string api() const;

  QFormLayout* m_form = nullptr;
  std::vector<QLabel*> m_sections;
  QComboBox* m_api = nullptr;
  QLineEdit* m_endpoint = nullptr;
  QLineEdit* m_requestModel = nullptr;
  QCheckBox* m_ignoreEos = nullptr;
  QLineEdit* m_temperature = nullptr;
  QLineEdit* m_topP = nullptr;
  QLineEdit* m_topK = nullptr;
  QLineEdit* m_minP = nullptr;
  QLineEdit* m_frequencyPenalty = nullptr;
  QLineEdit* m_presencePenalty = nullptr;
  QLineEdit* m_repetitionPenalty = nullptr;
  QLineEdit* m_extraBody = nullptr;
  QPlainTextEdit* m_headers = nullptr;
  QLineEdit* m_timeout = nullptr;
  QSpinBox* m_warmups = nullptr;
  QLineEdit* m_tokenizer = nullptr;
  QLineEdit* m_readyCheck = nullptr;
  QLineEdit* m_requestIdPrefix = nullptr;
  QLineEdit* m_logprobs = nullptr;
  QLineEdit* m_percentiles = nullptr;
  QLineEdit* m_sloTtft = nullptr;
  QLineEdit* m_sloTpot = nullptr;
  QLineEdit* m_sloE2el = nullptr;
  std::vector<Number> m_numbers;  // the sampling parameters that are numbers with fractions
  bool m_forcedIgnoreEos = false;
  bool m_chosenIgnoreEos = false;  // what the box said before the dataset forced it
  std::string m_shownApi = "openai";
};

}  // namespace ayar
