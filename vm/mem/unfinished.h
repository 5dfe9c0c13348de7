// A new heap object a builtin is still filling in: it holds the one
// reference until done() hands it over. If an allocation throws first, the
// object and what was stored in it so far are released, not left counted
// with nothing holding them (the heap verifier's complaint).
#pragma once

#include <utility>

#include "heap.h"

namespace dis::vm {

class Unfinished {
 public:
  Unfinished(Heap& h, Ptr p) : h_(h), p_(p) {}
  Unfinished(const Unfinished&) = delete;
  Unfinished& operator=(const Unfinished&) = delete;
  ~Unfinished() { h_.decref(p_); }
  Ptr get() const { return p_; }
  Ptr done() { return std::exchange(p_, H); }

 private:
  Heap& h_;
  Ptr p_;
};

}  // namespace dis::vm
