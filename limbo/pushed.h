// Internal: an entry pushed on one of the compiler's context stacks for as
// long as a scope lives, popped when it ends, on a CompileError too, so a
// failed expression never leaves a stale entry behind.
#pragma once

#include <utility>

namespace dis::limbo {

template <class Stack>
class Pushed {
 public:
  template <class... Args>
  explicit Pushed(Stack& s, Args&&... args) : s_(s) {
    s_.emplace_back(std::forward<Args>(args)...);
  }
  ~Pushed() { s_.pop_back(); }
  Pushed(const Pushed&) = delete;
  Pushed& operator=(const Pushed&) = delete;

 private:
  Stack& s_;
};

}  // namespace dis::limbo
