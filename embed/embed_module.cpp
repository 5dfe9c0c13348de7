// Frame layouts and type strings of functions registered or called from
// C++ (embed_module.h): the rules Limbo's compiler lays out a frame by.
#include "embed_module.h"

namespace dis::embed {

FrameLayout frame_layout(const std::vector<Slot>& args) {
  FrameLayout l;
  std::uint32_t off = 32;  // after the frame header and its temporaries
  for (const Slot& s : args) {
    off = (off + s.align - 1) / s.align * s.align;
    l.offsets.push_back(off);
    if (s.pointer) {
      const std::uint32_t word = off / 4;
      if (l.map.size() <= word / 8) l.map.resize(word / 8 + 1, 0);
      l.map[word / 8] |= static_cast<std::uint8_t>(0x80u >> (word % 8));
    }
    off += s.size;
  }
  l.size = static_cast<std::int32_t>((off + 7) / 8 * 8);
  return l;
}

std::string function_type(const std::vector<std::string>& params, const std::string& result) {
  std::string t = "f(";
  for (std::size_t i = 0; i < params.size(); ++i) t += (i ? "," : "") + params[i];
  return t + ")" + result;
}

}  // namespace dis::embed
