// Inferno's own commands (../shared/corpus/inferno), compiled by our limbo,
// print exactly what the reference modules Inferno's compiler wrote print
// on the same arguments, with Inferno's shipped libraries loaded from the
// corpus's dis/ tree.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "compiler.h"
#include "dis_file.h"
#include "vm.h"

namespace fs = std::filesystem;

namespace {

const fs::path kInferno = fs::path(DIS_SHARED_DIR) / "corpus" / "inferno";

struct Case {
  std::string name;  // appl/cmd/NAME.b, ref/cmd/NAME.dis
  std::vector<std::string> args;
};

std::string run(const dis::Module& m, const std::string& path, const Case& c) {
  std::ostringstream out, err;
  dis::vm::Options vo;
  vo.out = &out;
  vo.err = &err;
  vo.root = kInferno.string();
  dis::vm::VM vm(vo);
  std::vector<std::string> args{c.name};
  args.insert(args.end(), c.args.begin(), c.args.end());
  auto r = vm.run_module(m, path, args);
  return out.str() + "status " + std::to_string(r.status) + "\n" + err.str();
}

class InfernoRun : public ::testing::TestWithParam<Case> {};

TEST_P(InfernoRun, SameOutputAsReferenceModule) {
  if (!fs::exists(kInferno / "index.tsv")) GTEST_SKIP() << "../shared/corpus/inferno is absent";
  const Case& c = GetParam();
  fs::path src = kInferno / "appl" / "cmd" / (c.name + ".b");
  fs::path ref = kInferno / "ref" / "cmd" / (c.name + ".dis");
  dis::limbo::CompileOptions opts;
  opts.include_dirs.push_back((kInferno / "module").string());
  dis::Module ours = dis::limbo::compile_file(src.string(), opts);
  std::string want = run(dis::read_dis_file(ref.string()), ref.string(), c);
  EXPECT_NE(want.find("status 0"), std::string::npos) << want;
  EXPECT_EQ(run(ours, src.string(), c), want);
}

INSTANTIATE_TEST_SUITE_P(
    Commands, InfernoRun,
    ::testing::Values(Case{"cal", {"2", "2024"}}, Case{"cal", {"9", "1752"}}, Case{"cal", {"1999"}},
                      Case{"echo", {"-n", "a", "b c"}}, Case{"basename", {"-d", "/a/b/c.b"}},
                      Case{"basename", {"/x/y.b", ".b"}}, Case{"tokenize", {"a,b;;c", ",;"}}),
    [](const ::testing::TestParamInfo<Case>& p) { return p.param.name + std::to_string(p.index); });

// Module data of Inferno's own IP library (dis/lib/ip.dis, compiled by
// Inferno): our importer finds its variables at the offsets Inferno's
// compiler laid them out at, and the `.mp` signatures agree (else load fails).
TEST(InfernoModuleData, ReadsInfernoLibraryData) {
  if (!fs::exists(kInferno / "index.tsv")) GTEST_SKIP() << "../shared/corpus/inferno is absent";
  const std::string src = R"(implement Ipd;
include "sys.m";
	sys: Sys;
include "draw.m";
include "ip.m";
	ip: IP;
	IPaddr: import ip;
Ipd: module {
	init: fn(nil: ref Draw->Context, args: list of string);
};
init(nil: ref Draw->Context, nil: list of string)
{
	sys = load Sys Sys->PATH;
	ip = load IP IP->PATH;
	ip->init();
	sys->print("%s %s %s %d\n", ip->allbits.text(), ip->noaddr.text(), ip->v4bcast.text(),
		len ip->v4prefix);
	selfv4: import ip;
	sys->print("%d\n", selfv4.isv4());
}
)";
  dis::limbo::CompileOptions opts;
  opts.include_dirs.push_back((kInferno / "module").string());
  dis::Module m = dis::limbo::compile_source("ipd.b", src, opts);
  EXPECT_EQ(run(m, "ipd.dis", Case{"ipd", {}}),
            "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff :: 255.255.255.255 12\n1\nstatus 0\n");
}

}  // namespace
