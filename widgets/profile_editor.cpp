#include "widgets/profile_editor.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSpinBox>
#include <cmath>
#include <limits>

#include "core/error.h"

namespace ayar {

namespace {

const char* const kDatasets[] = {"random", "sharegpt", "synthetic-sharegpt", "prefix-repetition"};
const LoadMode kModes[] = {LoadMode::Rate, LoadMode::Concurrent, LoadMode::Throughput};

QSpinBox* spin(QWidget* parent, int min, int max) {
  auto* box = new QSpinBox(parent);
  box->setRange(min, max);
  box->setGroupSeparatorShown(true);
  return box;
}

}  // namespace

ProfileEditor::ProfileEditor(QWidget* parent) : QWidget(parent) {
  m_form = new QFormLayout(this);
  m_form->setContentsMargins(0, 0, 0, 0);
  m_preset = new QComboBox(this);
  m_dataset = new QComboBox(this);
  for (const char* name : kDatasets)
    m_dataset->addItem(QString::fromLatin1(name));
  m_datasetPath = new QLineEdit(this);
  m_mode = new QComboBox(this);
  for (int i = 0; i < 3; ++i)
    m_mode->addItem(QString());
  m_rate = new QLineEdit(this);
  m_rate->setObjectName(QStringLiteral("requestRate"));
  m_burstiness = new QDoubleSpinBox(this);
  m_burstiness->setRange(0.01, 100.0);
  m_burstiness->setSingleStep(0.1);
  m_maxConcurrency = spin(this, 0, 1000000);
  m_concurrency = spin(this, 1, 1000000);
  m_numPrompts = spin(this, 1, 10000000);
  m_inputLen = spin(this, 1, 1000000);
  m_outputLen = spin(this, 1, 1000000);
  m_rangeRatio = new QDoubleSpinBox(this);
  m_rangeRatio->setRange(0.0, 0.99);
  m_rangeRatio->setSingleStep(0.05);
  m_seed = spin(this, 0, std::numeric_limits<int>::max());
  m_seed->setGroupSeparatorShown(false);
  for (QWidget* w : std::initializer_list<QWidget*>{
           m_preset, m_dataset, m_datasetPath, m_mode, m_rate, m_burstiness, m_maxConcurrency, m_concurrency,
           m_numPrompts, m_inputLen, m_outputLen, m_rangeRatio, m_seed}) {
    m_form->addRow(new QLabel(this), w);
  }
  // Combos as wide as the panel, not as their longest item (preset titles are sentences).
  for (QComboBox* c : {m_preset, m_dataset, m_mode}) {
    c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    c->setMinimumContentsLength(8);
  }
  connect(m_preset, &QComboBox::activated, this, &ProfileEditor::applyPreset);
  for (QComboBox* c : {m_dataset, m_mode})
    connect(c, &QComboBox::currentIndexChanged, this, &ProfileEditor::profileChanged);
  for (QLineEdit* e : {m_rate, m_datasetPath})
    connect(e, &QLineEdit::textChanged, this, &ProfileEditor::profileChanged);
  for (QSpinBox* s : {m_maxConcurrency, m_concurrency, m_numPrompts, m_inputLen, m_outputLen, m_seed})
    connect(s, &QSpinBox::valueChanged, this, &ProfileEditor::profileChanged);
  for (QDoubleSpinBox* s : {m_burstiness, m_rangeRatio})
    connect(s, &QDoubleSpinBox::valueChanged, this, &ProfileEditor::profileChanged);
  connect(m_mode, &QComboBox::currentIndexChanged, this, [this](int index) {
    m_concurrency->setEnabled(kModes[index] == LoadMode::Concurrent);
    m_rate->setEnabled(kModes[index] == LoadMode::Rate);
    m_burstiness->setEnabled(kModes[index] == LoadMode::Rate);
  });
  m_preset->addItem(QString());
  retranslate();
  setProfile(ProfileSpec{});
}

void ProfileEditor::retranslate() {
  const QString labels[] = {tr("Preset"),
                            tr("Dataset"),
                            tr("ShareGPT file"),
                            tr("Load"),
                            tr("Request rate (/s)"),
                            tr("Burstiness"),
                            tr("Max concurrency"),
                            tr("Concurrency"),
                            tr("Requests"),
                            tr("Input tokens"),
                            tr("Output tokens"),
                            tr("Length range ratio"),
                            tr("Seed")};
  for (int row = 0; row < m_form->rowCount(); ++row) {
    if (auto* label = qobject_cast<QLabel*>(m_form->itemAt(row, QFormLayout::LabelRole)->widget()))
      label->setText(labels[row]);
  }
  m_preset->setItemText(0, tr("custom"));
  const bool turkish = QLocale().language() == QLocale::Turkish;
  for (std::size_t i = 0; i < m_presets.size(); ++i) {
    const auto& titles = m_presets[i].title;
    auto it = titles.find(turkish ? "tr" : "en");
    const QString title = it != titles.end() ? QString::fromStdString(it->second) : QString();
    const QString name = QString::fromStdString(m_presets[i].name);
    m_preset->setItemText(static_cast<int>(i) + 1,
                          title.isEmpty() ? name : name + QStringLiteral(" — ") + title);
  }
  m_mode->setItemText(0, tr("requests per second"));
  m_mode->setItemText(1, tr("fixed concurrency"));
  m_mode->setItemText(2, tr("all at once"));
  m_rate->setPlaceholderText(tr("a number, or inf for all at once"));
  m_datasetPath->setPlaceholderText(tr("none: a synthetic ShareGPT-like set"));
  m_maxConcurrency->setSpecialValueText(tr("no cap"));
}

void ProfileEditor::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(event);
}

void ProfileEditor::setPresets(std::vector<ProfileSpec> presets) {
  m_presets = std::move(presets);
  while (m_preset->count() > 1)
    m_preset->removeItem(1);
  for (std::size_t i = 0; i < m_presets.size(); ++i)
    m_preset->addItem(QString());
  retranslate();
}

void ProfileEditor::applyPreset(int index) {
  if (index <= 0 || index > static_cast<int>(m_presets.size())) return;
  setProfile(m_presets[static_cast<std::size_t>(index) - 1]);
  m_preset->setCurrentIndex(index);
}

void ProfileEditor::setProfile(const ProfileSpec& profile) {
  const bool wasBlocked = blockSignals(true);
  m_base = profile;
  int presetIndex = 0;
  for (std::size_t i = 0; i < m_presets.size(); ++i) {
    if (!profile.name.empty() && m_presets[i].name == profile.name) presetIndex = static_cast<int>(i) + 1;
  }
  m_preset->setCurrentIndex(presetIndex);
  const int dataset = m_dataset->findText(QString::fromStdString(profile.datasetName));
  m_dataset->setCurrentIndex(std::max(0, dataset));
  m_datasetPath->setText(QString::fromStdString(profile.datasetPath));
  int mode = 0;
  for (int i = 0; i < 3; ++i) {
    if (kModes[i] == profile.loadMode) mode = i;
  }
  m_mode->setCurrentIndex(mode);
  m_rate->setText(std::isinf(profile.requestRate) ? QStringLiteral("inf")
                                                  : QLocale().toString(profile.requestRate));
  m_burstiness->setValue(profile.burstiness);
  m_maxConcurrency->setValue(profile.maxConcurrency.value_or(0));
  m_concurrency->setValue(profile.concurrency);
  m_numPrompts->setValue(profile.numPrompts);
  const bool prefix = profile.datasetName == "prefix-repetition";
  m_inputLen->setValue(prefix ? profile.prefixRepetitionSuffixLen : profile.randomInputLen);
  m_outputLen->setValue(prefix ? profile.prefixRepetitionOutputLen
                               : profile.sharegptOutputLen.value_or(profile.randomOutputLen));
  m_rangeRatio->setValue(profile.randomRangeRatio);
  m_seed->setValue(static_cast<int>(std::min<std::uint64_t>(profile.seed, std::numeric_limits<int>::max())));
  blockSignals(wasBlocked);
  emit profileChanged();
}

ProfileSpec ProfileEditor::profile() const {
  ProfileSpec p = m_base;
  const QString dataset = m_dataset->currentText();
  const int presetIndex = m_preset->currentIndex();
  p.name = presetIndex > 0 ? m_presets[static_cast<std::size_t>(presetIndex) - 1].name : std::string();
  p.datasetName = dataset.toStdString();
  p.datasetPath = m_datasetPath->text().trimmed().toStdString();
  p.loadMode = kModes[m_mode->currentIndex()];
  const QString rate = m_rate->text().trimmed();
  if (rate.compare(QStringLiteral("inf"), Qt::CaseInsensitive) == 0 || rate.isEmpty()) {
    p.requestRate = ProfileSpec::kInfinity;
  } else {
    bool ok = false;
    double value = QLocale().toDouble(rate, &ok);
    if (!ok) value = rate.toDouble(&ok);  // "2.5" typed in a Turkish UI
    p.requestRate = ok ? value : -1.0;    // validate() names the field
  }
  p.burstiness = m_burstiness->value();
  p.maxConcurrency =
      m_maxConcurrency->value() > 0 ? std::optional<int>(m_maxConcurrency->value()) : std::nullopt;
  p.concurrency = m_concurrency->value();
  p.numPrompts = m_numPrompts->value();
  if (p.datasetName == "prefix-repetition") {
    p.prefixRepetitionSuffixLen = m_inputLen->value();
    p.prefixRepetitionOutputLen = m_outputLen->value();
  } else {
    p.randomInputLen = m_inputLen->value();
    p.randomOutputLen = m_outputLen->value();
    if (p.sharegptOutputLen) p.sharegptOutputLen = m_outputLen->value();
  }
  p.randomRangeRatio = m_rangeRatio->value();
  p.seed = static_cast<std::uint64_t>(m_seed->value());
  return p;
}

QString ProfileEditor::validationError() const {
  try {
    profile().validate();
  } catch (const Error& e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

}  // namespace ayar
