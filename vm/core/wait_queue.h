// A channel's threads waiting to send or to receive, first come first
// served. Most channels hold one waiter at a time, and a thread ring moves
// one through every channel on every pass: std::deque allocated and freed a
// block as that one element walked through it (and three deques per channel
// allocated their maps when the channel was made), a sixth of a pass's
// time (perf/LOG.md). Here a vector keeps its room once it has some; the
// taken prefix is dropped when the queue empties, or once it is the larger
// half, so a queue that never empties stays bounded by its longest wait.
#pragma once

#include <cstddef>
#include <vector>

namespace dis::vm {

template <typename T>
class WaitQueue {
 public:
  bool empty() const { return head_ == items_.size(); }
  std::size_t size() const { return items_.size() - head_; }
  T& front() { return items_[head_]; }
  void push_back(const T& w) { items_.push_back(w); }
  void pop_front() {
    if (++head_ == items_.size()) {
      items_.clear();
      head_ = 0;
    } else if (head_ >= kCompactAfter && 2 * head_ >= items_.size()) {
      items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
  }
  // The entries it holds, taken ones included (what bounds its memory).
  std::size_t held() const { return items_.size(); }
  // Empties it and gives its room back (a freed channel's slot).
  void clear() {
    std::vector<T>().swap(items_);
    head_ = 0;
  }

 private:
  static constexpr std::size_t kCompactAfter = 32;
  std::vector<T> items_;
  std::size_t head_ = 0;
};

}  // namespace dis::vm
