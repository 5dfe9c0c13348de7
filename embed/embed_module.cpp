// Frame layouts and type strings of functions registered or called from
// C++ (embed_module.h): the rules Limbo's compiler lays out a frame by.
#include "embed_module.h"

namespace dis::embed {

std::vector<std::uint8_t> pointer_map(const std::vector<std::uint32_t>& offsets) {
  std::vector<std::uint8_t> map;
  for (std::uint32_t off : offsets) {
    const std::uint32_t word = off / 4;
    if (map.size() <= word / 8) map.resize(word / 8 + 1, 0);
    map[word / 8] |= static_cast<std::uint8_t>(0x80u >> (word % 8));
  }
  return map;
}

FrameLayout frame_layout(const std::vector<Slot>& args) {
  FrameLayout l;
  std::vector<std::uint32_t> pointers;
  std::uint32_t off = 32;  // after the frame header and its temporaries
  for (const Slot& s : args) {
    off = (off + s.align - 1) / s.align * s.align;
    l.offsets.push_back(off);
    for (std::uint32_t p : s.pointers) pointers.push_back(off + p);
    off += s.size;
  }
  l.size = static_cast<std::int32_t>((off + 7) / 8 * 8);
  l.map = pointer_map(pointers);
  return l;
}

std::string function_type(const std::vector<std::string>& params, const std::string& result) {
  std::string t = "f(";
  for (std::size_t i = 0; i < params.size(); ++i) t += (i ? "," : "") + params[i];
  return t + ")" + result;
}

}  // namespace dis::embed
