#pragma once

#include <chrono>
#include <cstddef>

namespace ayar {

// Why requests went out late: for each request sent more than kLateDispatchS after its scheduled
// time, what the client thread was doing when it came due. The causes point at different remedies:
// a thread the OS woke late needs a free core (or real-time priority); time spent reading sockets or
// handing records over is the client's own work standing in the way of a send.
struct LateDispatches {
  static constexpr double kLateDispatchS = 0.001;
  struct Cause {
    std::size_t count = 0;
    double totalMs = 0.0;
    double maxMs = 0.0;
  };
  Cause wokeLate;        // waiting for its timer, and the OS ran it late
  Cause readingSockets;  // reading and parsing responses
  Cause offCpu;          // reading responses, but off the CPU most of that time (blocked in the kernel)
  Cause handingOver;     // handing finished records to the sink
  Cause dispatching;     // sending requests that were due before it
  // The client thread's context switches over the run (getrusage RUSAGE_THREAD): involuntary ones
  // are the OS taking the core away.
  long voluntarySwitches = 0;
  long involuntarySwitches = 0;
};

// Tells the cause of each late dispatch from the phases of the load loop's previous turn. A turn is:
// hand finished records over, poll (wait for the sockets or the next due time, then read what is
// ready), send what is due. A request that came due during the hand-over waited for it; one that came
// due while the thread slept with its timer set for it, and woke later than the socket work can
// explain, was woken late by the OS; one due during the socket work waited for that (off the CPU when
// the thread used less than half of that time on the CPU); one due during the sends waited for the
// requests before it.
class LateDispatchTally {
 public:
  using Clock = std::chrono::steady_clock;

  // The turn's phases, in order.
  void handOverBegan(Clock::time_point at) { m_handOverBegan = at; }
  void polled(Clock::time_point entered, Clock::time_point woke, Clock::time_point returned, double cpuS) {
    m_pollEntered = entered;
    m_pollWoke = woke;
    m_pollReturned = returned;
    m_pollCpuS = cpuS;
  }
  void sendsBegan(Clock::time_point at) { m_sendsBegan = at; }

  // A request due at `dueAt` went out at `sentAt`: counted under its cause when it was late.
  void note(Clock::time_point dueAt, Clock::time_point sentAt);

  LateDispatches& counts() { return m_counts; }
  const LateDispatches& counts() const { return m_counts; }

 private:
  LateDispatches m_counts;
  Clock::time_point m_handOverBegan{};
  Clock::time_point m_pollEntered{};
  Clock::time_point m_pollWoke{};
  Clock::time_point m_pollReturned{};
  double m_pollCpuS = 0.0;  // the thread's CPU time in the poll (its socket work; waiting costs none)
  Clock::time_point m_sendsBegan{};
};

}  // namespace ayar
