// cost --mem (probe/mem_profile.h, cost/cost_mem.h): every heap object is
// charged to the instruction that allocated it, so an allocating opcode's
// allocations equal its executions, the sites add up to the heap's own
// counters, and each object is freed once (by reference counting or by the
// collector) or live at exit.
#include "cost_mem.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "cost_report.h"
#include "cost_run.h"
#include "json_schema_checker.h"
#include "tool_runner.h"

namespace dis::cost {
namespace {

using nlohmann::json;
using test::read_text;
using test::run_shell;
using test::tool;

RunOutcome mem_run(const std::string& program, const std::vector<std::string>& args = {},
                   vm::GcMode gc = vm::GcMode::Dis) {
  static std::ostringstream sink;
  RunSpec spec;
  spec.program = test::source(program);
  spec.args = {spec.program};
  spec.args.insert(spec.args.end(), args.begin(), args.end());
  spec.vm.out = &sink;
  spec.vm.gc = gc;
  spec.mode = vm::ProbeMode::Count;
  spec.memory = true;
  return run_costed(load_program(spec.program), spec);
}

// Opcodes that allocate exactly one heap object per execution.
bool allocates_once(Op op) {
  static const std::set<std::string> kOps = {
      "new",    "newz",  "newa",  "newaz", "mnewz", "newcb", "newcw", "newcf",  "newcp", "newcm",
      "newcmp", "newcl", "consb", "consw", "consp", "consf", "consm", "consmp", "consl"};
  return kOps.count(std::string(op_name(op))) > 0;
}

// What every memory profile must satisfy; returns the allocating
// instructions' executions.
std::uint64_t expect_consistent(const RunOutcome& o) {
  const CostData& d = o.data;
  EXPECT_EQ(o.status, 0) << o.message;
  EXPECT_TRUE(d.memory.has_value());
  if (!d.memory) return 0;
  std::uint64_t allocating = 0;
  for (const ModuleCost& mc : d.modules) {
    if (mc.mem.empty()) continue;
    for (std::size_t pc = 0; pc < pc_count(mc); ++pc) {
      const vm::MemSite& s = mc.mem[pc];
      // Every object freed once, or live.
      EXPECT_EQ(s.all_allocs(), s.freed_refcount + s.freed_collector + s.live)
          << mc.name << " pc " << pc;
      EXPECT_EQ(s.all_bytes(), s.freed_refcount_bytes + s.freed_collector_bytes + s.live_bytes);
      const Op op = mc.module->code[pc].op;
      if (allocates_once(op)) {
        EXPECT_EQ(s.all_allocs(), mc.pcs[pc].count)
            << mc.name << " pc " << pc << " " << op_name(op);
        allocating += mc.pcs[pc].count;
      } else if (s.all_allocs() > 0) {
        // Others allocate only where they build strings, arrays, or call
        // builtins and load modules that do.
        const std::string n(op_name(op));
        EXPECT_TRUE(n == "mcall" || n == "load" || n == "addc" || n == "insc" || n == "slicec" ||
                    n == "slicea" || n.rfind("cvt", 0) == 0 || n == "spawn" || n == "mspawn")
            << n << " allocated";
      }
    }
  }
  // The sites add up to the heap's own counters.
  const vm::MemSite all = mem_total(d);
  EXPECT_EQ(all.all_allocs(), d.memory->heap_allocs);
  EXPECT_EQ(all.all_bytes(), d.memory->heap_bytes);
  EXPECT_EQ(all.freed_refcount, d.memory->heap_freed_refcount);
  EXPECT_EQ(all.freed_collector, d.memory->heap_freed_collector);
  EXPECT_EQ(o.gc.bytes_allocated, d.memory->heap_bytes);  // the VM's statistics, too
  return allocating;
}

TEST(CostMem, BintreeAllocatesOncePerAllocatingInstruction) {
  const RunOutcome o = mem_run("samples/bintree.b");
  const std::uint64_t allocating = expect_consistent(o);
  // Its trees: 2^(d+1) - 1 nodes per tree of depth d (samples/bintree.b).
  EXPECT_GT(allocating, 10000u);
  const vm::MemSite all = mem_total(o.data);
  EXPECT_EQ(all.allocs[static_cast<std::size_t>(vm::MemKind::Adt)] >= allocating - 1, true);
  EXPECT_EQ(all.live, 0u);  // every tree released by the end
}

TEST(CostMem, GcSamplesAllocateOncePerAllocatingInstruction) {
  EXPECT_GT(expect_consistent(mem_run("samples/gc/binarytrees.b", {"8"})), 1000u);
  EXPECT_GT(expect_consistent(mem_run("samples/gc/bigheap.b", {"1"})), 1000u);
}

// (samples/bintree.b ends too soon for this: whether the collector's last
// pass reaches its first garbage before the end depends on its pace.)
TEST(CostMem, MarkSweepFreesEverythingByTheCollector) {
  const RunOutcome o = mem_run("samples/gc/binarytrees.b", {"8"}, vm::GcMode::MarkSweep);
  expect_consistent(o);
  const vm::MemSite all = mem_total(o.data);
  EXPECT_EQ(all.freed_refcount, 0u);
  EXPECT_GT(all.freed_collector, 0u);
  std::uint64_t freed = 0;
  for (const vm::GcCycle& c : o.data.memory->cycles) freed += c.freed;
  EXPECT_EQ(freed + o.data.memory->unfinished.freed, all.freed_collector);
  EXPECT_GT(o.data.memory->cycles.size(), 0u);
}

// The sites of the fixture's lines, by the source text they hold.
vm::MemSite line_holding(const CostData& d, const std::string& text) {
  for (const ModuleCost& mc : d.modules)
    for (const LineCost& lc : lines_of(mc))
      if (lc.file >= 0 && detail::source_line(mc, lc.file, lc.line).find(text) != std::string::npos)
        return mem_of(mc, lc.pcs);
  ADD_FAILURE() << "no line holds " << text;
  return {};
}

std::uint64_t kind(const vm::MemSite& s, vm::MemKind k) {
  return s.allocs[static_cast<std::size_t>(k)];
}

TEST(CostMem, EachKindIsChargedToItsLine) {
  const RunOutcome o = mem_run("tests/cost/fixtures/kinds.b");
  expect_consistent(o);
  const CostData& d = o.data;
  using K = vm::MemKind;
  EXPECT_EQ(kind(line_holding(d, "p := ref P(i, i)"), K::Adt), 50u);
  const vm::MemSite a = line_holding(d, "a := array[i + 1] of int");
  EXPECT_EQ(kind(a, K::Array), 50u);
  EXPECT_EQ(a.all_allocs(), 50u);
  EXPECT_EQ(kind(line_holding(d, "l := i :: nil"), K::List), 50u);
  EXPECT_GE(kind(line_holding(d, "s := sys->sprint"), K::String), 50u);
  EXPECT_EQ(kind(line_holding(d, "c := chan of int"), K::Channel), 50u);
  // Five of the adts are kept in a list until the end of init.
  EXPECT_EQ(line_holding(d, "p := ref P(i, i)").freed_refcount, 50u);
  // A cycle is never freed by its counts: the collector or the end.
  for (const char* text : {"x := ref Node", "y := ref Node(x)"}) {
    const vm::MemSite s = line_holding(d, text);
    EXPECT_EQ(s.all_allocs(), 50u) << text;
    EXPECT_EQ(s.freed_refcount, 0u) << text;
    EXPECT_EQ(s.freed_collector + s.live, 50u) << text;
  }
}

TEST(CostMem, MemCountsAreTheCountViewsCounts) {
  static std::ostringstream sink;
  RunSpec spec;
  spec.program = test::source("samples/bintree.b");
  spec.args = {spec.program};
  spec.vm.out = &sink;
  spec.mode = vm::ProbeMode::Count;
  const Module m = load_program(spec.program);
  const RunOutcome count = run_costed(m, spec);
  spec.memory = true;
  const RunOutcome mem = run_costed(m, spec);
  ASSERT_EQ(count.data.modules.size(), mem.data.modules.size());
  for (std::size_t i = 0; i < count.data.modules.size(); ++i)
    for (std::size_t pc = 0; pc < count.data.modules[i].pcs.size(); ++pc)
      EXPECT_EQ(count.data.modules[i].pcs[pc].count, mem.data.modules[i].pcs[pc].count)
          << count.data.modules[i].name << " pc " << pc;
  EXPECT_FALSE(count.data.memory.has_value());
}

std::string tmp_file(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("cost_mem_test_" + std::to_string(getpid()) + "_" + name))
      .string();
}

TEST(CostMem, EveryFormatCarriesTheProfile) {
  const std::string prog = test::source("samples/bintree.b");
  auto report = [&](const std::string& args, const std::string& name) {
    const std::string out = tmp_file(name);
    const auto r = run_shell(tool("cost") + " --mem " + args + " --out " + out + " " + prog +
                             " >/dev/null 2>&1");
    EXPECT_EQ(r.status, 0) << args;
    return read_text(out);
  };
  const std::string text = report("", "t.txt");
  EXPECT_NE(text.find("cost: " + prog + " (counts, memory)"), std::string::npos);
  EXPECT_NE(text.find("the heap's own counters agree"), std::string::npos);
  // An adt's block size is the heap's (larger in sanitizer builds, which
  // guard each block): read it from the report's own totals line.
  std::smatch totals;
  ASSERT_TRUE(std::regex_search(text, totals, std::regex(R"(adt (\d+) \((\d+) B\))"))) << text;
  const std::uint64_t adt_bytes = std::stoull(totals[2]) / std::stoull(totals[1]);
  const std::string line_bytes = std::to_string(5120 * adt_bytes);
  EXPECT_NE(text.find("+ mem 5120 allocs " + line_bytes + " B: adt 5120"), std::string::npos)
      << text;
  EXPECT_NE(text.find("-- memory per function"), std::string::npos);
  EXPECT_NE(text.find("collector: "), std::string::npos);

  const json j = json::parse(report("--format json", "r.json"));
  test::SchemaChecker checker(json::parse(read_text(test::source("cost/cost_schema.json"))));
  const std::vector<std::string> errors = checker.check(j);
  EXPECT_TRUE(errors.empty()) << errors.front();
  EXPECT_EQ(j["memory"]["total"]["allocs"], j["memory"]["heap"]["allocs"]);
  bool line_mem = false, fn_mem = false;
  for (const json& m : j["modules"]) {
    for (const json& l : m["lines"]) line_mem = line_mem || l.contains("mem");
    for (const json& f : m["functions"]) fn_mem = fn_mem || f.contains("mem");
  }
  EXPECT_TRUE(line_mem);
  EXPECT_TRUE(fn_mem);

  const std::string csv = report("--format csv", "r.csv");
  EXPECT_EQ(
      csv.rfind("# outcome: ok\nkind,module,file,line,pc,name,count,allocs,bytes,adt_allocs", 0),
      0u);
  EXPECT_NE(csv.find("\nruntime,,,,,<runtime>,0,"), std::string::npos);
  const std::string fn_csv = report("--format csv --by fn", "f.csv");
  EXPECT_NE(fn_csv.find(",inclusive_instructions,allocs,bytes,"), std::string::npos);

  const std::string cg = report("--format callgrind", "r.cg");
  EXPECT_NE(cg.find("\nevents: Instr Alloc Bytes FreedRc FreedGc Live\n"), std::string::npos);
  // `return ref Tree(nil, nil)`: new, the two nil fields stored, the move
  // to the result, the nil reset of the temporary (as Inferno's compiler
  // does it), ret.
  EXPECT_NE(cg.find("\n21 30720 5120 " + line_bytes + " " + line_bytes + " 0 0\n"),
            std::string::npos)
      << cg;
}

TEST(CostMem, TimedOptionsAreRefused) {
  const std::string prog = test::source("samples/bintree.b");
  EXPECT_EQ(run_shell(tool("cost") + " --mem --sample 10 " + prog + " >/dev/null 2>&1").status, 2);
  EXPECT_EQ(run_shell(tool("cost") + " --mem --accuracy " + prog + " >/dev/null 2>&1").status, 2);
}

}  // namespace
}  // namespace dis::cost
