#pragma once

#include <QObject>
#include <QString>
#include <QTimer>
#include <functional>
#include <memory>
#include <mutex>
#include <type_traits>
#include <utility>
#include <vector>

class QThread;

namespace ayar {

// What a worker's threads hand to the GUI thread: a Mail (a struct of lists, as a rule) under a mutex.
// Any thread posts into it; the GUI thread takes all of it at once.
template <typename Mail>
class Mailbox {
 public:
  // On any thread: `write` changes the mail waiting to be taken.
  template <typename Write>
  void post(Write&& write) {
    std::lock_guard lock(m_mutex);
    std::forward<Write>(write)(m_mail);
  }
  // Everything posted since the last take; the box is left empty.
  Mail take() {
    std::lock_guard lock(m_mutex);
    return std::exchange(m_mail, Mail{});
  }

 private:
  std::mutex m_mutex;
  Mail m_mail;
};

// The worker threads of a GUI controller, and the timer on the GUI thread that drains what they post.
// Each job runs on a QThread of its own and has a token (1, 2, ...); the newest job is the current one.
// A job that another replaced runs to its end (its owner cancels it), but its end is not reported: what
// it still delivers is stale. While a job is current, `drain` runs every kDrainIntervalMs, so that the
// owner takes the job's mailbox and emits at most about ten updates a second.
// Lives on the GUI thread; a member of its owner, declared last so that it is destroyed first.
class WorkerThreads : public QObject {
 public:
  static constexpr int kDrainIntervalMs = 100;

  explicit WorkerThreads(std::function<void()> drain);
  // Cancels every job whose thread has not been reported ended and waits for its thread.
  ~WorkerThreads() override;
  WorkerThreads(const WorkerThreads&) = delete;
  WorkerThreads& operator=(const WorkerThreads&) = delete;

  // Starts a job and returns its token: runs `work` on a new thread named `name` followed by the token,
  // and starts the drain timer. `cancel` asks the job to end; it is called (on the GUI thread) only when
  // the owner is destroyed with the job still running. Once the thread has ended, if the job is still
  // the current one, the timer stops and `finished` runs on the GUI thread with what `work` returned
  // (handed over under a mutex).
  template <typename Work, typename Finished>
  quint64 start(const QString& name, Work work, std::function<void()> cancel, Finished finished) {
    using Result = std::invoke_result_t<Work&>;
    auto result = std::make_shared<Mailbox<Result>>();
    return startThread(
        name,
        [work = std::move(work), result]() mutable {
          Result value = work();
          result->post([&value](Result& mail) { mail = std::move(value); });
        },
        std::move(cancel), [finished = std::move(finished), result]() mutable { finished(result->take()); });
  }
  // The current job's token; 0 before the first.
  quint64 currentToken() const { return m_token; }

 private:
  struct Thread {
    quint64 token = 0;
    QThread* thread = nullptr;
    std::function<void()> cancel;
  };

  quint64 startThread(const QString& name, std::function<void()> work, std::function<void()> cancel,
                      std::function<void()> finished);
  void onThreadFinished(quint64 token, const std::function<void()>& finished);

  QTimer m_timer;
  quint64 m_token = 0;
  std::vector<Thread> m_threads;  // threads not yet reported ended
};

}  // namespace ayar
