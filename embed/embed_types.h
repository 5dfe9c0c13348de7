// How C++ values cross into Dis memory (the embedding layer, embed.h).
// Marshal<T> gives, for each supported C++ type T, its Limbo type in the
// canonical string form (DIS-FACTS 11: "i", "B", "r", "b", "s", "A"+elem,
// "L"+elem, "t(...)"), its size and alignment in a frame, the offsets of
// the pointers it holds, the element type of a Dis array or list of it (not
// for tuples), and the copies:
//   read(heap, at)         the C++ value of the Dis value at host address `at`
//   store(heap, at, v)     writes v there, releasing the pointer it replaces
// Supported: int32_t (int), int64_t/long long (big), double (real),
// uint8_t (byte), std::string (string; const char* one way, as an argument
// to call), std::vector<T> (array of T), std::list<T> (list of T),
// std::tuple<T...> (a tuple, not inside an array or list).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <list>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "vm.h"

namespace dis::embed {

template <class T, class = void>
struct Marshal {
  static_assert(sizeof(T) == 0,
                "no Limbo type for this C++ type (int32_t, int64_t, double, uint8_t, "
                "std::string, std::vector, std::list, std::tuple)");
};

// Scalars: stored as they are.
template <class T, char Code, std::uint32_t ElemType>
struct ScalarMarshal {
  static std::string code() { return std::string(1, Code); }
  static constexpr std::uint32_t size = sizeof(T), align = sizeof(T);
  static std::vector<std::uint32_t> pointers() { return {}; }
  static constexpr std::uint32_t elemtype = ElemType;
  static T read(vm::Heap&, const std::uint8_t* at) { return vm::ld<T>(at); }
  static void store(vm::Heap&, std::uint8_t* at, T v) { vm::st<T>(at, v); }
};

template <class T>
struct Marshal<T, std::enable_if_t<std::is_integral_v<T> && std::is_signed_v<T> && sizeof(T) == 4>>
    : ScalarMarshal<std::int32_t, 'i', vm::kTypeWord> {};
template <class T>
struct Marshal<T, std::enable_if_t<std::is_integral_v<T> && std::is_signed_v<T> && sizeof(T) == 8>>
    : ScalarMarshal<std::int64_t, 'B', vm::kTypeBig> {};
template <>
struct Marshal<std::uint8_t> : ScalarMarshal<std::uint8_t, 'b', vm::kTypeByte> {};
template <>
struct Marshal<double> : ScalarMarshal<double, 'r', vm::kTypeBig> {};

// Pointers: a Dis reference owned by the slot it is stored in.
struct PointerMarshal {
  static constexpr std::uint32_t size = 4, align = 4;
  static std::vector<std::uint32_t> pointers() { return {0}; }
  static constexpr std::uint32_t elemtype = vm::kTypePtr;
  // Moves the reference `owned` into the slot at `at`.
  static void put(vm::Heap& h, std::uint8_t* at, vm::Ptr owned) {
    const vm::Ptr old = vm::ld<vm::Ptr>(at);
    vm::st<vm::Ptr>(at, owned);
    h.decref(old);
  }
};

template <>
struct Marshal<std::string> : PointerMarshal {
  static std::string code() { return "s"; }
  static std::string read(vm::Heap& h, const std::uint8_t* at) {
    return vm::str_utf8(h, vm::ld<vm::Ptr>(at));
  }
  static void store(vm::Heap& h, std::uint8_t* at, const std::string& v) {
    put(h, at, vm::str_from_utf8(h, v));
  }
};

template <>
struct Marshal<const char*> : PointerMarshal {
  static std::string code() { return "s"; }
  static void store(vm::Heap& h, std::uint8_t* at, const char* v) {
    put(h, at, vm::str_from_utf8(h, v ? v : ""));
  }
};

template <class T>
struct Marshal<std::vector<T>> : PointerMarshal {
  using E = Marshal<T>;
  static std::string code() { return "A" + E::code(); }
  static std::vector<T> read(vm::Heap& h, const std::uint8_t* at) {
    const vm::ArrayRef a = vm::array_ref(h, vm::ld<vm::Ptr>(at));
    std::vector<T> out;
    out.reserve(static_cast<std::size_t>(a.len));
    for (std::int32_t i = 0; i < a.len; ++i) out.push_back(E::read(h, element(h, a.data, i)));
    return out;
  }
  static void store(vm::Heap& h, std::uint8_t* at, const std::vector<T>& v) {
    const vm::Ptr arr = vm::array_new(h, E::elemtype, static_cast<std::int32_t>(v.size()));
    put(h, at, arr);  // owned by the slot from here, so a failure below leaks nothing
    const vm::ArrayRef a = vm::array_ref(h, arr);
    for (std::size_t i = 0; i < v.size(); ++i)
      E::store(h, element(h, a.data, static_cast<std::int32_t>(i)), v[i]);
  }
  static std::uint8_t* element(vm::Heap& h, vm::Ptr data, std::int32_t i) {
    return h.cage().at(data + static_cast<std::uint32_t>(i) * E::size);
  }
};

template <class T>
struct Marshal<std::list<T>> : PointerMarshal {
  using E = Marshal<T>;
  static std::string code() { return "L" + E::code(); }
  static std::list<T> read(vm::Heap& h, const std::uint8_t* at) {
    std::list<T> out;
    for (vm::Ptr c = vm::ld<vm::Ptr>(at); c != vm::H; c = vm::ld<vm::Ptr>(h.cage().at(c)))
      out.push_back(E::read(h, h.cage().at(c + vm::kListHeader)));
    return out;
  }
  static void store(vm::Heap& h, std::uint8_t* at, const std::list<T>& v) {
    vm::Ptr l = vm::H;
    try {
      for (auto it = v.rbegin(); it != v.rend(); ++it) {
        // The element is built in a slot of its own, then copied into the cell.
        constexpr bool pointer = std::is_base_of_v<PointerMarshal, E>;
        alignas(8) std::uint8_t elem[8] = {};
        if constexpr (pointer) vm::st<vm::Ptr>(elem, vm::H);
        E::store(h, elem, *it);
        vm::Ptr cell;
        try {
          cell = vm::list_cons(h, E::elemtype, E::size, elem, l);
        } catch (...) {
          if constexpr (pointer) h.decref(vm::ld<vm::Ptr>(elem));
          throw;
        }
        if constexpr (pointer) h.decref(vm::ld<vm::Ptr>(elem));  // the cell took its own
        l = cell;
      }
    } catch (...) {
      h.decref(l);
      throw;
    }
    put(h, at, l);
  }
};

// A tuple: its elements laid out as Limbo lays out a tuple's, each aligned
// to its size, the whole to its largest alignment.
template <class... T>
struct Marshal<std::tuple<T...>> {
  static constexpr std::uint32_t align = std::max({1u, Marshal<T>::align...});
  static constexpr std::array<std::uint32_t, sizeof...(T) + 1> layout = [] {
    std::array<std::uint32_t, sizeof...(T) + 1> o{};
    std::uint32_t off = 0;
    std::size_t i = 0;
    ((off = (off + Marshal<T>::align - 1) / Marshal<T>::align * Marshal<T>::align, o[i++] = off,
      off += Marshal<T>::size),
     ...);
    o[i] = (off + align - 1) / align * align;  // the size
    return o;
  }();
  static constexpr std::uint32_t size = layout[sizeof...(T)];
  static std::string code() {
    std::string c = "t(";
    std::size_t i = 0;
    ((c += (i++ ? "," : "") + Marshal<T>::code()), ...);
    return c + ")";
  }
  static std::vector<std::uint32_t> pointers() {
    std::vector<std::uint32_t> out;
    std::size_t i = 0;
    auto add = [&](std::uint32_t base, std::vector<std::uint32_t> ps) {
      for (std::uint32_t p : ps) out.push_back(base + p);
    };
    (add(layout[i++], Marshal<T>::pointers()), ...);
    return out;
  }
  static std::tuple<T...> read(vm::Heap& h, const std::uint8_t* at) {
    return read(h, at, std::index_sequence_for<T...>{});
  }
  static void store(vm::Heap& h, std::uint8_t* at, const std::tuple<T...>& v) {
    store(h, at, v, std::index_sequence_for<T...>{});
  }

 private:
  template <std::size_t... I>
  static std::tuple<T...> read(vm::Heap& h, const std::uint8_t* at, std::index_sequence<I...>) {
    return std::tuple<T...>{Marshal<T>::read(h, at + layout[I])...};
  }
  template <std::size_t... I>
  static void store(vm::Heap& h, std::uint8_t* at, const std::tuple<T...>& v,
                    std::index_sequence<I...>) {
    (Marshal<T>::store(h, at + layout[I], std::get<I>(v)), ...);
  }
};

// The C++ type a parameter or argument of type A is marshalled as.
template <class A>
using Plain = std::conditional_t<std::is_convertible_v<A, const char*> &&
                                     !std::is_same_v<std::remove_cvref_t<A>, std::string>,
                                 const char*, std::remove_cvref_t<A>>;

// The Limbo result code of R ("n" for void).
template <class R>
std::string result_code() {
  if constexpr (std::is_void_v<R>)
    return "n";
  else
    return Marshal<R>::code();
}

}  // namespace dis::embed
