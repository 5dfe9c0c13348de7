#include "fd_group.h"

#include <utility>

namespace dis::vm {

std::shared_ptr<FdGroup> FdGroup::standard() {
  auto g = std::make_shared<FdGroup>();
  for (std::int32_t i = 0; i < 3; ++i) g->slots_.push_back(std::make_shared<OpenFile>(i));
  return g;
}

FileRef FdGroup::get(std::int32_t fd) const {
  if (fd < 0 || static_cast<std::size_t>(fd) >= slots_.size()) return nullptr;
  return slots_[static_cast<std::size_t>(fd)];
}

std::int32_t FdGroup::add(FileRef f) {
  for (std::size_t i = 0; i < slots_.size(); ++i)
    if (!slots_[i]) {
      slots_[i] = std::move(f);
      return static_cast<std::int32_t>(i);
    }
  if (slots_.size() >= kMaxFd) return -1;
  slots_.push_back(std::move(f));
  return static_cast<std::int32_t>(slots_.size() - 1);
}

bool FdGroup::set(std::int32_t fd, FileRef f) {
  if (fd < 0 || fd >= kMaxFd) return false;
  if (static_cast<std::size_t>(fd) >= slots_.size())
    slots_.resize(static_cast<std::size_t>(fd) + 1);
  // The old file is released after the slot changes, as its destructor may
  // close a descriptor.
  FileRef old = std::exchange(slots_[static_cast<std::size_t>(fd)], std::move(f));
  return true;
}

bool FdGroup::close(std::int32_t fd) {
  if (!get(fd)) return false;
  FileRef old = std::move(slots_[static_cast<std::size_t>(fd)]);
  while (!slots_.empty() && !slots_.back()) slots_.pop_back();
  return true;
}

std::shared_ptr<FdGroup> FdGroup::copy() const {
  auto g = std::make_shared<FdGroup>();
  g->slots_ = slots_;
  return g;
}

std::shared_ptr<FdGroup> FdGroup::keeping(const std::vector<std::int32_t>& fds) const {
  auto g = std::make_shared<FdGroup>();
  for (std::int32_t fd : fds)
    if (FileRef f = get(fd)) g->set(fd, std::move(f));
  return g;
}

}  // namespace dis::vm
