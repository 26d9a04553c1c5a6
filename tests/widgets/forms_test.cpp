#include <gtest/gtest.h>

#include <QComboBox>
#include <QLineEdit>
#include <QLocale>
#include <QSignalSpy>

#include "core/engines/engine_catalogue.h"
#include "widgets/engine_flag_form.h"
#include "widgets/profile_editor.h"

namespace ayar {
namespace {

TEST(EngineFlagForm, HasAnEditorForEveryFlagOfTheBundledEnginesCatalogue) {
  const auto catalogue = EngineCatalogue::loadDefault();
  const EngineTemplate& bundled = catalogue.at("ayar");
  EngineFlagForm form;
  form.setTemplate(bundled);
  for (const FlagSpec& spec : bundled.flags)
    EXPECT_NE(form.editorFor(QString::fromStdString(spec.name)), nullptr) << spec.name;
  EXPECT_TRUE(form.flags().empty());  // nothing set: everything left to the engine
}

TEST(EngineFlagForm, EditedFlagsComeOutInCatalogueOrderAndPassTheCatalogueCheck) {
  const auto catalogue = EngineCatalogue::loadDefault();
  EngineFlagForm form;
  form.setTemplate(catalogue.at("ayar"));
  QSignalSpy changed(&form, &EngineFlagForm::flagsChanged);
  auto* seqs = qobject_cast<QLineEdit*>(form.editorFor(QStringLiteral("--max-num-seqs")));
  auto* caching = qobject_cast<QComboBox*>(form.editorFor(QStringLiteral("--enable-prefix-caching")));
  ASSERT_NE(seqs, nullptr);
  ASSERT_NE(caching, nullptr);
  seqs->setText(QStringLiteral("64"));
  caching->setCurrentIndex(2);  // off
  EXPECT_GE(changed.count(), 2);
  const auto flags = form.flags();
  ASSERT_EQ(flags.size(), 2u);
  EXPECT_EQ(flags[0], EngineFlag::option("--max-num-seqs", "64"));
  EXPECT_EQ(flags[1], EngineFlag::option("--enable-prefix-caching", "false"));
  for (const auto& issue : checkFlags(form.engineTemplate(), flags))
    EXPECT_NE(issue.severity, FlagIssue::Severity::Error) << issue.message;
}

TEST(EngineFlagForm, SetFlagsFillsTheEditorsAndReturnsWhatTheFormCannotShow) {
  const auto catalogue = EngineCatalogue::loadDefault();
  EngineFlagForm form;
  form.setTemplate(catalogue.at("ayar"));
  const std::vector<EngineFlag> in{EngineFlag::option("--max-num-seqs", "8"),
                                   EngineFlag::toggle("--enforce-eager"),
                                   EngineFlag::rawArgument("--sim-profile=fixed:30,5")};
  const auto rest = form.setFlags(in);
  ASSERT_EQ(rest.size(), 1u);
  EXPECT_EQ(rest[0], in[2]);
  const auto out = form.flags();
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0], in[0]);
  EXPECT_EQ(out[1], in[1]);
}

TEST(ProfileEditor, AShippedProfileComesBackAsItWent) {
  ProfileEditor editor;
  const auto presets = listProfiles();
  editor.setPresets(presets);
  const ProfileSpec quick = loadProfile("cpu-quick");
  editor.setProfile(quick);
  const ProfileSpec out = editor.profile();
  EXPECT_EQ(out.name, "cpu-quick");
  EXPECT_EQ(out.numPrompts, quick.numPrompts);
  EXPECT_EQ(out.randomInputLen, quick.randomInputLen);
  EXPECT_EQ(out.randomOutputLen, quick.randomOutputLen);
  EXPECT_DOUBLE_EQ(out.requestRate, quick.requestRate);
  EXPECT_EQ(out.seed, quick.seed);
  EXPECT_EQ(out.ignoreEos, quick.ignoreEos);  // not shown, carried through
  EXPECT_TRUE(editor.validationError().isEmpty());
}

TEST(ProfileEditor, RateTakesInfAndTheUiLocalesDecimalComma) {
  const QLocale old;
  QLocale::setDefault(QLocale(QLocale::Turkish, QLocale::Turkey));
  {
    ProfileEditor editor;
    auto* rate = editor.findChild<QLineEdit*>(QStringLiteral("requestRate"));
    ASSERT_NE(rate, nullptr);
    rate->setText(QStringLiteral("2,5"));
    EXPECT_DOUBLE_EQ(editor.profile().requestRate, 2.5);
    rate->setText(QStringLiteral("inf"));
    EXPECT_TRUE(std::isinf(editor.profile().requestRate));
    rate->setText(QStringLiteral("fast"));
    EXPECT_FALSE(editor.validationError().isEmpty());
  }
  QLocale::setDefault(old);
}

}  // namespace
}  // namespace ayar
