#include "core/store/store_path.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "core/error.h"
#include "core/store/process_identity.h"
#include "tests/support/test_env.h"

namespace ayar {
namespace {

// Sets an environment variable for one test and puts the old value back.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : m_name(name) {
    if (const char* old = std::getenv(name)) m_old = old;
    if (value != nullptr) {
      ::setenv(name, value, 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (m_old) {
      ::setenv(m_name, m_old->c_str(), 1);
    } else {
      ::unsetenv(m_name);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* m_name;
  std::optional<std::string> m_old;
};

TEST(StorePath, UsesXdgDataHomeWhenSet) {
  test::TempDir dir;
  ScopedEnv xdg("XDG_DATA_HOME", dir.path().c_str());
  EXPECT_EQ(defaultStorePath(), dir.path() / "ayar" / "ayar.db");
}

TEST(StorePath, FallsBackToHomeLocalShare) {
  test::TempDir dir;
  ScopedEnv xdg("XDG_DATA_HOME", nullptr);
  ScopedEnv home("HOME", dir.path().c_str());
  EXPECT_EQ(defaultStorePath(), dir.path() / ".local" / "share" / "ayar" / "ayar.db");
}

TEST(StorePath, IgnoresARelativeXdgDataHome) {
  test::TempDir dir;
  ScopedEnv xdg("XDG_DATA_HOME", "relative/data");
  ScopedEnv home("HOME", dir.path().c_str());
  EXPECT_EQ(defaultStorePath(), dir.path() / ".local" / "share" / "ayar" / "ayar.db");
}

TEST(StorePath, WithoutHomeOrXdgIsAnErrorSayingWhatToSet) {
  ScopedEnv xdg("XDG_DATA_HOME", nullptr);
  ScopedEnv home("HOME", nullptr);
  try {
    defaultStorePath();
    FAIL() << "no error without HOME";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("HOME"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ayar

namespace ayar {
namespace {

// A writer that died but was not yet reaped by its parent (a zombie) is dead for the store, so
// its run lists as interrupted at once.
TEST(ProcessIdentity, AZombieCountsAsDeadAndALiveProcessAsAlive) {
  EXPECT_TRUE(processAlive(currentProcessId()));
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) ::_exit(0);
  // Wait for the exit without reaping it (WNOWAIT leaves the zombie in place).
  siginfo_t info{};
  ASSERT_EQ(::waitid(P_PID, static_cast<id_t>(child), &info, WEXITED | WNOWAIT), 0);
  EXPECT_FALSE(processAlive(child));
  ::waitpid(child, nullptr, 0);
  EXPECT_FALSE(processAlive(child));
}

}  // namespace
}  // namespace ayar
