#include "widgets/engine_flag_form.h"

#include <QComboBox>
#include <QDoubleValidator>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QIntValidator>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QVBoxLayout>
#include <algorithm>
#include <limits>

namespace ayar {

namespace {

QString fromStd(const std::string& text) {
  return QString::fromStdString(text);
}

// Bool editors: index 0 leaves the flag to the engine, 1 turns it on, 2 off.
enum BoolChoice { BoolDefault, BoolOn, BoolOff };

}  // namespace

EngineFlagForm::EngineFlagForm(QWidget* parent) : QWidget(parent) {
  m_layout = new QVBoxLayout(this);
  m_layout->setContentsMargins(0, 0, 0, 0);
}

QString EngineFlagForm::groupTitle(const std::string& group) const {
  if (group == "memory") return tr("Memory");
  if (group == "batching") return tr("Batching");
  if (group == "caching") return tr("Caching");
  if (group == "execution") return tr("Execution");
  if (group == "model") return tr("Model");
  if (group == "output") return tr("Output");
  if (group == "parallelism") return tr("Parallelism");
  if (group == "scheduling") return tr("Scheduling");
  return group.empty() ? tr("Other") : fromStd(group);
}

void EngineFlagForm::setTemplate(const EngineTemplate& engineTemplate) {
  for (auto& [name, box] : m_groups)
    delete box;
  m_groups.clear();
  m_entries.clear();
  m_template = engineTemplate;
  for (const FlagSpec& spec : m_template.flags) {
    auto it =
        std::find_if(m_groups.begin(), m_groups.end(), [&](const auto& g) { return g.first == spec.group; });
    if (it == m_groups.end()) {
      auto* box = new QGroupBox(this);
      new QFormLayout(box);
      m_layout->addWidget(box);
      m_groups.emplace_back(spec.group, box);
      it = m_groups.end() - 1;
    }
    auto* form = static_cast<QFormLayout*>(it->second->layout());
    QWidget* editor = nullptr;
    switch (spec.type) {
      case FlagType::Bool: {
        auto* combo = new QComboBox(it->second);
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(8);
        combo->addItems({QString(), QString(), QString()});
        connect(combo, &QComboBox::currentIndexChanged, this, &EngineFlagForm::flagsChanged);
        editor = combo;
        break;
      }
      case FlagType::Choice: {
        auto* combo = new QComboBox(it->second);
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(8);
        combo->setEditable(spec.choicesOpen);
        combo->addItem(QString());
        for (const auto& choice : spec.choices)
          combo->addItem(fromStd(choice));
        connect(combo, &QComboBox::currentTextChanged, this, &EngineFlagForm::flagsChanged);
        editor = combo;
        break;
      }
      default: {
        auto* line = new QLineEdit(it->second);
        line->setClearButtonEnabled(true);
        if (spec.type == FlagType::Int) {
          line->setValidator(new QIntValidator(
              spec.min ? static_cast<int>(*spec.min) : 0,
              spec.max ? static_cast<int>(*spec.max) : std::numeric_limits<int>::max(), line));
        }
        connect(line, &QLineEdit::textChanged, this, &EngineFlagForm::flagsChanged);
        editor = line;
        break;
      }
    }
    editor->setObjectName(fromStd(spec.name));
    auto* label = new QLabel(fromStd(spec.name), it->second);
    label->setBuddy(editor);
    form->addRow(label, editor);
    m_entries.push_back({&spec, editor, label});
  }
  retranslate();
}

void EngineFlagForm::retranslate() {
  const bool turkish = QLocale().language() == QLocale::Turkish;
  for (auto& [group, box] : m_groups)
    box->setTitle(groupTitle(group));
  for (const Entry& entry : m_entries) {
    const FlagSpec& spec = *entry.spec;
    const QString description =
        fromStd(turkish && !spec.descriptionTr.empty() ? spec.descriptionTr : spec.descriptionEn);
    entry.editor->setToolTip(description);
    entry.label->setToolTip(description);
    QString defaultText = spec.defaultValue ? fromStd(*spec.defaultValue) : QString();
    if (spec.type == FlagType::Bool && spec.defaultValue)
      defaultText = *spec.defaultValue == "true" ? tr("on") : tr("off");
    const QString engineDefault =
        spec.defaultValue ? tr("engine default: %1").arg(defaultText) : tr("engine default");
    if (auto* combo = qobject_cast<QComboBox*>(entry.editor)) {
      if (spec.type == FlagType::Bool) {
        combo->setItemText(BoolDefault, engineDefault);
        combo->setItemText(BoolOn, tr("on"));
        combo->setItemText(BoolOff, tr("off"));
      } else {
        combo->setItemText(0, engineDefault);
      }
    } else if (auto* line = qobject_cast<QLineEdit*>(entry.editor)) {
      line->setPlaceholderText(engineDefault);
    }
  }
}

void EngineFlagForm::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(event);
}

std::vector<EngineFlag> EngineFlagForm::flags() const {
  std::vector<EngineFlag> out;
  for (const Entry& entry : m_entries) {
    const FlagSpec& spec = *entry.spec;
    if (auto* combo = qobject_cast<QComboBox*>(entry.editor)) {
      if (spec.type == FlagType::Bool) {
        if (combo->currentIndex() == BoolOn) out.push_back(EngineFlag::toggle(spec.name));
        if (combo->currentIndex() == BoolOff) out.push_back(EngineFlag::option(spec.name, "false"));
      } else if (combo->currentIndex() != 0 || (combo->isEditable() && !combo->currentText().isEmpty() &&
                                                combo->currentText() != combo->itemText(0))) {
        out.push_back(EngineFlag::option(spec.name, combo->currentText().toStdString()));
      }
    } else if (auto* line = qobject_cast<QLineEdit*>(entry.editor)) {
      const QString text = line->text().trimmed();
      if (!text.isEmpty()) out.push_back(EngineFlag::option(spec.name, text.toStdString()));
    }
  }
  return out;
}

std::vector<EngineFlag> EngineFlagForm::setFlags(const std::vector<EngineFlag>& flags) {
  const bool wasBlocked = blockSignals(true);  // one flagsChanged() at the end, not one per editor
  std::vector<EngineFlag> rest;
  for (const Entry& entry : m_entries) {
    if (auto* combo = qobject_cast<QComboBox*>(entry.editor)) {
      combo->setCurrentIndex(0);
    } else if (auto* line = qobject_cast<QLineEdit*>(entry.editor)) {
      line->clear();
    }
  }
  for (const EngineFlag& flag : flags) {
    auto it = flag.raw ? m_entries.end()
                       : std::find_if(m_entries.begin(), m_entries.end(),
                                      [&](const Entry& e) { return e.spec->matches(flag.name); });
    if (it == m_entries.end()) {
      rest.push_back(flag);
      continue;
    }
    const FlagSpec& spec = *it->spec;
    if (auto* combo = qobject_cast<QComboBox*>(it->editor)) {
      if (spec.type == FlagType::Bool) {
        const bool off = flag.name == spec.falseFlag || flag.value == std::optional<std::string>("false");
        combo->setCurrentIndex(off ? BoolOff : BoolOn);
      } else {
        const QString value = fromStd(flag.value.value_or(std::string()));
        const int i = combo->findText(value);
        if (i > 0) {
          combo->setCurrentIndex(i);
        } else if (combo->isEditable()) {
          combo->setEditText(value);
        } else {
          rest.push_back(flag);
        }
      }
    } else if (auto* line = qobject_cast<QLineEdit*>(it->editor)) {
      line->setText(fromStd(flag.value.value_or(std::string())));
    }
  }
  blockSignals(wasBlocked);
  emit flagsChanged();
  return rest;
}

QWidget* EngineFlagForm::editorFor(const QString& flagName) const {
  for (const Entry& entry : m_entries) {
    if (entry.spec->matches(flagName.toStdString())) return entry.editor;
  }
  return nullptr;
}

}  // namespace ayar
