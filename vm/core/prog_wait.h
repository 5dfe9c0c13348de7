// Inferno's /prog/N/wait: when a thread ends, a line "PID \"MODULE\":STATUS"
// (STATUS empty, or the exception that ended it) goes to the thread that
// spawned it, if that thread has opened its wait file; a read takes the
// oldest line, waiting for one. Posting happens on the thread holding the
// interpreter, reading with it released (Call::blocking): a mutex guards
// the queues.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>

namespace dis::vm {

class WaitQueues {
 public:
  // Thread `owner` (an id) now collects its children's exits.
  void open(std::uint32_t owner);
  // A child of `owner` ended: queued when owner collects, dropped otherwise.
  void post(std::uint32_t owner, const std::string& line);
  // The oldest line of owner's queue, waiting until there is one; "" when
  // the queue is closed meanwhile (its owner ended).
  std::string take(std::uint32_t owner);
  // Owner ended: its queue goes, waking any reader.
  void close(std::uint32_t owner);

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::uint32_t, std::deque<std::string>> queues_;
};

}  // namespace dis::vm
