// Every area of the workbench at the common laptop and desktop screen sizes, in both languages: no
// label, button, box, tab or placeholder is cut short (as "tüm durumla" was for "tüm durumlar"), and
// the window fits the screen. A real simulator run fills the areas first.
#include <gtest/gtest.h>

#include <QAbstractButton>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QScreen>
#include <QSignalSpy>
#include <QStyle>
#include <QStyleOption>
#include <QStyleOptionComboBox>
#include <QTabBar>
#include <QTabWidget>

#include "app/gui/main_window.h"
#include "app/gui/setup_panel.h"
#include "tests/app/gui/gui_test_support.h"
#include "tests/support/test_env.h"

namespace ayar {
namespace {

void settle() {
  for (int i = 0; i < 5; ++i)
    QCoreApplication::processEvents();
}

// The texts shown shorter than they are, with where.
std::vector<std::string> cutTexts(QWidget& root) {
  std::vector<std::string> cut;
  const auto add = [&](const QWidget* w, const QString& text) {
    cut.push_back(w->metaObject()->className() + std::string(" ") + w->objectName().toStdString() + ": \"" +
                  text.toStdString() + "\"");
  };
  for (QWidget* w : root.findChildren<QWidget*>()) {
    if (!w->isVisibleTo(&root) || w->width() <= 1) continue;
    // Inside a scroll area the content may be wider than the view: that is scrolling, not cutting.
    if (auto* label = qobject_cast<QLabel*>(w)) {
      if (!label->wordWrap() && !label->text().isEmpty() && label->pixmap().isNull() &&
          label->width() < label->minimumSizeHint().width())
        add(w, label->text());
    } else if (auto* button = qobject_cast<QAbstractButton*>(w)) {
      if (!button->text().isEmpty() && qobject_cast<QTabBar*>(button->parentWidget()) == nullptr &&
          button->width() < button->minimumSizeHint().width())
        add(w, button->text());
    } else if (auto* combo = qobject_cast<QComboBox*>(w)) {
      if (combo->isEditable() || combo->currentText().isEmpty()) continue;
      QStyleOptionComboBox option;
      option.initFrom(combo);
      option.editable = false;
      const QRect field =
          combo->style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, combo);
      if (combo->fontMetrics().horizontalAdvance(combo->currentText()) > field.width())
        add(w, combo->currentText());
    } else if (auto* line = qobject_cast<QLineEdit*>(w)) {
      if (!line->text().isEmpty() || line->placeholderText().isEmpty()) continue;
      const QMargins margins = line->textMargins();
      const int room = line->contentsRect().width() - margins.left() - margins.right() - 8;
      if (line->fontMetrics().horizontalAdvance(line->placeholderText()) > room)
        add(w, line->placeholderText());
    } else if (auto* tabs = qobject_cast<QTabBar*>(w)) {
      for (int i = 0; i < tabs->count(); ++i) {
        if (tabs->tabRect(i).width() < tabs->fontMetrics().horizontalAdvance(tabs->tabText(i)))
          add(w, tabs->tabText(i));
      }
    } else if (auto* box = qobject_cast<QGroupBox*>(w)) {
      if (box->width() < box->fontMetrics().horizontalAdvance(box->title()) + 16) add(w, box->title());
    }
  }
  return cut;
}

TEST(Layout, NoTextIsCutInAnyAreaAtLaptopAndDesktopSizesInEitherLanguage) {
  test::clearSettings();
  test::TempDir dir;
  MainWindow window({dir / "ayar.db", QStringLiteral("en")});
  window.show();
  // One run, so that every area shows what it shows after a first run.
  window.setupPanel()->setRunSpec(test::simRunSpec(10, 2, 20, 100.0, "layout"));
  QSignalSpy finished(&window, &MainWindow::runFinished);
  ASSERT_TRUE(window.startRun()) << window.statusText().toStdString();
  ASSERT_TRUE(finished.wait(120000));
  const qint64 id = finished.front().at(0).toLongLong();
  window.compareRuns(id, {id});

  for (const QSize size : {QSize(1366, 768), QSize(1920, 1080)}) {
    for (const QString& language : {QStringLiteral("en"), QStringLiteral("tr")}) {
      window.setLanguage(language);
      window.resize(size);
      for (int area = 0; area < window.areas()->count(); ++area) {
        window.showArea(static_cast<MainWindow::Area>(area));
        settle();
        for (const std::string& text : cutTexts(window))
          ADD_FAILURE() << size.width() << "x" << size.height() << " " << language.toStdString() << ", area "
                        << window.areas()->tabText(area).toStdString() << ": " << text;
      }
    }
  }
  window.setLanguage(QStringLiteral("en"));
}

// An unticked box is seen in the dark theme as in the light one: its outline stands off the window.
TEST(Layout, AnUntickedBoxIsSeenInTheDarkTheme) {
  test::clearSettings();
  test::TempDir dir;
  MainWindow window({dir / "ayar.db", QStringLiteral("en")});
  window.resize(1366, 768);
  window.show();
  window.showArea(MainWindow::CompareArea);
  auto* box = window.findChild<QCheckBox*>(QStringLiteral("logScale"));
  ASSERT_NE(box, nullptr);
  ASSERT_FALSE(box->isChecked());
  for (const bool dark : {false, true}) {
    window.setDarkTheme(dark);
    settle();
    QStyleOptionButton option;
    option.initFrom(box);
    const QRect indicator = box->style()->subElementRect(QStyle::SE_CheckBoxIndicator, &option, box);
    const QImage image = box->grab().toImage();
    const QColor background = box->palette().color(QPalette::Window);
    int contrast = 0;
    for (int x = indicator.left(); x <= indicator.right(); ++x) {
      for (int y = indicator.top(); y <= indicator.bottom(); ++y) {
        const QColor c =
            image.pixelColor(x * image.width() / box->width(), y * image.height() / box->height());
        contrast = std::max(contrast, std::abs(qGray(c.rgb()) - qGray(background.rgb())));
      }
    }
    EXPECT_GT(contrast, 40) << (dark ? "dark" : "light") << " theme: the box's outline is not seen";
  }
  window.setDarkTheme(false);
}

// A first start fits the screen it opens on.
TEST(Layout, AFirstStartFitsTheScreen) {
  test::clearSettings();
  test::TempDir dir;
  MainWindow window({dir / "ayar.db", QStringLiteral("en")});
  const QSize screen = QGuiApplication::primaryScreen()->availableGeometry().size();
  EXPECT_LE(window.width(), screen.width());
  EXPECT_LE(window.height(), screen.height());
}

}  // namespace
}  // namespace ayar
