#include "core/load/late_dispatch.h"

#include <gtest/gtest.h>

namespace ayar {
namespace {

using Clock = LateDispatchTally::Clock;
using std::chrono::microseconds;
using std::chrono::milliseconds;

// One turn of the load loop from t0: hand-over [0, 1 ms), the poll's wait [1, 10 ms), its socket work
// [10, 14 ms), sends from 14 ms. `pollCpuS` is the thread's CPU time in the poll.
struct Turn {
  Clock::time_point t0 = Clock::now();
  LateDispatchTally tally;

  explicit Turn(double pollCpuS) {
    tally.handOverBegan(t0);
    tally.polled(t0 + milliseconds(1), t0 + milliseconds(10), t0 + milliseconds(14), pollCpuS);
    tally.sendsBegan(t0 + milliseconds(14));
  }
};

TEST(LateDispatchTally, OnTimeIsNotCounted) {
  Turn turn(0.004);
  turn.tally.note(turn.t0 + milliseconds(14), turn.t0 + milliseconds(14) + microseconds(900));
  const LateDispatches& counts = turn.tally.counts();
  EXPECT_EQ(counts.wokeLate.count + counts.readingSockets.count + counts.offCpu.count +
                counts.handingOver.count + counts.dispatching.count,
            0u);
}

TEST(LateDispatchTally, EachPhaseGivesItsCause) {
  Turn turn(0.004);  // on the CPU for all 4 ms of socket work
  // Due during the hand-over.
  turn.tally.note(turn.t0 + microseconds(500), turn.t0 + milliseconds(14));
  // Due while it waited for its timer, woken 6 ms later: more than the 4 ms of socket work explain.
  turn.tally.note(turn.t0 + milliseconds(4), turn.t0 + milliseconds(14));
  // Due shortly before the wake: the socket work after it is the longer wait.
  turn.tally.note(turn.t0 + milliseconds(9), turn.t0 + milliseconds(14));
  // Due during the socket work.
  turn.tally.note(turn.t0 + milliseconds(12), turn.t0 + milliseconds(14) + microseconds(100));
  // Due while the sends went out.
  turn.tally.note(turn.t0 + milliseconds(15), turn.t0 + milliseconds(17));

  const LateDispatches& counts = turn.tally.counts();
  EXPECT_EQ(counts.handingOver.count, 1u);
  EXPECT_EQ(counts.wokeLate.count, 1u);
  EXPECT_EQ(counts.readingSockets.count, 2u);
  EXPECT_EQ(counts.offCpu.count, 0u);
  EXPECT_EQ(counts.dispatching.count, 1u);
  EXPECT_NEAR(counts.wokeLate.totalMs, 10.0, 1e-6);
  EXPECT_NEAR(counts.readingSockets.maxMs, 5.0, 1e-6);
  EXPECT_NEAR(counts.readingSockets.totalMs, 5.0 + 2.1, 1e-6);
}

TEST(LateDispatchTally, SocketWorkMostlyOffTheCpuIsTheKernels) {
  Turn turn(0.001);  // 1 ms on the CPU in 4 ms of socket work
  turn.tally.note(turn.t0 + milliseconds(12), turn.t0 + milliseconds(14) + microseconds(100));
  EXPECT_EQ(turn.tally.counts().offCpu.count, 1u);
  EXPECT_EQ(turn.tally.counts().readingSockets.count, 0u);
}

}  // namespace
}  // namespace ayar
