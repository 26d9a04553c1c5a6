#pragma once

#include <sys/epoll.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>

namespace ayar {

// The load client's wait: one epoll set, a timer for the next deadline, and a wake-up another thread
// may ring. Level-triggered: a descriptor left readable is reported again by the next wait. Not
// thread-safe except wake().
class EventLoop {
 public:
  using Clock = std::chrono::steady_clock;

  // Throws ayar::Error (MessageText::LoadNoEventLoop) when the system gives no epoll set, timer or
  // eventfd.
  EventLoop();
  ~EventLoop();
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;

  // Reports `fd` with `events` (EPOLLIN, EPOLLOUT, ...) from the next wait on; a descriptor already
  // watched gets the new events.
  void add(int fd, std::uint32_t events);
  // Changes the events of a descriptor already watched (one system call).
  void modify(int fd, std::uint32_t events);
  void remove(int fd);

  // Waits until a watched descriptor is ready, `deadline` passes, or wake() is called, and returns the
  // ready descriptors (the timer's and the wake-up's own events are handled here). A deadline already
  // past does not wait; Clock::time_point::max() waits without one.
  std::span<const epoll_event> wait(Clock::time_point deadline);

  // Makes a wait() on another thread return soon. Thread-safe.
  void wake();

 private:
  void armTimer(Clock::time_point deadline);
  void closeAll();

  // Events handled per wait. The load runner dispatches due requests only between waits, so a small
  // batch keeps dispatch lag low even when thousands of streams are ready at once.
  static constexpr int kMaxEvents = 32;

  int m_epollFd = -1;
  int m_timerFd = -1;
  int m_wakeFd = -1;
  std::optional<Clock::time_point> m_armedDeadline;
  epoll_event m_events[kMaxEvents] = {};
};

}  // namespace ayar
