// A builtin module written in C++ (embed.h): each function registered from
// its C++ signature, the Limbo type, frame layout and pointer map derived.
//
//   dis::embed::Module m("$Greet");
//   m.def("greet", [](std::string s) { return "hello, " + s; });  // f(s)s
//   vm.add(m);
//
// A C++ exception the function throws becomes a Limbo exception with its
// what() as the text (Limbo's `exception e => ...` catches it).
#pragma once

#include <cstdint>
#include <exception>
#include <new>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "embed_types.h"
#include "vm.h"

namespace dis::embed {

// A function's frame: where each argument lies (from offset 32, each
// aligned to its size), the frame's size and its pointer map.
struct FrameLayout {
  std::vector<std::uint32_t> offsets;
  std::int32_t size = 32;
  std::vector<std::uint8_t> map;
};
struct Slot {
  std::uint32_t size, align;
  std::vector<std::uint32_t> pointers;  // offsets within the slot
};
FrameLayout frame_layout(const std::vector<Slot>& args);
// A Dis type map: one bit per 4-byte word, most significant first.
std::vector<std::uint8_t> pointer_map(const std::vector<std::uint32_t>& offsets);
template <class... A>
FrameLayout frame_layout_of() {
  return frame_layout({Slot{Marshal<A>::size, Marshal<A>::align, Marshal<A>::pointers()}...});
}
// The canonical function type "f(p1,p2)r".
std::string function_type(const std::vector<std::string>& params, const std::string& result);

// What a callable's parameters and result are.
template <class F>
struct Signature : Signature<decltype(&F::operator())> {};
template <class R, class... A>
struct Signature<R (*)(A...)> {
  using Result = R;
  using Args = std::tuple<std::remove_cvref_t<A>...>;
};
template <class C, class R, class... A>
struct Signature<R (C::*)(A...) const> : Signature<R (*)(A...)> {};
template <class C, class R, class... A>
struct Signature<R (C::*)(A...)> : Signature<R (*)(A...)> {};

class Module {
 public:
  explicit Module(std::string path) : path_(std::move(path)) {}  // "$Name"

  // Adds `name` calling f; f's parameters and result must have a Marshal.
  template <class F>
  Module& def(std::string name, F f) {
    using S = Signature<std::decay_t<F>>;
    add<typename S::Result>(std::move(name), std::move(f), typename S::Args{});
    return *this;
  }

  const std::string& path() const { return path_; }
  const std::vector<vm::NativeFunction>& functions() const { return fns_; }

 private:
  template <class R, class F, class... A>
  void add(std::string name, F f, std::tuple<A...>) {
    FrameLayout l = frame_layout_of<A...>();
    vm::NativeFunction nf;
    nf.name = std::move(name);
    nf.type = function_type({Marshal<A>::code()...}, result_code<R>());
    nf.frame_size = l.size;
    nf.map = l.map;
    nf.fn = [f = std::move(f), offs = std::move(l.offsets)](vm::Call& c) {
      invoke<R, A...>(f, c, offs, std::index_sequence_for<A...>{});
    };
    fns_.push_back(std::move(nf));
  }

  template <class R, class... A, class F, std::size_t... I>
  static void invoke(F& f, vm::Call& c, const std::vector<std::uint32_t>& offs,
                     std::index_sequence<I...>) {
    vm::Heap& h = c.heap();
    std::uint8_t* fp = c.frame();
    try {
      if constexpr (std::is_void_v<R>) {
        f(Marshal<A>::read(h, fp + offs[I])...);
      } else {
        R r = f(Marshal<A>::read(h, fp + offs[I])...);
        if (std::uint8_t* at = c.result()) Marshal<R>::store(h, at, r);
      }
    } catch (const vm::DisError&) {
      throw;
    } catch (const std::bad_alloc&) {
      throw;  // the thread gets the heap's exception
    } catch (const std::exception& e) {
      c.raise(e.what());
    } catch (...) {
      c.raise("unknown C++ exception");
    }
  }

  std::string path_;
  std::vector<vm::NativeFunction> fns_;
};

}  // namespace dis::embed
