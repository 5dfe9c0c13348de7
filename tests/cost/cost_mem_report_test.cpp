// cost --mem's report from a synthetic run with fixed numbers: the text
// (line and function views), JSON, CSV and callgrind compared whole with
// golden files, and the header's check of the sites against the heap's own
// counters. The real runs' counts are checked in cost_mem_test.cpp; these
// fix every character of the output, which real runs cannot (the
// collector's times vary, sanitizer builds pad each block).
#include <gtest/gtest.h>

#include <string>

#include "cost_mem.h"
#include "cost_report.h"
#include "synthetic_report.h"

namespace dis::cost {
namespace {

using test::expect_golden;
using vm::MemKind;
using vm::MemSite;

MemSite site(MemKind k, std::uint64_t n, std::uint64_t size, std::uint64_t by_rc,
             std::uint64_t by_gc) {
  MemSite s;
  const auto i = static_cast<std::size_t>(k);
  s.allocs[i] = n;
  s.bytes[i] = n * size;
  s.freed_refcount = by_rc;
  s.freed_refcount_bytes = by_rc * size;
  s.freed_collector = by_gc;
  s.freed_collector_bytes = by_gc * size;
  s.live = n - by_rc - by_gc;
  s.live_bytes = s.live * size;
  return s;
}

// The synthetic BASE loop, counted, with what its allocating lines made:
// line 12's buffers (newa, pc 10), line 14's strings (pc 13), and the
// modules the runtime loaded; two collector cycles and a step after them.
CostData mem_data() {
  CostData d = test::make_data(Mode::Count);
  ModuleCost& mc = d.modules[0];
  mc.mem.resize(std::size(test::kCode));
  mc.mem[10] = site(MemKind::Array, 2000, 160, 1990, 8);
  mc.mem[13] = site(MemKind::String, 2000, 40, 1500, 500);
  MemoryData m;
  m.runtime = site(MemKind::Module, 2, 96, 0, 0);
  m.cycles = {{3, 120'000, 508, 21'280}, {5, 80'500, 0, 0}};
  m.unfinished = {2, 5'250, 0, 0};
  const MemSite t = [&] {
    MemSite s = m.runtime;
    for (const MemSite& x : mc.mem) s.merge(x);
    return s;
  }();
  m.heap_allocs = t.all_allocs();
  m.heap_bytes = t.all_bytes();
  m.heap_freed_refcount = t.freed_refcount;
  m.heap_freed_collector = t.freed_collector;
  d.memory = m;
  return d;
}

ReportOptions opts(View v, Format f = Format::Text) {
  ReportOptions o;
  o.view = v;
  o.format = f;
  return o;
}

TEST(CostMemReport, GoldenText) {
  const CostData d = mem_data();
  expect_golden("mem_line.txt", render_text(d, opts(View::Line)));
  expect_golden("mem_fn.txt", render_text(d, opts(View::Fn)));
}

TEST(CostMemReport, GoldenMachineFormats) {
  const CostData d = mem_data();
  expect_golden("mem.json", render_json(d, opts(View::Line, Format::Json)));
  expect_golden("mem.csv", render_csv(d, opts(View::Line, Format::Csv)));
  expect_golden("mem.callgrind", render_callgrind(d, opts(View::Line, Format::Callgrind)));
}

TEST(CostMemReport, HeaderSaysWhenTheHeapsCountersDiffer) {
  CostData d = mem_data();
  EXPECT_NE(mem_header_text(d).find("the heap's own counters agree"), std::string::npos);
  d.memory->heap_allocs += 1;  // an allocation no site was charged with
  EXPECT_NE(mem_header_text(d).find("the heap's own counters DIFFER"), std::string::npos)
      << mem_header_text(d);
}

}  // namespace
}  // namespace dis::cost
