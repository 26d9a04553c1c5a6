// GoogleTest main for the workbench: a QApplication on the offscreen platform, settings kept apart
// from the user's (QStandardPaths test mode), numbers written in the C locale as in `ayar`.
#include <gtest/gtest.h>

#include <QApplication>
#include <QStandardPaths>
#include <clocale>

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QStandardPaths::setTestModeEnabled(true);
  QApplication app(argc, argv);
  std::setlocale(LC_NUMERIC, "C");
  QApplication::setOrganizationName(QStringLiteral("AyarTests"));
  QApplication::setApplicationName(QStringLiteral("test_app_gui"));
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
