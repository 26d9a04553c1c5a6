#include "app/gui/worker_mailbox.h"

#include <QThread>
#include <algorithm>

namespace ayar {

WorkerThreads::WorkerThreads(std::function<void()> drain) {
  m_timer.setInterval(kDrainIntervalMs);
  connect(&m_timer, &QTimer::timeout, this, std::move(drain));
}

WorkerThreads::~WorkerThreads() {
  for (Thread& t : m_threads) {
    t.cancel();
    t.thread->wait();
    delete t.thread;
  }
}

quint64 WorkerThreads::startThread(const QString& name, std::function<void()> work,
                                   std::function<void()> cancel, std::function<void()> finished) {
  const quint64 token = ++m_token;
  QThread* thread = QThread::create(std::move(work));
  thread->setObjectName(name + QString::number(token));
  connect(thread, &QThread::finished, this,
          [this, token, finished = std::move(finished)] { onThreadFinished(token, finished); });
  m_threads.push_back({token, thread, std::move(cancel)});
  thread->start();
  m_timer.start();
  return token;
}

void WorkerThreads::onThreadFinished(quint64 token, const std::function<void()>& finished) {
  auto it =
      std::find_if(m_threads.begin(), m_threads.end(), [&](const Thread& t) { return t.token == token; });
  if (it != m_threads.end()) {
    it->thread->deleteLater();
    m_threads.erase(it);
  }
  if (token != m_token) return;  // a replaced job: what it delivers is stale
  m_timer.stop();
  finished();
}

}  // namespace ayar
