#include "heap_verify.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "arrays_lists.h"

namespace dis::vm {

namespace {

struct Verifier {
  Verifier(Heap& h, HeapHooks& o) : heap(h), host(o) {}
  Heap& heap;
  HeapHooks& host;
  HeapVerifyResult res;
  // The walk meets blocks in address order: sorted vectors searched by
  // bisection, not hash maps (a node per block made a verification of a
  // large heap cost seconds under the sanitizers).
  std::vector<Ptr> live;                  // live blocks (their data)
  std::vector<std::uint64_t> refs;        // references found to live[i]
  std::vector<std::uint8_t> seen;         // live[i] reached from the roots
  std::vector<Ptr> free_blocks;           // free blocks (their headers)
  std::vector<std::uint32_t> free_sizes;  // free_blocks[i]'s size
  std::uint64_t bytes_live = 0;           // of the live blocks walked

  // The index of live block p, or -1.
  std::ptrdiff_t find(Ptr p) const {
    auto it = std::lower_bound(live.begin(), live.end(), p);
    return it != live.end() && *it == p ? it - live.begin() : -1;
  }

  void error(std::string msg) {
    if (res.errors.size() < 20) res.errors.push_back(std::move(msg));
  }
  static std::string hex(Ptr p) {
    char b[16];
    std::snprintf(b, sizeof b, "0x%x", p);
    return b;
  }

  // Calls f(child) for every pointer the block holds, counted references
  // included (a module object's data, a channel's buffered elements).
  template <class F>
  void children(Ptr p, F&& f) {
    BlockHeader* h = heap.header(p);
    std::uint8_t* d = heap.cage().at(p);
    const TypeInfo& t = heap.type(h->type);
    std::uint32_t room = block_room(*h);
    switch (t.kind) {
      case TypeKind::Plain:
        for (std::uint32_t off : t.ptrs)
          if (off + 4 <= room) f(ld<Ptr>(d + off));
        break;
      case TypeKind::List: {
        std::uint32_t et = ld<std::uint32_t>(d + 4);
        if (et < heap.num_types())
          for (std::uint32_t off : heap.type(et).ptrs)
            if (8 + off + 4 <= room) f(ld<Ptr>(d + 8 + off));
        f(ld<Ptr>(d));
        break;
      }
      case TypeKind::Array: {
        Ptr root = ld<Ptr>(d + 8);
        if (root != H) {
          f(root);
          break;
        }
        std::uint32_t et = ld<std::uint32_t>(d + 4);
        if (et >= heap.num_types()) break;
        const TypeInfo& e = heap.type(et);
        if (e.ptrs.empty() || e.size == 0) break;
        auto n = static_cast<std::uint32_t>(std::max(ld<std::int32_t>(d), 0));
        n = std::min(n, (room - kArrayHeader) / e.size);
        for (std::uint32_t i = 0; i < n; ++i)
          for (std::uint32_t off : e.ptrs) f(ld<Ptr>(d + kArrayHeader + i * e.size + off));
        break;
      }
      case TypeKind::Channel:
        host.channel_items(ld<std::uint32_t>(d), [&](std::uint32_t et, const std::uint8_t* item) {
          for (std::uint32_t off : heap.type(et).ptrs) f(ld<Ptr>(item + off));
        });
        break;
      case TypeKind::Module: {
        Ptr mp;
        if (host.module_data(ld<std::uint32_t>(d + kModuleIndex), mp)) f(mp);
        break;
      }
      case TypeKind::String:
      case TypeKind::Stack:
        break;
    }
  }

  void walk_blocks() {
    Ptr p = kHeapStart;
    while (p < heap.top()) {
      auto* h = reinterpret_cast<BlockHeader*>(heap.cage().at(p));
      if (h->size < kMinBlock || (h->size & 7) != 0 || std::uint64_t{p} + h->size > heap.top()) {
        error("block " + hex(p + 16) + ": bad size " + std::to_string(h->size));
        return;
      }
      if (h->magic == kStack) {
        if (h->type != kTypeStack)
          error("block " + hex(p + 16) + ": stack magic, type " + std::to_string(h->type));
      } else if (h->magic == kLive) {
        if (h->type >= heap.num_types() || h->type == kTypeStack)
          error("block " + hex(p + 16) + ": bad type " + std::to_string(h->type));
        else {
          if (h->colour > kPropagator) error("block " + hex(p + 16) + ": bad colour");
          live.push_back(p + 16);
          ++res.live_blocks;
          bytes_live += h->size;
        }
      } else if (h->magic == kFree) {
        free_blocks.push_back(p);
        free_sizes.push_back(h->size);
      } else {
        error("block " + hex(p + 16) + ": bad magic");
        return;
      }
      p += h->size;
    }
    if (p != heap.top()) error("heap walk ends at " + hex(p) + ", top " + hex(heap.top()));
  }

  // The free lists hold every free block once, each on its size's list; the
  // heap's counters agree with the walk.
  void check_free_lists_and_stats() {
    std::uint64_t listed = 0;
    heap.walk_free([&](std::uint32_t size, Ptr b) {
      auto it = std::lower_bound(free_blocks.begin(), free_blocks.end(), b);
      if (it == free_blocks.end() || *it != b)
        error("free list " + std::to_string(size) + ": " + hex(b + 16) + " is not a free block");
      else if (const std::uint32_t found = free_sizes[it - free_blocks.begin()]; found != size)
        error("free list " + std::to_string(size) + ": " + hex(b + 16) + " has size " +
              std::to_string(found));
      // More entries than free blocks: a block listed twice, or a cycle.
      return ++listed <= free_blocks.size() && res.errors.empty();
    });
    // A free block may be on no list (Heap::unlisted_free), never on two.
    if (res.errors.empty() &&
        (listed > free_blocks.size() || free_blocks.size() - listed > heap.unlisted_free()))
      error("free lists hold " + std::to_string(listed) + " blocks, the heap " +
            std::to_string(free_blocks.size()));
    const HeapStats& s = heap.stats();
    if (s.live_blocks != res.live_blocks || s.bytes_live != bytes_live)
      error("heap stats: " + std::to_string(s.live_blocks) + " live blocks, " +
            std::to_string(s.bytes_live) + " bytes; walk: " + std::to_string(res.live_blocks) +
            ", " + std::to_string(bytes_live));
  }

  void count(Ptr c) {
    if (const std::ptrdiff_t i = find(c); i >= 0) ++refs[i];
  }

  void check_counts() {
    refs.assign(live.size(), 0);
    for (Ptr p : live) children(p, [&](Ptr c) { count(c); });
    struct Counter : RootVisitor {
      Verifier& v;
      explicit Counter(Verifier& verifier) : v(verifier) {}
      void thread(std::uint32_t, Ptr) override {}
      void frame(std::size_t, Ptr fp, std::uint32_t type, std::uint32_t size, Ptr) override {
        std::uint8_t* f = v.heap.cage().at(fp);
        for (std::uint32_t off : v.heap.type(type).ptrs)
          if (off + 4 <= size) v.count(ld<Ptr>(f + off));
      }
    } counter(*this);
    host.visit_roots(counter);
    for (std::size_t i = 0; i < live.size(); ++i) {
      const Ptr p = live[i];
      const std::uint64_t n = refs[i];
      BlockHeader* h = heap.header(p);
      bool module = heap.type(h->type).kind == TypeKind::Module;
      if (module ? h->ref < n : h->ref != n)
        error("block " + hex(p) + " (" + heap.type(h->type).name + "): count " +
              std::to_string(h->ref) + ", references " + std::to_string(n));
    }
  }

  void check_reachable(std::uint8_t sweeper) {
    std::vector<Ptr> work;
    seen.assign(live.size(), 0);
    // `from` names the holder, made only for an error (a string per block
    // reached would cost more than the walk).
    auto reach = [&](Ptr c, auto&& from) {
      if (c == H) return;
      const std::ptrdiff_t i = find(c);
      if (i < 0) {
        error(from() + ": pointer " + hex(c) + " is not a live block");
        return;
      }
      if (!seen[i]) {
        seen[i] = 1;
        work.push_back(c);
      }
    };
    // Each thread's module and its frames' pointer slots, named for errors.
    struct Reacher : RootVisitor {
      Heap& heap;
      decltype(reach)& r;
      std::string who;
      Reacher(Heap& h, decltype(reach)& f) : heap(h), r(f) {}
      void thread(std::uint32_t id, Ptr module) override {
        who = "thread " + std::to_string(id);
        r(module, [&] { return who + " module"; });
      }
      void frame(std::size_t i, Ptr fp, std::uint32_t type, std::uint32_t size, Ptr) override {
        std::uint8_t* f = heap.cage().at(fp);
        for (std::uint32_t off : heap.type(type).ptrs)
          if (off + 4 <= size)
            r(ld<Ptr>(f + off),
              [&] { return who + " frame " + std::to_string(i) + "+" + std::to_string(off); });
      }
    } reacher(heap, reach);
    host.visit_roots(reacher);
    while (!work.empty()) {
      Ptr p = work.back();
      work.pop_back();
      ++res.reachable_blocks;
      BlockHeader* h = heap.header(p);
      const TypeInfo& t = heap.type(h->type);
      auto from = [&] { return "block " + hex(p) + " (" + t.name + ")"; };
      if (h->colour == sweeper) error(from() + ": reachable but of the sweeper colour");
      std::uint8_t* d = heap.cage().at(p);
      if (t.kind == TypeKind::Array) {
        Ptr root = ld<Ptr>(d + 8);
        if (root != H && find(root) >= 0 &&
            heap.type(heap.header(root)->type).kind != TypeKind::Array)
          error(from() + ": slice root " + hex(root) + " is not an array");
        if (ld<std::uint32_t>(d + 4) >= heap.num_types()) error(from() + ": bad element type");
      } else if (t.kind == TypeKind::Module) {
        Ptr mp;
        if (!host.module_data(ld<std::uint32_t>(d + kModuleIndex), mp))
          error(from() + ": module instance gone");
      } else if (t.kind == TypeKind::Channel) {
        if (!host.channel_items(ld<std::uint32_t>(d), [](std::uint32_t, const std::uint8_t*) {}))
          error(from() + ": channel gone");
      }
      children(p, [&](Ptr c) { reach(c, from); });
    }
  }
};

}  // namespace

HeapVerifyResult verify_heap(Heap& heap, HeapHooks& host, std::uint8_t sweeper, bool check_counts) {
  Verifier v{heap, host};
  v.walk_blocks();
  if (!v.res.errors.empty()) return v.res;
  v.check_free_lists_and_stats();
  if (!v.res.errors.empty()) return v.res;
  if (check_counts) v.check_counts();
  v.check_reachable(sweeper);
  return v.res;
}

}  // namespace dis::vm
