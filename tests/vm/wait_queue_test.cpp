// A channel's wait queue: first in, first out through every compaction, and
// bounded by its longest wait when it never empties.
#include "wait_queue.h"

#include <gtest/gtest.h>

#include <deque>
#include <random>

namespace {

using dis::vm::WaitQueue;

TEST(WaitQueue, KeepsOrderAgainstADequeUnderRandomTraffic) {
  WaitQueue<int> q;
  std::deque<int> model;
  std::mt19937 rng(7);
  int next = 0;
  for (int step = 0; step < 200000; ++step) {
    // Bursts of arrivals, then drains: queues of 0 to a few hundred.
    const bool push = model.empty() || ((step / 500) % 2 == 0 ? rng() % 4 != 0 : rng() % 4 == 0);
    if (push) {
      q.push_back(next);
      model.push_back(next++);
    } else {
      ASSERT_EQ(q.front(), model.front()) << "step " << step;
      q.pop_front();
      model.pop_front();
    }
    ASSERT_EQ(q.size(), model.size());
    ASSERT_EQ(q.empty(), model.empty());
  }
}

TEST(WaitQueue, AQueueThatNeverEmptiesStaysBounded) {
  WaitQueue<int> q;
  q.push_back(0);
  for (int i = 1; i < 100000; ++i) {
    q.push_back(i);
    ASSERT_EQ(q.front(), i - 1);
    q.pop_front();
  }
  EXPECT_EQ(q.size(), 1u);
  EXPECT_LE(q.held(), 64u);
}

TEST(WaitQueue, ClearEmptiesIt) {
  WaitQueue<int> q;
  for (int i = 0; i < 10; ++i) q.push_back(i);
  q.pop_front();
  q.clear();
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.held(), 0u);
  q.push_back(5);
  EXPECT_EQ(q.front(), 5);
}

}  // namespace
