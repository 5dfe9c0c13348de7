// The cage: one reserved 4 GiB region (plus a guard) holding all Dis-visible
// memory. A Dis address is a 32-bit offset into it; nil (H) is all-ones.
// Pages are committed by the OS on first touch (MAP_NORESERVE). Because every
// offset is a uint32 and the guard covers the widest access past 4 GiB, no
// Dis address can reach host memory outside the region.
#pragma once

#include <cstdint>
#include <cstring>

namespace dis::vm {

using Ptr = std::uint32_t;
inline constexpr Ptr H = 0xFFFFFFFFu;

class Cage {
 public:
  static constexpr std::uint64_t kSize = 1ull << 32;
  static constexpr std::uint64_t kGuard = 1ull << 20;  // covers movm/array copies checked below

  Cage();
  ~Cage();
  Cage(const Cage&) = delete;
  Cage& operator=(const Cage&) = delete;

  std::uint8_t* base() const { return base_; }
  std::uint8_t* at(Ptr p) const { return base_ + p; }
  Ptr offset(const void* host) const {
    return static_cast<Ptr>(static_cast<const std::uint8_t*>(host) - base_);
  }
  // Returns the whole pages inside [p, p+n) to the OS (contents read back
  // as zero); gives how many bytes that was (page_span(p, n)).
  std::uint64_t release(Ptr p, std::uint64_t n);
  static std::uint64_t page_span(Ptr p, std::uint64_t n) {
    std::uint64_t lo = (std::uint64_t{p} + kPage - 1) & ~(kPage - 1);
    std::uint64_t hi = (std::uint64_t{p} + n) & ~(kPage - 1);
    return hi > lo ? hi - lo : 0;
  }
  static constexpr std::uint64_t kPage = 4096;

 private:
  std::uint8_t* base_ = nullptr;
};

// Unaligned-safe loads and stores on host addresses inside the cage.
template <class T>
inline T ld(const std::uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <class T>
inline void st(std::uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

}  // namespace dis::vm
