#include "core/load/event_loop.h"

#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <system_error>

#include "core/load/client_text.h"
#include "core/report/message_text.h"

namespace ayar {

EventLoop::EventLoop() {
  m_epollFd = epoll_create1(EPOLL_CLOEXEC);
  m_timerFd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  m_wakeFd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (m_epollFd < 0 || m_timerFd < 0 || m_wakeFd < 0) {
    const int savedErrno = errno;
    closeAll();
    throw MessageError({MessageText::LoadNoEventLoop, {osErrorText(savedErrno)}});
  }
  for (int fd : {m_timerFd, m_wakeFd}) {
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.fd = fd;
    epoll_ctl(m_epollFd, EPOLL_CTL_ADD, fd, &event);
  }
}

EventLoop::~EventLoop() {
  closeAll();
}

void EventLoop::closeAll() {
  for (int* fd : {&m_epollFd, &m_timerFd, &m_wakeFd}) {
    if (*fd >= 0) ::close(*fd);
    *fd = -1;
  }
}

void EventLoop::add(int fd, std::uint32_t events) {
  epoll_event event{};
  event.events = events;
  event.data.fd = fd;
  if (epoll_ctl(m_epollFd, EPOLL_CTL_ADD, fd, &event) != 0 && errno == EEXIST) {
    epoll_ctl(m_epollFd, EPOLL_CTL_MOD, fd, &event);
  }
}

void EventLoop::modify(int fd, std::uint32_t events) {
  epoll_event event{};
  event.events = events;
  event.data.fd = fd;
  epoll_ctl(m_epollFd, EPOLL_CTL_MOD, fd, &event);
}

void EventLoop::remove(int fd) {
  epoll_ctl(m_epollFd, EPOLL_CTL_DEL, fd, nullptr);
}

void EventLoop::armTimer(Clock::time_point deadline) {
  // A timer already set to fire no later than needed will do: at worst a wait ends early once and
  // finds nothing due. Re-arming on every wait (libcurl moves its deadline by microseconds with each
  // call) would cost a system call per chunk.
  if (m_armedDeadline && *m_armedDeadline <= deadline) return;
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(deadline.time_since_epoch()).count();
  itimerspec spec{};
  spec.it_value.tv_sec = static_cast<time_t>(ns / 1'000'000'000);
  spec.it_value.tv_nsec = static_cast<long>(ns % 1'000'000'000);
  if (spec.it_value.tv_sec == 0 && spec.it_value.tv_nsec == 0) spec.it_value.tv_nsec = 1;  // 0 disarms
  timerfd_settime(m_timerFd, TFD_TIMER_ABSTIME, &spec, nullptr);
  m_armedDeadline = deadline;
}

std::span<const epoll_event> EventLoop::wait(Clock::time_point deadline) {
  int timeoutMs = -1;
  if (deadline <= Clock::now()) {
    timeoutMs = 0;
  } else if (deadline != Clock::time_point::max()) {
    armTimer(deadline);
  }
  int ready = epoll_wait(m_epollFd, m_events, kMaxEvents, timeoutMs);
  if (ready < 0) ready = 0;  // EINTR: the caller just looks again
  // The timer's and the wake-up's events are consumed here; the rest keep their order.
  int kept = 0;
  for (int i = 0; i < ready; ++i) {
    const int fd = m_events[i].data.fd;
    std::uint64_t counter = 0;
    if (fd == m_timerFd) {
      if (::read(m_timerFd, &counter, sizeof counter) > 0) m_armedDeadline.reset();
    } else if (fd == m_wakeFd) {
      [[maybe_unused]] const auto ignored = ::read(m_wakeFd, &counter, sizeof counter);
    } else {
      m_events[kept++] = m_events[i];
    }
  }
  return {m_events, static_cast<std::size_t>(kept)};
}

void EventLoop::wake() {
  const std::uint64_t one = 1;
  [[maybe_unused]] const auto ignored = ::write(m_wakeFd, &one, sizeof one);
}

}  // namespace ayar
