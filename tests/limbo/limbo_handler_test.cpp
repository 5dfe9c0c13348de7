// Handler tables: the type of a handler describes the pointer slots of the
// locals its block declares, so catching releases what the block held.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "compiler.h"
#include "diag.h"

namespace {

bool marks(const dis::TypeDesc& t, std::int32_t off) {
  auto word = static_cast<std::size_t>(off / 4);
  if (word / 8 >= t.map.size()) return false;
  return (t.map[word / 8] & (0x80 >> (word % 8))) != 0;
}

std::size_t marked(const dis::TypeDesc& t) {
  std::size_t n = 0;
  for (auto b : t.map)
    for (int i = 0; i < 8; ++i) n += (b >> i) & 1;
  return n;
}

TEST(LimboHandlers, TypeResetsTheBlocksPointerLocals) {
  const char* src =
      "implement H;\n"
      "include \"sys.m\";\n"
      "H: module { init: fn(nil: ref Draw->Context, nil: list of string); };\n"
      "Draw: module { Context: adt { x: int; }; };\n"
      "init(nil: ref Draw->Context, nil: list of string)\n"
      "{\n"
      "  outer := \"o\";\n"
      "  {\n"
      "    s := \"in\";\n"
      "    n := 3;\n"
      "    l := s :: nil;\n"
      "    raise \"x\";\n"
      "  } exception {\n"
      "  * => outer = nil;\n"
      "  }\n"
      "  {\n"
      "    k := 1;\n"
      "    raise \"y\";\n"
      "  } exception {\n"
      "  * => k := 2;\n"
      "  }\n"
      "}\n";
  auto cm = dis::limbo::compile_source_with_symbols("h.b", src, {});
  const dis::Module& m = cm.module;
  ASSERT_EQ(m.handlers.size(), 2u);
  std::map<std::string, std::int32_t> off;
  for (auto& f : cm.symbols.fns)
    for (auto& l : f.locals) off[l.name] = l.offset;
  ASSERT_TRUE(off.count("s") && off.count("l") && off.count("outer") && off.count("n"));
  const dis::Handler& h = m.handlers[0];
  ASSERT_GE(h.type, 0);
  const dis::TypeDesc& t = m.types.at(static_cast<std::size_t>(h.type));
  EXPECT_TRUE(marks(t, off["s"]));
  EXPECT_TRUE(marks(t, off["l"]));
  EXPECT_FALSE(marks(t, off["outer"]));  // declared outside the block
  EXPECT_FALSE(marks(t, h.offset));      // the exception slot is set, not reset
  EXPECT_GE(t.size, std::max(off["s"], off["l"]) + 4);
  // Nothing but the block's own pointer slots (its temporaries included) is reset.
  EXPECT_GE(marked(t), 2u);
  // A block without pointer locals needs no reset.
  EXPECT_EQ(m.handlers[1].type, -1);
}

// A .dis handler table keeps exception names NUL-terminated, so a label
// with a NUL in it (by escape or as a raw byte) cannot be written: the
// compiler refuses it at the label's line instead of producing a module
// the writer rejects.
TEST(LimboHandlers, LabelWithNulIsRefusedAtItsLine) {
  for (const std::string& label : {std::string("a\\0b"), std::string("a") + '\0' + "b"}) {
    const std::string src =
        "implement H;\n"
        "H: module { init: fn(); };\n"
        "init()\n"
        "{\n"
        "  {\n"
        "    raise \"x\";\n"
        "  } exception {\n"
        "  \"" +
        label +
        "\" => ;\n"
        "  }\n"
        "}\n";
    try {
      dis::limbo::compile_source_with_symbols("h.b", src, {});
      ADD_FAILURE() << "compiled a NUL in an exception label";
    } catch (const dis::InputError& e) {
      ASSERT_FALSE(e.diagnostics().empty());
      EXPECT_EQ(e.diagnostics()[0].line, 8);
      EXPECT_NE(std::string(e.what()).find("NUL"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
