#include "core/load/late_dispatch.h"

#include <algorithm>

namespace ayar {

void LateDispatchTally::note(Clock::time_point dueAt, Clock::time_point sentAt) {
  const double lateS = std::chrono::duration<double>(sentAt - dueAt).count();
  if (lateS <= LateDispatches::kLateDispatchS) return;
  LateDispatches::Cause* cause = &m_counts.dispatching;  // due while earlier requests went out
  if (dueAt >= m_handOverBegan && dueAt < m_sendsBegan) {
    const auto socketWork = m_pollReturned - m_pollWoke;
    if (dueAt < m_pollEntered) {
      cause = &m_counts.handingOver;
    } else if (dueAt < m_pollWoke && m_pollWoke - dueAt >= socketWork) {
      // Due while the thread waited with its timer set for dueAt: a wake well after it is the OS's.
      cause = &m_counts.wokeLate;
    } else {
      const bool offCpu = m_pollCpuS < 0.5 * std::chrono::duration<double>(socketWork).count();
      cause = offCpu ? &m_counts.offCpu : &m_counts.readingSockets;
    }
  }
  ++cause->count;
  cause->totalMs += lateS * 1e3;
  cause->maxMs = std::max(cause->maxMs, lateS * 1e3);
}

}  // namespace ayar
