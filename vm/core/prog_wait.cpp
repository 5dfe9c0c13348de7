#include "prog_wait.h"

namespace dis::vm {

void WaitQueues::open(std::uint32_t owner) {
  std::lock_guard<std::mutex> lock(mu_);
  queues_[owner];
}

void WaitQueues::post(std::uint32_t owner, const std::string& line) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = queues_.find(owner);
    if (it == queues_.end()) return;
    it->second.push_back(line);
  }
  cv_.notify_all();
}

std::string WaitQueues::take(std::uint32_t owner) {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    auto it = queues_.find(owner);
    if (it == queues_.end()) return "";
    if (!it->second.empty()) {
      std::string s = std::move(it->second.front());
      it->second.pop_front();
      return s;
    }
    cv_.wait(lock);
  }
}

void WaitQueues::close(std::uint32_t owner) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    queues_.erase(owner);
  }
  cv_.notify_all();
}

}  // namespace dis::vm
