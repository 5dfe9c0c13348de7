// type_sig against every signature DIS-FACTS section 11 lists (examples,
// the builtin tables with their shorthands expanded, the Draw->Context init)
// and the ext/link signatures of the Limbo corpus listings, whose canonical
// strings are written here by hand from the .b/.m declarations.
#include "signature.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "shared_corpus.h"

namespace {

// The table's textual shorthands.
std::string expand(std::string s) {
  const std::string fd = "a(fd:i)";
  const std::string dir =
      "a(name:s,uid:s,gid:s,muid:s,qid:a(path:B,vers:i,qtype:i),mode:i,atime:i,mtime:i,"
      "length:B,dtype:i,dev:i)";
  for (auto [key, value] : {std::pair{std::string("<FD>"), fd}, {std::string("<Dir>"), dir}}) {
    for (std::size_t at; (at = s.find(key)) != std::string::npos;) s.replace(at, key.size(), value);
  }
  return s;
}

struct Row {
  const char* names;
  std::uint32_t sig;
  const char* canonical;
};

void check_rows(const std::vector<Row>& rows) {
  for (const Row& r : rows) {
    EXPECT_EQ(dis::type_sig(expand(r.canonical)), r.sig) << r.names << " " << r.canonical;
  }
}

const std::string kDrawInit =
    "f(Ra(display:Ra(image:Ra(r:a(min:a(x:i,y:i),max:@5),clipr:@4,depth:i,chans:a(desc:i),"
    "repl:i,display:R@2,screen:Ra(id:i,image:R@3,fill:R@3,display:R@2),iname:s),white:R@3,"
    "black:R@3,opaque:R@3,transparent:R@3),screen:R@7,wm:Ct(s,Ct(s,Ra(kbd:Ci,ptr:CRa(buttons:i,"
    "xy:@5,msec:i),ctl:Cs,wctl:Cs,images:CR@3,connfd:Ra(fd:i),ctxt:R@1)))),Ls)n";

}  // namespace

TEST(TypeSig, WorkedExampleDigestFold) { EXPECT_EQ(dis::type_sig("f*(s)i"), 0xac849033u); }

TEST(TypeSig, DistinctStringsGiveDistinctSigs) {
  EXPECT_NE(dis::type_sig("f(s)i"), dis::type_sig("f(s)s"));
  EXPECT_NE(dis::type_sig(""), dis::type_sig("n"));
}

TEST(TypeSig, ExamplesTable) {
  check_rows({
      {"Sys print", 0xac849033, "f*(s)i"},
      {"Sys mount", 0x74c17b3a, "f(Ra(fd:i),R@1,s,i,s)i"},
      {"Mathlib init", 0x1273096a, "f(s)n"},
      {"Mathlib gcd", 0x6584767b, "f(i,i)i"},
      {"Frac.add", 0x7a006bb9, "f(Sa(num:i,den:i),@1)@1"},
      {"Frac.mk", 0xa071ebe, "f(i,i)a(num:i,den:i)"},
      {"Frac.text", 0x922af9, "f(Sa(num:i,den:i))s"},
      {"Lists map", 0xf1b8cf67, "f()(Rf(P)P,LP)LP"},
      {"Attributes.new", 0xd3d50165, "f(Lt(s,s))Ra(attrs:L@1)"},
      {"Keyring sktopk", 0x6f74c7c9, "f(Ra(sa:Ra(name:s),owner:s))R@1"},
      {"Sexp.text", 0x8dcb0657,
       "f(SRa(,String=>p(s:s,hint:s)@1,Binary=>p(data:Ab,hint:s)@1,List=>p(l:yLR@1)@1))s"},
      {"JSON jvfalse", 0xa1e2d47b,
       "f()Rp()a(,Object=>p(mem:yLt(s,R@2))@2,Array=>p(a:yAR@2)@2,String=>p(s:s)@2,Int=>p("
       "value:B)@2,Real=>p(value:r)@2,True=>@1,False=>@1,Null=>@1)"},
      {"Convcs getstob", 0xe3c19c0, "f(s)t(m{init:f(s)s;stob:f(s,s)t(s,Ab);},s)"},
      {"IP .mp", 0x60b373dc,
       "allbits:a(a:Ab);noaddr:@1;selfv4:@1;selfv6:@1;v4allrouter:@1;v4allsys:@1;v4bcast:@1;"
       "v4noaddr:@1;v4prefix:Ab;"},
  });
}

TEST(TypeSig, DrawContextCommandInit) { EXPECT_EQ(dis::type_sig(kDrawInit), 0x4244b354u); }

TEST(TypeSig, SysBuiltinTable) {
  check_rows({
      {"announce", 0xb7c4ac0, "f(s)t(i,a(dfd:R<FD>,cfd:R@3,dir:s))"},
      {"aprint", 0x77442d46, "f*(s)Ab"},
      {"bind", 0x66326d91, "f(s,s,i)i"},
      {"byte2char", 0x3d6094f9, "f(Ab,i)t(i,i,i)"},
      {"char2byte", 0x2ba5ab41, "f(i,Ab,i)i"},
      {"chdir remove werrstr", 0xc6935858, "f(s)i"},
      {"create", 0x54db77d9, "f(s,i,i)R<FD>"},
      {"dial", 0x29e90174, "f(s,s)t(i,a(dfd:R<FD>,cfd:R@3,dir:s))"},
      {"dirread", 0x72210d71, "f(R<FD>)t(i,A<Dir>)"},
      {"dup", 0x6584767b, "f(i,i)i"},
      {"export", 0x6fc6dc03, "f(R<FD>,s,i)i"},
      {"fauth", 0x20ccc34b, "f(R<FD>,s)R@1"},
      {"fd2path", 0x749c6042, "f(R<FD>)s"},
      {"fildes", 0x1478f993, "f(i)R<FD>"},
      {"file2chan", 0x9f34d686, "f(s,s)Ra(read:Ct(i,i,i,Ct(Ab,s)),write:Ct(i,Ab,i,Ct(i,s)))"},
      {"fprint", 0xf46486c8, "f*(R<FD>,s)i"},
      {"fstat", 0xda4499c2, "f(R<FD>)t(i,<Dir>)"},
      {"fversion", 0xfe9c0a06, "f(R<FD>,i,s)t(i,s)"},
      {"fwstat", 0x50a6c7e0, "f(R<FD>,<Dir>)i"},
      {"iounit", 0x5583b730, "f(R<FD>)i"},
      {"listen", 0xb97416e0, "f(a(dfd:R<FD>,cfd:R@2,dir:s))t(i,@1)"},
      {"millisec", 0x616977e8, "f()i"},
      {"mount", 0x74c17b3a, "f(R<FD>,R@1,s,i,s)i"},
      {"open", 0x8f477f99, "f(s,i)R<FD>"},
      {"pctl", 0x5df27fb, "f(i,Li)i"},
      {"pipe", 0x1f2c52ea, "f(AR<FD>)i"},
      {"pread pwrite", 0x9d8aac6, "f(R<FD>,Ab,i,B)i"},
      {"print", 0xac849033, "f*(s)i"},
      {"read readn write", 0x7cfef557, "f(R<FD>,Ab,i)i"},
      {"seek", 0xaeccaddb, "f(R<FD>,B,i)B"},
      {"sleep", 0xe67bf126, "f(i)i"},
      {"sprint", 0x4c0624b6, "f*(s)s"},
      {"stat", 0x319328dd, "f(s)t(i,<Dir>)"},
      {"stream", 0xb9e8f9ea, "f(R<FD>,R@1,i)i"},
      {"tokenize", 0x57338f20, "f(s,s)t(i,Ls)"},
      {"unmount", 0x21e337e3, "f(s,s)i"},
      {"utfbytes", 0x1d4a1f4, "f(Ab,i)i"},
      {"wstat", 0x56b02096, "f(s,<Dir>)i"},
  });
}

TEST(TypeSig, BenchBuiltinTable) {
  check_rows({
      {"disablegc enablegc reset", 0x9cd71c5e, "f()n"},
      {"microsec", 0x8bc818ff, "f()B"},
      {"read", 0x7cfef557, "f(R<FD>,Ab,i)i"},
  });
}

TEST(TypeSig, MathBuiltinTable) {
  check_rows({
      {"acos ... y1", 0xa1d1fe48, "f(r)r"},
      {"atan2 ... remainder", 0xf293f6cf, "f(r,r)r"},
      {"FPcontrol FPstatus", 0x6584767b, "f(i,i)i"},
      {"getFPcontrol getFPstatus", 0x616977e8, "f()i"},
      {"bits32real pow10", 0x40a58596, "f(i)r"},
      {"bits64real", 0x5463c72c, "f(B)r"},
      {"finite ilogb isnan realbits32", 0x7b2e5f52, "f(r)i"},
      {"realbits64", 0x9589d476, "f(r)B"},
      {"jn yn", 0xb61ffc5b, "f(i,r)r"},
      {"scalbn", 0x64fa84ba, "f(r,i)r"},
      {"lgamma modf", 0x6e97c646, "f(r)t(i,r)"},
      {"dot", 0xfeca4db6, "f(Ar,Ar)r"},
      {"iamax", 0xa5fc2e4d, "f(Ar)i"},
      {"norm1 norm2", 0x1629207e, "f(Ar)r"},
      {"sort", 0xfc7c7b8, "f(Ar,Ai)n"},
      {"import_int export_int", 0x3f1d94ee, "f(Ab,Ai)n"},
      {"import_real ... export_real32", 0xd1fb0c8c, "f(Ab,Ar)n"},
      {"gemm", 0x53b8cd34, "f(i,i,i,i,i,r,Ar,i,Ar,i,r,Ar,i)n"},
  });
}

// Canonical strings derived by hand from the corpus's declarations; the
// sigs are read from the .s listings Inferno's compiler produced, so a
// mismatch shows either a hashing or a derivation error.
TEST(TypeSig, CorpusListingSigs) {
  DIS_NEEDS_SHARED();
  const std::map<std::string, std::string> canonical = {
      {"print", "f*(s)i"},                      // Sys->print: fn(s: string, *): int
      {"sprint", "f*(s)s"},                     // Sys->sprint: fn(s: string, *): string
      {"tokenize", "f(s,s)t(i,Ls)"},            // fn(s, delim: string): (int, list of string)
      {"Frac.add", "f(Sa(num:i,den:i),@1)@1"},  // fn(a: self Frac, b: Frac): Frac
      {"Frac.mk", "f(i,i)a(num:i,den:i)"},      // fn(n, d: int): Frac
      {"Frac.text", "f(Sa(num:i,den:i))s"},     // fn(a: self Frac): string
      {"gcd", "f(i,i)i"},                       // fn(a, b: int): int
      {"next", "f()i"},                         // fn(): int
      {"checked", "f(i)i"},                     // fn(n: int): int
      {"name", "f()s"},                         // fn(): string
  };
  const std::string draw_init =
      kDrawInit;  // init: fn(ctxt: ref Draw->Context, argv: list of string)
  const std::string mathlib_init = "f(s)n";  // Mathlib init: fn(tag: string)

  const char* listings[] = {"adts/adts.s",
                            "arrays/arrays.s",
                            "bigreal/bigreal.s",
                            "channels/channels.s",
                            "control/control.s",
                            "convert/convert.s",
                            "err_bounds/err_bounds.s",
                            "err_divzero/err_divzero.s",
                            "err_nil/err_nil.s",
                            "err_raise/err_raise.s",
                            "exceptions/exceptions.s",
                            "formats/formats.s",
                            "intarith/intarith.s",
                            "lists/lists.s",
                            "modload/mathlib.s",
                            "modload/modload.s",
                            "pickadt/pickadt.s",
                            "recursion/recursion.s",
                            "strings/strings.s"};
  const std::regex entry(R"re(^\s*(ext|link)\s+\S+,(0x[0-9a-f]+),"([^"]+)")re");
  std::set<std::string> seen;
  int checked = 0;
  for (const char* rel : listings) {
    const std::string path = std::string(DIS_SHARED_DIR) + "/testdata/limbo/" + rel;
    std::ifstream in(path);
    ASSERT_TRUE(in) << path;
    std::string line;
    while (std::getline(in, line)) {
      std::smatch m;
      if (!std::regex_search(line, m, entry)) continue;
      const std::uint32_t want = static_cast<std::uint32_t>(std::stoul(m[2], nullptr, 16));
      const std::string name = m[3];
      std::string canon;
      if (name == "init") {
        // Every command exports init(ref Draw->Context, list of string); the
        // only init imported (ext) or defined by a non-command is Mathlib's.
        const bool mathlib = m[1] == "ext" || std::string(rel) == "modload/mathlib.s";
        canon = mathlib ? mathlib_init : draw_init;
      } else {
        auto it = canonical.find(name);
        ASSERT_NE(it, canonical.end()) << "no hand-derived type for " << name << " in " << rel;
        canon = it->second;
      }
      EXPECT_EQ(dis::type_sig(canon), want) << rel << ": " << line;
      seen.insert(name + "/" + canon);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 58);       // DIS-FACTS: 58 ext/link lines in the corpus
  EXPECT_GE(seen.size(), 12u);  // distinct (name, type) pairs covered
}
