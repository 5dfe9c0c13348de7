#include "synthetic_report.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace dis::cost::test {
namespace {

const char* const kSource[] = {
    "implement Bench;",                       // 1
    "",                                       // 2
    "init()",                                 // 3
    "{",                                      // 4
    "\tt0 = tstamp();",                       // 5
    "\ts.add(t1-t0);",                        // 6
    "\tif(n < 0)",                            // 7
    "\t\treturn big 0;",                      // 8
    "}",                                      // 9
    "tstamp(): big",                          // 10
    "{",                                      // 11
    "\tbuf := array[128] of byte;",           // 12
    "\tn := sys->read(tsfd, buf, len buf);",  // 13
    "\treturn big string buf[0:n];",          // 14
    "}",                                      // 15
};

}  // namespace

const Code kCode[15] = {
    {Op::frame_, 5}, {Op::lea_, 5},     {Op::call_, 5},   {Op::mframe_, 6}, {Op::movp_, 6},
    {Op::subl_, 6},  {Op::mcall_, 6},   {Op::blew_, 7},   {Op::movw_, 8},   {Op::ret_, 9},
    {Op::newa_, 12}, {Op::mframe_, 13}, {Op::mcall_, 13}, {Op::cvtcl_, 14}, {Op::ret_, 14},
};

namespace {

std::shared_ptr<const Module> make_module() {
  auto m = std::make_shared<Module>();
  m->name = "Bench";
  m->source_files = {"bench.b"};
  for (const Code& c : kCode) {
    Instruction ins;
    ins.op = c.op;
    m->code.push_back(ins);
    SrcPos p;
    p.file = 0;
    p.line = c.line;
    p.end_line = c.line;
    m->positions.push_back(p);
  }
  m->links.push_back({"init", 0, 0, 0x1234});
  return m;
}

// Fixed records: each pc executed n times with a repeating pattern of ticks.
void fill(ProbeRecord& r, std::uint64_t n, std::vector<std::uint64_t> pattern) {
  for (std::uint64_t i = 0; i < n; ++i) r.add(pattern[i % pattern.size()]);
}

}  // namespace

CostData make_data(Mode mode) {
  CostData d;
  d.program = "bench.b";
  d.mode = mode;
  d.timer.tsc = true;
  d.timer.name = "tsc (rdtscp+lfence)";
  d.timer.ticks_per_ns = 2.0;
  d.timer.calibration_rounds = 7;
  d.timer.calibration_ms = 30;
  d.timer.calibration_spread = 0.00125;
  d.timer.read = {41.0, 42.0, 41, 42, 20.5, 21.0, 20000};
  d.base.policy = vm::BasePolicy::Min;
  d.base.ticks = 38;
  d.base.ns = 19;
  d.base.min_ticks = 38;
  d.base.median_ticks = 40;
  d.base.mean_ticks = 39;
  d.base.samples = 20000;
  d.wall_ns = 25e6;
  // 1 ms held both by a waiting mcall and by what ran meanwhile.
  d.overlap_ticks = 2e6;
  vm::Environment env;
  env.cpu_model = "Test CPU 3000";
  env.cpus = 2;
  env.tsc_hz = 2e9;
  env.timer = "tsc (rdtscp+lfence)";
  env.hypervisor = "KVM";
  env.kernel = "Linux 6.1.0 x86_64";
  env.build_type = "RelWithDebInfo";
  env.compiler = "GCC 12.2.0";
  env.version = "0.1.0";
  env.date = "2026-11-30T00:00:00Z";
  env.command_line = "cost -f bench.b -s Bench";
  d.environment = env;

  ModuleCost mc;
  mc.name = "Bench";
  mc.module = make_module();
  for (const char* line : kSource) {
    if (mc.source_text.empty()) mc.source_text.emplace_back();
    mc.source_text[0].push_back(line);
  }
  mc.pcs.resize(std::size(kCode));
  auto& p = mc.pcs;
  fill(p[0], 1000, {4800, 4600, 5000});   // frame: about 2.4 us
  fill(p[1], 1000, {2000, 1906, 55480});  // lea: 953 ns .. 27.74 us
  fill(p[2], 1000, {2900, 2580});
  fill(p[3], 1000, {7300, 6740, 49460});
  fill(p[4], 1000, {3980});
  fill(p[5], 1000, {4860, 4460, 9600});
  fill(p[6], 1000, {4220, 3900, 5020});
  fill(p[7], 1001, {3200, 3020, 68080});
  // pc 8 (line 8) never runs.
  fill(p[9], 1, {21040});
  fill(p[10], 2000, {13960, 10740, 161820});
  fill(p[11], 2000, {6100, 5180});
  // mcall of Sys->read: mostly about 180 us, one 8.61 ms outlier.
  for (int i = 0; i < 1999; ++i) p[12].add(i % 2 ? 179760 : 267620);
  p[12].add(17220000);
  fill(p[13], 2000, {32780, 31560, 90320});
  fill(p[14], 2000, {21040, 19580, 27940});
  mc.functions = {{"init", 0}, {"tstamp", 10}};
  // init: one activation containing every instruction (836.6M ticks);
  // tstamp: 2000 calls, half of them from pc 2; Sys->read's time is inside
  // the mcall at pc 12 (no Dis instructions of its own).
  mc.function_calls = {{0, 1, 836'600'000, 18'002}, {10, 2000, 748'700'000, 10'000}};
  mc.call_sites = {{2, 0, 10, "", 1000, 374'350'000, 5'000},
                   {12, -1, -1, "Sys->read", 2000, 445'020'000, 0}};
  d.modules.push_back(std::move(mc));

  NamedRecord mark{"gc.mark", {}}, sweep{"gc.sweep", {}}, sched{"scheduler", {}};
  fill(mark.rec, 12, {400000, 520000, 18000000});
  fill(sweep.rec, 12, {90000, 110000});
  fill(sched.rec, 30, {1500, 1700, 2100});
  d.buckets = {mark, sweep, sched};
  NamedRecord read{"Sys->read", {}};
  for (int i = 0; i < 1999; ++i) read.rec.add(i % 2 ? 170000 : 258000);
  read.rec.add(17200000);
  d.builtins = {read};
  for (int i = 0; i < 50; ++i) d.refcount_frees.add_count();
  d.refcount_frees.observe(300);
  d.refcount_frees.observe(500);
  return d;
}

std::string golden_path(const std::string& name) {
  return std::string(DIS_SOURCE_DIR) + "/tests/cost/golden/" + name;
}

void expect_golden(const std::string& name, const std::string& actual) {
  std::string path = golden_path(name);
  if (const char* u = std::getenv("DIS_UPDATE_GOLDEN"); u && *u == '1') {
    std::ofstream(path, std::ios::binary) << actual;
    return;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << "missing golden " << path;
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_EQ(actual, ss.str()) << "golden " << name;
}

}  // namespace dis::cost::test
