// Switching the language at run time: every visible text of the window changes, none is left in
// English (names such as TTFT aside), and switching back restores English.
#include <gtest/gtest.h>

#include <QAbstractButton>
#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QTabWidget>
#include <QXmlStreamReader>
#include <algorithm>
#include <set>

#include "app/gui/main_window.h"
#include "core/report/report_text.h"
#include "tests/app/gui/gui_test_support.h"
#include "tests/support/test_env.h"
#include "widgets/chart_widget.h"

namespace ayar {
namespace {

// The English source texts of translations/ayar_tr.ts whose Turkish translation differs.
std::set<QString> englishOnlyTexts() {
  QFile file(QStringLiteral(AYAR_TRANSLATIONS_DIR "/ayar_tr.ts"));
  EXPECT_TRUE(file.open(QIODevice::ReadOnly));
  QXmlStreamReader xml(&file);
  std::set<QString> texts;
  QString source;
  while (!xml.atEnd()) {
    xml.readNext();
    if (!xml.isStartElement()) continue;
    if (xml.name() == QLatin1String("source")) source = xml.readElementText();
    if (xml.name() == QLatin1String("translation")) {
      const QString translation = xml.readElementText(QXmlStreamReader::IncludeChildElements);
      if (!translation.isEmpty() && translation != source) texts.insert(source.remove(QLatin1Char('&')));
    }
  }
  // The report catalogue's English phrases too (table headers, figure labels).
  for (int i = 0; i < static_cast<int>(ReportText::Count_); ++i) {
    const auto id = static_cast<ReportText>(i);
    const auto en = reportText(id, ReportLanguage::English);
    const auto tr = reportText(id, ReportLanguage::Turkish);
    if (en != tr) texts.insert(QString::fromUtf8(en.data(), static_cast<qsizetype>(en.size())));
  }
  return texts;
}

// Every text a user can see or hover in the window, with where it was found.
std::vector<std::pair<QString, QString>> visibleTexts(MainWindow& window) {
  std::vector<std::pair<QString, QString>> out;
  auto add = [&](const QString& text, const QObject* where) {
    if (!text.trimmed().isEmpty())
      out.emplace_back(
          QString(text).remove(QLatin1Char('&')),
          where->objectName() + QLatin1Char('/') + QString::fromLatin1(where->metaObject()->className()));
  };
  add(window.windowTitle(), &window);
  for (QWidget* w : window.findChildren<QWidget*>()) {
    if (auto* label = qobject_cast<QLabel*>(w)) add(label->text(), w);
    if (auto* button = qobject_cast<QAbstractButton*>(w)) add(button->text(), w);
    if (auto* box = qobject_cast<QGroupBox*>(w)) add(box->title(), w);
    if (auto* line = qobject_cast<QLineEdit*>(w)) add(line->placeholderText(), w);
    if (auto* combo = qobject_cast<QComboBox*>(w)) {
      // A flag's choices (a combo named after its flag) are command-line values such as "none" and
      // stay as the engine spells them; only the first item, the engine default, is prose.
      const bool flagValues = w->objectName().startsWith(QStringLiteral("--"));
      for (int i = 0; i < (flagValues ? std::min(1, combo->count()) : combo->count()); ++i)
        add(combo->itemText(i), w);
    }
    if (auto* tabs = qobject_cast<QTabWidget*>(w)) {
      for (int i = 0; i < tabs->count(); ++i)
        add(tabs->tabText(i), w);
    }
    if (auto* dock = qobject_cast<QDockWidget*>(w)) add(dock->windowTitle(), w);
    if (auto* chart = qobject_cast<ChartWidget*>(w)) add(chart->title(), w);
    if (auto* header = qobject_cast<QHeaderView*>(w)) {
      if (header->model() && header->orientation() == Qt::Horizontal) {
        for (int i = 0; i < header->model()->columnCount(); ++i)
          add(header->model()->headerData(i, Qt::Horizontal).toString(), w);
      }
    }
    if (!w->toolTip().isEmpty()) add(w->toolTip(), w);
  }
  for (QAction* action : window.menuBar()->actions()) {
    add(action->text(), action);
    if (action->menu()) {
      for (QAction* item : action->menu()->actions())
        add(item->text(), item);
    }
  }
  return out;
}

TEST(Language, SwitchingToTurkishLeavesNoEnglishTextAndSwitchingBackRestoresIt) {
  test::clearSettings();
  test::TempDir dir;
  MainWindow window({dir / "ayar.db", QStringLiteral("en")});
  window.show();
  EXPECT_TRUE(window.windowTitle().startsWith(QStringLiteral("Ayar")));
  const std::set<QString> english = englishOnlyTexts();
  ASSERT_GT(english.size(), 100u);

  auto englishIn = [&](MainWindow& w) {
    std::vector<QString> found;
    for (const auto& [text, where] : visibleTexts(w)) {
      if (english.count(text)) found.push_back(text + QStringLiteral(" @ ") + where);
    }
    return found;
  };
  // In English the walk finds the English texts, so it would find them if they stayed.
  EXPECT_GT(englishIn(window).size(), 50u);

  window.setLanguage(QStringLiteral("tr"));
  EXPECT_TRUE(window.windowTitle().startsWith(QStringLiteral("Ayar")));
  const auto left = englishIn(window);
  for (const QString& text : left)
    ADD_FAILURE() << "English text left in Turkish: " << text.toStdString();
  const auto tabs = window.areas();
  EXPECT_EQ(tabs->tabText(MainWindow::LiveArea), QStringLiteral("Canlı"));
  EXPECT_EQ(tabs->tabText(MainWindow::HistoryArea), QStringLiteral("Geçmiş"));
  EXPECT_EQ(QLocale().decimalPoint(), QStringLiteral(","));

  window.setLanguage(QStringLiteral("en"));
  EXPECT_EQ(tabs->tabText(MainWindow::LiveArea), QStringLiteral("Live"));
  EXPECT_EQ(QLocale().decimalPoint(), QStringLiteral("."));
}

TEST(Language, TheChoiceIsRememberedForTheNextStart) {
  test::clearSettings();
  test::TempDir dir;
  {
    MainWindow window({dir / "ayar.db", QStringLiteral("en")});
    window.setLanguage(QStringLiteral("tr"));
    window.setDarkTheme(true);
    window.close();
  }
  MainWindow again({dir / "ayar.db", QString()});
  EXPECT_EQ(again.areas()->tabText(MainWindow::ResultsArea), QStringLiteral("Sonuçlar"));
  EXPECT_TRUE(again.darkTheme());
  again.setDarkTheme(false);
  again.setLanguage(QStringLiteral("en"));
}

}  // namespace
}  // namespace ayar
