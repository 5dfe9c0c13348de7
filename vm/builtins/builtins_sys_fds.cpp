// $Sys descriptors as Inferno numbers them: an FD object holds a small
// integer indexing the calling thread's table (fd_group.h) and the table it
// was made in, where freeing it closes that number (Inferno's freeFD). Here
// are the FD type, fildes, dup and pctl's NEWFD and FORKFD.
#include <unistd.h>

#include <cstring>
#include <memory>

#include "sys_fd.h"

namespace dis::vm {

namespace {

// Sys.FD as allocated: the Dis-visible number at 0, then (hidden from Dis
// code, as in Inferno) the table it belongs to, a host pointer to a
// heap-allocated reference.
constexpr std::uint32_t kFdGroupOff = 8;
constexpr std::uint32_t kFdObjectSize = 16;

// A descriptor the VM opened: closed with the last table entry holding it.
class OwnedFile : public OpenFile {
 public:
  OwnedFile(std::int32_t d, Devices& dev) : OpenFile(d), dev_(dev) {}
  ~OwnedFile() override {
    dev_.set_union(desc, {});
    if (is_device_fd(desc))
      dev_.close(desc);
    else if (desc > 2)
      ::close(desc);
  }

 private:
  Devices& dev_;
};

std::shared_ptr<FdGroup>* group_of(std::uint8_t* data) {
  std::shared_ptr<FdGroup>* g = nullptr;
  std::memcpy(&g, data + kFdGroupOff, sizeof g);
  return g;
}

// An FD object for descriptor `number` of the calling thread's table. The
// host allocation comes before the object: one that failed after it left the
// object counted once and referenced nowhere (the fault sweep's verifier,
// Inferno's echo). When either fails, `number` is closed again: nothing else
// holds it.
Ptr fd_object(Call& c, const SysState& sys, std::int32_t number) {
  std::unique_ptr<std::shared_ptr<FdGroup>> g;
  Ptr p = H;
  try {
    g = std::make_unique<std::shared_ptr<FdGroup>>(c.fd_group());
    p = c.heap().new_object(sys.fd_type);
  } catch (...) {
    c.fd_group()->close(number);
    throw;
  }
  std::uint8_t* data = c.heap().cage().at(p);
  st<std::int32_t>(data, number);
  std::shared_ptr<FdGroup>* owned = g.release();
  std::memcpy(data + kFdGroupOff, &owned, sizeof owned);
  return p;
}

void set_bad_fd(Call& c) { c.set_error_string("fd out of range or not open"); }

// fildes(fd): ref FD -- a new descriptor for the same file, as Inferno's.
void sys_fildes(Call& c, SysState& sys) {
  FileRef f = c.fd_group()->get(c.arg_int(32));
  std::int32_t n = f ? c.fd_group()->add(f) : -1;
  if (n < 0) {
    set_bad_fd(c);
    c.ret_ptr(H);
    return;
  }
  c.ret_ptr(fd_object(c, sys, n));
}

// dup(old, new): int -- new (or the lowest free descriptor when new < 0)
// refers to old's file, in the calling thread's table only.
void sys_dup(Call& c) {
  std::int32_t a = c.arg_int(32), b = c.arg_int(36);
  FdGroup& g = *c.fd_group();
  FileRef f = g.get(a);
  std::int32_t r = -1;
  if (f && b < 0)
    r = g.add(std::move(f));
  else if (f && g.set(b, std::move(f)))
    r = b;
  if (r < 0) set_bad_fd(c);
  c.ret_int(r);
}

constexpr std::int32_t kNEWFD = 1 << 0, kFORKFD = 1 << 1, kNEWNS = 1 << 2, kFORKNS = 1 << 3,
                       kNEWPGRP = 1 << 4;  // sys.m

// pctl(flags, movefd: list of int): int -- the pid. NEWFD gives the thread a
// table of only the listed descriptors; FORKFD a copy of its table. NEWNS
// a name space with its current directory and no binds, FORKNS a copy;
// NEWPGRP a process group of its own (the one killgrp kills). The
// environment flags change nothing here.
void sys_pctl(Call& c) {
  std::int32_t flags = c.arg_int(32);
  std::shared_ptr<FdGroup>& g = c.fd_group();
  if (flags & kNEWFD) {
    std::vector<std::int32_t> keep;
    Heap& h = c.heap();
    for (Ptr l = c.arg_ptr(36); l != H; l = ld<Ptr>(h.cage().at(l))) {
      if (!h.checked_header(l)) c.raise("dereference of nil");
      keep.push_back(ld<std::int32_t>(h.cage().at(l) + kListHeader));
    }
    g = g->keeping(keep);
  } else if (flags & kFORKFD) {
    g = g->copy();
  }
  std::shared_ptr<NameSpace>& ns = c.name_space();
  if (flags & kNEWNS)
    ns = ns->fresh();
  else if (flags & kFORKNS)
    ns = ns->copy();
  if (flags & kNEWPGRP) c.group() = c.thread_id() + 1;
  c.ret_int(static_cast<std::int32_t>(c.thread_id() + 1));
}

}  // namespace

FileRef file_of(Call& c, std::uint32_t off) {
  Ptr fd = c.arg_ptr(off);
  if (fd == H || !c.heap().checked_header(fd)) c.raise("dereference of nil");
  FileRef f = c.fd_group()->get(ld<std::int32_t>(c.heap().cage().at(fd)));
  if (f) return f;
  set_bad_fd(c);
  return std::make_shared<OpenFile>(-1);
}

Ptr new_fd(Call& c, SysState& sys, std::int32_t desc) {
  std::int32_t n = c.fd_group()->add(std::make_shared<OwnedFile>(desc, sys.dev));
  if (n < 0) {  // the table is full; the file went with its reference
    c.set_error_string("no free file descriptors");
    return H;
  }
  return fd_object(c, sys, n);
}

void add_sys_fd_functions(VM& vm, Impls& impls, const std::shared_ptr<SysState>& sys) {
  TypeInfo fd_type;
  fd_type.size = kFdObjectSize;
  fd_type.name = "Sys.FD";
  // Freeing an FD closes its number in the table it was made in, which may
  // be another thread's or no thread's any more (Inferno's freeFD).
  // It holds the devices' table (its files close devices), which the heap's
  // last frees at exit may reach.
  fd_type.on_free = [sys](std::uint8_t* data) {
    if (std::shared_ptr<FdGroup>* g = group_of(data)) {
      (*g)->close(ld<std::int32_t>(data));
      delete g;
    }
    std::memset(data, 0, kFdObjectSize);
    st<std::int32_t>(data, -1);
  };
  sys->fd_type = vm.heap().add_type(std::move(fd_type));
  impls["fildes"] = with_state(sys, sys_fildes);
  impls["dup"] = sys_dup;
  impls["pctl"] = sys_pctl;
}

}  // namespace dis::vm
