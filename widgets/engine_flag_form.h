#pragma once

#include <QWidget>
#include <vector>

#include "core/engines/engine_catalogue.h"
#include "core/engines/engine_spec.h"

class QFormLayout;
class QGroupBox;
class QLabel;
class QVBoxLayout;

namespace ayar {

// A form generated from an engine's flag catalogue (resources/engines/<engine>.json): one editor per
// flag, grouped under the catalogue's headings, the description as a tooltip in the UI language.
// An empty editor (or "default" for a switch) leaves the flag to the engine. flags() gives the set
// flags in catalogue order; checkFlags() from core says what is wrong with them.
class EngineFlagForm : public QWidget {
  Q_OBJECT

 public:
  explicit EngineFlagForm(QWidget* parent = nullptr);

  void setTemplate(const EngineTemplate& engineTemplate);
  const EngineTemplate& engineTemplate() const { return m_template; }
  std::vector<EngineFlag> flags() const;
  // Sets the editors of the catalogue's flags found in `flags`, clears the others; returns the flags
  // the form has no editor for (raw arguments, unknown names), in order.
  std::vector<EngineFlag> setFlags(const std::vector<EngineFlag>& flags);
  // The editor of a flag, for tests and for focusing a flag named in an error.
  QWidget* editorFor(const QString& flagName) const;

 signals:
  void flagsChanged();

 protected:
  void changeEvent(QEvent* event) override;

 private:
  struct Entry {
    const FlagSpec* spec = nullptr;
    QWidget* editor = nullptr;
    QLabel* label = nullptr;
  };
  void retranslate();
  QString groupTitle(const std::string& group) const;

  EngineTemplate m_template;
  std::vector<Entry> m_entries;
  std::vector<std::pair<std::string, QGroupBox*>> m_groups;
  QVBoxLayout* m_layout = nullptr;
};

}  // namespace ayar
