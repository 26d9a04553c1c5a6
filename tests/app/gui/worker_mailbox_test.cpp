// The worker machinery both controllers run on: a job's thread posts, the GUI thread drains every
// 100 ms while the job is current, and only the current job's end is reported, with what it returned.
#include "app/gui/worker_mailbox.h"

#include <gtest/gtest.h>

#include <QThread>
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <vector>

#include "tests/app/gui/gui_test_support.h"

namespace ayar {
namespace {

using namespace std::chrono_literals;

TEST(WorkerThreads, OnlyTheCurrentJobsEndIsReportedWithWhatItReturned) {
  auto mail = std::make_shared<Mailbox<std::vector<int>>>();
  std::vector<int> drained;
  int drains = 0;
  WorkerThreads workers([&] {
    ++drains;
    for (int value : mail->take())
      drained.push_back(value);
  });
  EXPECT_EQ(workers.currentToken(), 0u);

  auto release = std::make_shared<std::atomic<bool>>(false);
  std::vector<int> ended;
  const quint64 first = workers.start(
      QStringLiteral("test-job-"),
      [mail, release] {
        mail->post([](std::vector<int>& m) { m.push_back(1); });
        while (!release->load())
          QThread::msleep(1);
        return 10;
      },
      [release] { release->store(true); }, [&](int result) { ended.push_back(result); });
  EXPECT_EQ(first, 1u);
  ASSERT_TRUE(test::waitFor([&] { return !drained.empty(); }, 5s));
  EXPECT_EQ(drained, std::vector<int>{1});

  // A second job replaces the first: the first ends too (released), but only the second is reported.
  std::optional<int> secondResult;
  const quint64 second = workers.start(
      QStringLiteral("test-job-"),
      [mail] {
        mail->post([](std::vector<int>& m) { m.push_back(2); });
        return 20;
      },
      [] {}, [&](int result) { secondResult = result; });
  EXPECT_EQ(second, 2u);
  EXPECT_EQ(workers.currentToken(), 2u);
  release->store(true);
  ASSERT_TRUE(test::waitFor([&] { return secondResult.has_value(); }, 5s));
  EXPECT_EQ(*secondResult, 20);
  test::waitFor([] { return false; }, 300ms);  // time for the first job's end to arrive, were it reported
  EXPECT_TRUE(ended.empty());

  // After the current job's end the timer has stopped: no more drains.
  const int drainsAtEnd = drains;
  test::waitFor([] { return false; }, 3 * WorkerThreads::kDrainIntervalMs * 1ms);
  EXPECT_EQ(drains, drainsAtEnd);
}

TEST(WorkerThreads, DestroyedWithAJobRunningCancelsItAndWaitsForItsThread) {
  auto release = std::make_shared<std::atomic<bool>>(false);
  auto ran = std::make_shared<std::atomic<bool>>(false);
  bool reported = false;
  {
    WorkerThreads workers([] {});
    workers.start(
        QStringLiteral("test-job-"),
        [release, ran] {
          while (!release->load())
            QThread::msleep(1);
          ran->store(true);
          return 0;
        },
        [release] { release->store(true); }, [&](int) { reported = true; });
  }
  EXPECT_TRUE(ran->load());  // the thread ran to its end before the destructor returned
  test::waitFor([] { return false; }, 200ms);
  EXPECT_FALSE(reported);
}

}  // namespace
}  // namespace ayar
