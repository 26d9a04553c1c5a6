#include "widgets/profile_editor.h"

#include <QCollator>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSpinBox>
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.h"
#include "core/report/message_text.h"

namespace ayar {

namespace {

const char* const kDatasets[] = {"random", "sharegpt", "synthetic-sharegpt", "prefix-repetition"};
const LoadMode kModes[] = {LoadMode::Rate, LoadMode::Concurrent, LoadMode::Throughput, LoadMode::Sweep};
const char* const kRampUps[] = {"", "linear", "exponential"};

QSpinBox* spin(QWidget* parent, int min, int max) {
  auto* box = new QSpinBox(parent);
  box->setRange(min, max);
  box->setGroupSeparatorShown(true);
  return box;
}

bool sharegptLike(const std::string& dataset) {
  return dataset == "sharegpt" || dataset == "synthetic-sharegpt";
}

}  // namespace

ProfileEditor::ProfileEditor(QWidget* parent) : QWidget(parent) {
  m_form = new QFormLayout(this);
  m_form->setContentsMargins(0, 0, 0, 0);
  m_form->setRowWrapPolicy(QFormLayout::WrapLongRows);
  m_preset = new QComboBox(this);
  m_preset->setObjectName(QStringLiteral("profilePreset"));
  m_editedMark = new QLabel(this);
  m_editedMark->setVisible(false);
  QFont italic = m_editedMark->font();
  italic.setItalic(true);
  m_editedMark->setFont(italic);
  m_presetTitle = new QLabel(this);
  m_presetTitle->setObjectName(QStringLiteral("presetTitle"));
  m_presetTitle->setWordWrap(true);
  m_presetTitle->setForegroundRole(QPalette::PlaceholderText);
  m_presetRow = new QWidget(this);
  auto* presetRow = new QHBoxLayout(m_presetRow);
  presetRow->setContentsMargins(0, 0, 0, 0);
  presetRow->addWidget(m_preset, 1);
  presetRow->addWidget(m_editedMark);
  m_dataset = new QComboBox(this);
  m_dataset->setObjectName(QStringLiteral("dataset"));
  for (const char* name : kDatasets)
    m_dataset->addItem(QString(), QString::fromLatin1(name));
  m_datasetHint = new QLabel(this);
  m_datasetHint->setObjectName(QStringLiteral("datasetHint"));
  m_datasetHint->setWordWrap(true);
  m_datasetHint->setForegroundRole(QPalette::PlaceholderText);
  m_datasetPath = new QLineEdit(this);
  m_datasetPath->setObjectName(QStringLiteral("datasetPath"));
  m_mode = new QComboBox(this);
  m_mode->setObjectName(QStringLiteral("loadMode"));
  for (std::size_t i = 0; i < std::size(kModes); ++i)
    m_mode->addItem(QString());
  m_rampUp = new QComboBox(this);
  m_rampUp->setObjectName(QStringLiteral("rampUp"));
  for (const char* strategy : kRampUps)
    m_rampUp->addItem(QString(), QString::fromLatin1(strategy));
  m_rampStart = spin(this, 1, 1000000);
  m_rampStart->setObjectName(QStringLiteral("rampUpStart"));
  m_rampEnd = spin(this, 1, 1000000);
  m_rampEnd->setObjectName(QStringLiteral("rampUpEnd"));
  m_sweepPoints = spin(this, 0, 100);
  m_sweepPoints->setObjectName(QStringLiteral("sweepPoints"));
  m_rate = new QLineEdit(this);
  m_rate->setObjectName(QStringLiteral("requestRate"));
  m_burstiness = new QLineEdit(this);
  m_burstiness->setObjectName(QStringLiteral("burstiness"));
  m_maxConcurrency = spin(this, 0, 1000000);
  m_maxConcurrency->setObjectName(QStringLiteral("maxConcurrency"));
  m_concurrency = spin(this, 1, 1000000);
  m_concurrency->setObjectName(QStringLiteral("concurrency"));
  m_numPrompts = spin(this, 1, 10000000);
  m_numPrompts->setObjectName(QStringLiteral("numPrompts"));
  m_inputLen = spin(this, 1, 1000000);
  m_inputLen->setObjectName(QStringLiteral("inputTokens"));
  m_outputLen = spin(this, 1, 1000000);
  m_outputLen->setObjectName(QStringLiteral("outputTokens"));
  m_rangeRatio = new QDoubleSpinBox(this);
  m_rangeRatio->setObjectName(QStringLiteral("rangeRatio"));
  m_rangeRatio->setRange(0.0, 0.99);
  m_rangeRatio->setSingleStep(0.05);
  m_prefixLen = spin(this, 0, 1000000);
  m_prefixLen->setObjectName(QStringLiteral("prefixTokens"));
  m_numPrefixes = spin(this, 1, 1000000);
  m_numPrefixes->setObjectName(QStringLiteral("prefixes"));
  m_seed = spin(this, 0, std::numeric_limits<int>::max());
  m_seed->setObjectName(QStringLiteral("seed"));
  m_seed->setGroupSeparatorShown(false);

  m_form->addRow(new QLabel(this), m_presetRow);
  m_form->addRow(m_presetTitle);
  m_form->addRow(new QLabel(this), m_dataset);
  m_form->addRow(m_datasetHint);
  for (QWidget* w : std::initializer_list<QWidget*>{m_datasetPath, m_mode, m_rate, m_burstiness, m_rampUp,
                                                    m_rampStart, m_rampEnd, m_maxConcurrency, m_concurrency,
                                                    m_sweepPoints, m_numPrompts, m_inputLen, m_outputLen,
                                                    m_rangeRatio, m_prefixLen, m_numPrefixes, m_seed}) {
    m_form->addRow(new QLabel(this), w);
  }
  // Combos as wide as the panel, not as their longest item; the preset list opens as wide as its
  // titles.
  for (QComboBox* c : {m_preset, m_dataset, m_mode, m_rampUp}) {
    c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    c->setMinimumContentsLength(8);
  }
  connect(m_preset, &QComboBox::activated, this, &ProfileEditor::applyPreset);
  connect(m_dataset, &QComboBox::currentIndexChanged, this, [this] {
    updateApplicableFields();
    emit profileChanged();
  });
  for (QComboBox* c : {m_mode, m_rampUp}) {
    connect(c, &QComboBox::currentIndexChanged, this, [this] {
      updateApplicableFields();
      emit profileChanged();
    });
  }
  for (QLineEdit* e : {m_rate, m_burstiness, m_datasetPath})
    connect(e, &QLineEdit::textChanged, this, &ProfileEditor::profileChanged);
  for (QSpinBox* s : {m_maxConcurrency, m_concurrency, m_numPrompts, m_inputLen, m_outputLen, m_prefixLen,
                      m_numPrefixes, m_seed, m_rampStart, m_rampEnd, m_sweepPoints})
    connect(s, &QSpinBox::valueChanged, this, &ProfileEditor::profileChanged);
  connect(m_rangeRatio, &QDoubleSpinBox::valueChanged, this, &ProfileEditor::profileChanged);
  m_preset->addItem(QString());
  retranslate();
  setProfile(ProfileSpec{});
}

QString ProfileEditor::label(QWidget* field) const {
  auto* l = qobject_cast<QLabel*>(m_form->labelForField(field));
  return l ? l->text() : QString();
}

void ProfileEditor::retranslate() {
  const QString labels[] = {tr("Preset"),
                            tr("Dataset"),
                            tr("ShareGPT file"),
                            tr("Load"),
                            tr("Request rate (/s)"),
                            tr("Burstiness"),
                            tr("Ramp-up"),
                            tr("Ramp-up from (/s)"),
                            tr("Ramp-up to (/s)"),
                            tr("Max concurrency"),
                            tr("Concurrency"),
                            tr("Rates between"),
                            tr("Requests"),
                            tr("Input tokens"),
                            tr("Output tokens"),
                            tr("Length range ratio"),
                            tr("Prefix tokens"),
                            tr("Prefixes"),
                            tr("Seed")};
  QWidget* fields[] = {m_presetRow,   m_dataset,     m_datasetPath, m_mode,     m_rate,
                       m_burstiness,  m_rampUp,      m_rampStart,   m_rampEnd,  m_maxConcurrency,
                       m_concurrency, m_sweepPoints, m_numPrompts,  m_inputLen, m_outputLen,
                       m_rangeRatio,  m_prefixLen,   m_numPrefixes, m_seed};
  for (std::size_t i = 0; i < std::size(fields); ++i) {
    if (auto* l = qobject_cast<QLabel*>(m_form->labelForField(fields[i]))) l->setText(labels[i]);
  }
  m_dataset->setItemText(0, tr("Random tokens (random)"));
  m_dataset->setItemText(1, tr("ShareGPT conversations (sharegpt)"));
  m_dataset->setItemText(2, tr("Synthetic ShareGPT-like (synthetic-sharegpt)"));
  m_dataset->setItemText(3, tr("Shared prefixes (prefix-repetition)"));
  m_preset->setItemText(0, tr("custom"));
  const bool turkish = QLocale().language() == QLocale::Turkish;
  for (std::size_t i = 0; i < m_presets.size(); ++i) {
    const auto text = [&](const std::map<std::string, std::string>& texts) {
      auto it = texts.find(turkish ? "tr" : "en");
      if (it == texts.end()) it = texts.find("en");
      return it != texts.end() ? QString::fromStdString(it->second) : QString();
    };
    const QString name = QString::fromStdString(m_presets[i].name);
    const int index = static_cast<int>(i) + 1;
    // The box shows the name (the title goes under it); an item's tooltip says what it is for.
    m_preset->setItemText(index, name);
    const QString title = text(m_presets[i].title), purpose = text(m_presets[i].purpose);
    m_preset->setItemData(index, purpose.isEmpty() ? title : title + QStringLiteral("\n") + purpose,
                          Qt::ToolTipRole);
  }
  updatePresetTitle();
  m_editedMark->setText(tr("edited"));
  m_editedMark->setToolTip(
      tr("The fields no longer hold the preset as shipped: the run is stored as edited, with what the "
         "fields say."));
  m_mode->setItemText(0, tr("requests per second"));
  m_mode->setItemText(1, tr("fixed concurrency"));
  m_mode->setItemText(2, tr("all at once"));
  m_mode->setItemText(3, tr("sweep: one at a time to all at once"));
  m_mode->setItemData(3,
                      tr("Runs the requests one at a time, then all at once, then at rates between the two "
                         "throughputs: a curve of latency against load."),
                      Qt::ToolTipRole);
  m_rampUp->setItemText(0, tr("none: a steady rate"));
  m_rampUp->setItemText(1, tr("linear"));
  m_rampUp->setItemText(2, tr("exponential"));
  m_sweepPoints->setToolTip(tr("How many rates the sweep runs between one at a time and all at once."));
  m_rate->setPlaceholderText(tr("a number, or inf for all at once"));
  m_burstiness->setPlaceholderText(tr("1: Poisson, inf: evenly spaced"));
  m_datasetPath->setPlaceholderText(tr("none: a synthetic set"));
  m_maxConcurrency->setSpecialValueText(tr("no cap"));
  // Numbers in the UI's language: a spin box keeps the locale it was made with.
  for (QAbstractSpinBox* s : findChildren<QAbstractSpinBox*>())
    s->setLocale(QLocale());
  for (QLineEdit* e : {m_rate, m_burstiness}) {
    if (const auto value = parseUiNumber(e->text(), true)) e->setText(formatUiNumber(*value));
  }
  updateApplicableFields();
}

void ProfileEditor::updatePresetTitle() {
  const ProfileSpec* chosen = preset();
  QString title;
  if (chosen) {
    const auto& titles = chosen->title;
    auto it = titles.find(QLocale().language() == QLocale::Turkish ? "tr" : "en");
    if (it == titles.end()) it = titles.find("en");
    if (it != titles.end()) title = QString::fromStdString(it->second);
  }
  m_presetTitle->setText(title);
  m_presetTitle->setVisible(!title.isEmpty());
}

void ProfileEditor::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(event);
}

void ProfileEditor::setPresets(std::vector<ProfileSpec> presets) {
  QCollator natural;
  natural.setNumericMode(true);
  std::stable_sort(presets.begin(), presets.end(), [&](const ProfileSpec& a, const ProfileSpec& b) {
    return natural.compare(QString::fromStdString(a.name), QString::fromStdString(b.name)) < 0;
  });
  m_presets = std::move(presets);
  while (m_preset->count() > 1)
    m_preset->removeItem(1);
  for (std::size_t i = 0; i < m_presets.size(); ++i)
    m_preset->addItem(QString());
  retranslate();
}

const ProfileSpec* ProfileEditor::preset() const {
  const int index = m_preset->currentIndex();
  return index > 0 && index <= static_cast<int>(m_presets.size())
             ? &m_presets[static_cast<std::size_t>(index) - 1]
             : nullptr;
}

void ProfileEditor::setEdited(bool edited) {
  m_editedMark->setVisible(edited && preset() != nullptr);
}

void ProfileEditor::applyPreset(int index) {
  if (index <= 0 || index > static_cast<int>(m_presets.size())) {
    updatePresetTitle();
    emit profileChanged();
    return;
  }
  const ProfileSpec chosen = m_presets[static_cast<std::size_t>(index) - 1];
  setProfile(chosen);
  emit presetChosen(chosen);
}

std::string ProfileEditor::datasetName() const {
  return m_dataset->currentData().toString().toStdString();
}

LoadMode ProfileEditor::loadMode() const {
  return kModes[std::max(0, m_mode->currentIndex())];
}

void ProfileEditor::setProfile(const ProfileSpec& profile) {
  const bool wasBlocked = blockSignals(true);
  for (QWidget* field : findChildren<QWidget*>())
    markField(field, QString());
  m_base = profile;
  int presetIndex = 0;
  const std::string& from = profile.name.empty() ? profile.editedFrom : profile.name;
  for (std::size_t i = 0; i < m_presets.size(); ++i) {
    if (!from.empty() && m_presets[i].name == from) presetIndex = static_cast<int>(i) + 1;
  }
  m_preset->setCurrentIndex(presetIndex);
  updatePresetTitle();
  m_dataset->setCurrentIndex(std::max(0, m_dataset->findData(QString::fromStdString(profile.datasetName))));
  m_datasetPath->setText(QString::fromStdString(profile.datasetPath));
  int mode = 0;
  for (std::size_t i = 0; i < std::size(kModes); ++i) {
    if (kModes[i] == profile.loadMode) mode = static_cast<int>(i);
  }
  m_mode->setCurrentIndex(mode);
  m_rampUp->setCurrentIndex(std::max(0, m_rampUp->findData(QString::fromStdString(profile.rampUpStrategy))));
  m_rampStart->setValue(std::max(1, profile.rampUpStartRps));
  m_rampEnd->setValue(std::max(1, profile.rampUpEndRps));
  m_sweepPoints->setValue(profile.sweepPoints);
  m_rate->setText(formatUiNumber(profile.requestRate));
  m_burstiness->setText(formatUiNumber(profile.burstiness));
  m_maxConcurrency->setValue(profile.maxConcurrency.value_or(0));
  m_concurrency->setValue(profile.concurrency);
  m_numPrompts->setValue(profile.numPrompts);
  updateApplicableFields();  // the output field's range depends on the dataset
  const std::string dataset = datasetName();
  if (dataset == "prefix-repetition") {
    m_inputLen->setValue(profile.prefixRepetitionSuffixLen);
    m_outputLen->setValue(profile.prefixRepetitionOutputLen);
  } else if (sharegptLike(dataset)) {
    m_inputLen->setValue(profile.randomInputLen);
    m_outputLen->setValue(profile.sharegptOutputLen.value_or(0));
  } else {
    m_inputLen->setValue(profile.randomInputLen);
    m_outputLen->setValue(profile.randomOutputLen);
  }
  m_rangeRatio->setValue(profile.randomRangeRatio);
  m_prefixLen->setValue(profile.prefixRepetitionPrefixLen);
  m_numPrefixes->setValue(profile.prefixRepetitionNumPrefixes);
  m_seed->setValue(static_cast<int>(std::min<std::uint64_t>(profile.seed, std::numeric_limits<int>::max())));
  blockSignals(wasBlocked);
  emit profileChanged();
}

void ProfileEditor::updateApplicableFields() {
  const std::string dataset = datasetName();
  const LoadMode mode = loadMode();
  const auto apply = [this](QWidget* field, bool used, const QString& why) {
    field->setEnabled(used);
    if (QWidget* l = m_form->labelForField(field)) {
      l->setEnabled(used);
      l->setToolTip(used ? QString() : why);
    }
    if (fieldProblem(field).isEmpty()) field->setToolTip(used ? QString() : why);
  };
  const bool random = dataset == "random", prefix = dataset == "prefix-repetition";
  apply(m_datasetPath, dataset == "sharegpt", tr("Only the ShareGPT dataset reads a file."));
  apply(m_inputLen, !sharegptLike(dataset),
        tr("Not used by this dataset: its prompts are its own, with their own lengths."));
  apply(m_rangeRatio, random, tr("Only the random dataset draws lengths around the given ones."));
  apply(m_prefixLen, prefix, tr("Only the shared-prefix dataset has prefixes."));
  apply(m_numPrefixes, prefix, tr("Only the shared-prefix dataset has prefixes."));
  const bool ramp = mode == LoadMode::Rate && !m_rampUp->currentData().toString().isEmpty();
  apply(m_rate, mode == LoadMode::Rate && !ramp,
        ramp ? tr("A ramp-up sets the rate itself.") : tr("Used when requests are sent at a rate."));
  apply(m_rampUp, mode == LoadMode::Rate, tr("Used when requests are sent at a rate."));
  apply(m_rampStart, ramp, tr("Used with a ramp-up only."));
  apply(m_rampEnd, ramp, tr("Used with a ramp-up only."));
  apply(m_sweepPoints, mode == LoadMode::Sweep, tr("Used by a sweep only."));
  apply(m_burstiness, mode == LoadMode::Rate, tr("Used when requests are sent at a rate."));
  apply(m_concurrency, mode == LoadMode::Concurrent, tr("Used with a fixed concurrency only."));
  apply(m_maxConcurrency, mode != LoadMode::Concurrent,
        tr("A fixed concurrency is its own cap on requests in flight."));
  if (auto* l = qobject_cast<QLabel*>(m_form->labelForField(m_inputLen)))
    l->setText(prefix ? tr("Tokens after the prefix") : tr("Input tokens"));
  // ShareGPT replies are as long as the dataset's unless a length is given: 0 means "the dataset's".
  m_outputLen->setMinimum(sharegptLike(dataset) ? 0 : 1);
  m_outputLen->setSpecialValueText(sharegptLike(dataset) ? tr("the dataset's") : QString());
  if (random) {
    m_datasetHint->setText(
        tr("Random prompts of exactly Input tokens (spread by the length range ratio), each asked for "
           "exactly Output tokens: ignore_eos is sent."));
  } else if (dataset == "sharegpt") {
    m_datasetHint->setText(
        tr("Prompts and reply lengths come from the ShareGPT file (without one, from a synthetic "
           "ShareGPT-like set). Output tokens, when set, makes every reply that long instead."));
  } else if (dataset == "synthetic-sharegpt") {
    m_datasetHint->setText(
        tr("Prompts and reply lengths drawn as ShareGPT's are. Output tokens, when set, makes every reply "
           "that long instead."));
  } else {
    m_datasetHint->setText(
        tr("Each prompt starts with one of the shared prefixes (Prefix tokens long) and goes on with Tokens "
           "after the prefix of its own; each is asked for exactly Output tokens."));
  }
}

ProfileSpec ProfileEditor::profile() const {
  ProfileSpec p = m_base;
  if (const ProfileSpec* chosen = preset()) {
    p.name = chosen->name;
    p.title = chosen->title;
    p.purpose = chosen->purpose;
  } else {
    p.name.clear();
    p.title.clear();
    p.purpose.clear();
  }
  p.editedFrom.clear();
  p.datasetName = datasetName();
  p.datasetPath = p.datasetName == "sharegpt" ? m_datasetPath->text().trimmed().toStdString() : std::string();
  p.loadMode = loadMode();
  if (p.loadMode == LoadMode::Rate) {
    p.rampUpStrategy = m_rampUp->currentData().toString().toStdString();
    if (p.rampUpStrategy.empty()) {
      p.requestRate = parseUiNumber(m_rate->text(), true).value_or(-1.0);  // problems() names the field
      p.rampUpStartRps = p.rampUpEndRps = 0;
    } else {
      p.requestRate = ProfileSpec::kInfinity;  // the ramp sets the rate, as vLLM wants it
      p.rampUpStartRps = m_rampStart->value();
      p.rampUpEndRps = m_rampEnd->value();
    }
    p.burstiness = parseUiNumber(m_burstiness->text(), true).value_or(-1.0);
  } else {
    p.rampUpStrategy.clear();
  }
  if (p.loadMode == LoadMode::Sweep) p.sweepPoints = m_sweepPoints->value();
  if (p.loadMode != LoadMode::Concurrent)
    p.maxConcurrency =
        m_maxConcurrency->value() > 0 ? std::optional<int>(m_maxConcurrency->value()) : std::nullopt;
  if (p.loadMode == LoadMode::Concurrent) p.concurrency = m_concurrency->value();
  p.numPrompts = m_numPrompts->value();
  if (p.datasetName == "prefix-repetition") {
    p.prefixRepetitionSuffixLen = m_inputLen->value();
    p.prefixRepetitionOutputLen = m_outputLen->value();
    p.prefixRepetitionPrefixLen = m_prefixLen->value();
    p.prefixRepetitionNumPrefixes = m_numPrefixes->value();
  } else if (sharegptLike(p.datasetName)) {
    p.sharegptOutputLen = m_outputLen->value() > 0 ? std::optional<int>(m_outputLen->value()) : std::nullopt;
  } else {
    p.randomInputLen = m_inputLen->value();
    p.randomOutputLen = m_outputLen->value();
    p.randomRangeRatio = m_rangeRatio->value();
  }
  p.seed = static_cast<std::uint64_t>(m_seed->value());
  return p;
}

FieldProblems ProfileEditor::problems() const {
  FieldProblems out;
  const auto add = [&](QWidget* field, const QString& what) {
    out.push_back({field, tr("%1: %2").arg(label(field), what)});
  };
  const bool ramp = loadMode() == LoadMode::Rate && !m_rampUp->currentData().toString().isEmpty();
  if (ramp && m_rampStart->value() > m_rampEnd->value())
    add(m_rampEnd, tr("must not be below Ramp-up from (%1).").arg(QLocale().toString(m_rampStart->value())));
  if (loadMode() == LoadMode::Rate && !ramp) {
    const QString rate = m_rate->text().trimmed();
    const auto value = parseUiNumber(rate, true);
    if (rate.isEmpty()) {
      add(m_rate, tr("empty. Enter requests per second (for example %1), or inf to send them all at once.")
                      .arg(formatUiNumber(2.5)));
    } else if (!value) {
      add(m_rate, tr("\"%1\" is not a number. Enter requests per second (for example %2), or inf to send "
                     "them all at once.")
                      .arg(rate, formatUiNumber(2.5)));
    } else if (*value <= 0) {
      add(m_rate, tr("must be above 0 (or inf, to send all at once)."));
    }
  }
  if (loadMode() == LoadMode::Rate) {
    const QString burst = m_burstiness->text().trimmed();
    const auto burstiness = parseUiNumber(burst, true);
    if (burst.isEmpty() || !burstiness || *burstiness <= 0) {
      add(m_burstiness, tr("must be a number above 0: 1 for Poisson arrivals, inf for evenly spaced ones."));
    }
  }
  if (datasetName() == "sharegpt") {
    const QString path = m_datasetPath->text().trimmed();
    if (!path.isEmpty() && !QFileInfo(path).isFile()) {
      add(m_datasetPath, tr("there is no file %1. Choose a ShareGPT JSON file, or leave the field empty for "
                            "a synthetic ShareGPT-like set.")
                             .arg(path));
    }
  }
  return out;
}

QString ProfileEditor::validationError() const {
  const FieldProblems found = problems();
  if (!found.empty()) return found.front().message;
  try {
    profile().validate();
  } catch (const Error& e) {
    return QString::fromStdString(errorText(e, uiReportLanguage()));
  }
  return {};
}

}  // namespace ayar
