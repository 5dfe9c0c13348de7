#include "cost_mem.h"

#include <fmt/format.h>

#include <algorithm>

#include "cost_report.h"
#include "duration_format.h"

namespace dis::cost {

namespace {

using vm::GcCycle;
using vm::kNumMemKinds;
using vm::MemKind;
using vm::MemSite;

const char* kind_name(std::size_t k) { return vm::mem_kind_name(static_cast<MemKind>(k)); }

// "adt 120260 (3848320 B), string 48 (2304 B)": the kinds allocated.
std::string kinds_text(const MemSite& s) {
  std::string out;
  for (std::size_t k = 0; k < kNumMemKinds; ++k)
    if (s.allocs[k] > 0)
      out += fmt::format("{}{} {} ({} B)", out.empty() ? "" : ", ", kind_name(k), s.allocs[k],
                         s.bytes[k]);
  return out.empty() ? "none" : out;
}

std::string freed_text(const MemSite& s) {
  return fmt::format(
      "freed by reference counting {} ({} B), by the collector {} ({} B); live at "
      "exit {} ({} B)",
      s.freed_refcount, s.freed_refcount_bytes, s.freed_collector, s.freed_collector_bytes, s.live,
      s.live_bytes);
}

struct CycleStats {
  std::uint64_t steps = 0, ns = 0, min_ns = 0, max_ns = 0;
};

CycleStats cycle_stats(const std::vector<GcCycle>& cycles) {
  CycleStats c;
  for (std::size_t i = 0; i < cycles.size(); ++i) {
    c.steps += cycles[i].steps;
    c.ns += cycles[i].ns;
    c.min_ns = i == 0 ? cycles[i].ns : std::min(c.min_ns, cycles[i].ns);
    c.max_ns = std::max(c.max_ns, cycles[i].ns);
  }
  return c;
}

std::string collector_text(const MemoryData& m) {
  const CycleStats c = cycle_stats(m.cycles);
  const auto n = static_cast<double>(m.cycles.size());
  std::string s;
  if (m.cycles.empty()) {
    s = "collector: no cycle completed";
  } else {
    std::uint64_t freed = 0, freed_bytes = 0;
    for (const GcCycle& g : m.cycles) {
      freed += g.freed;
      freed_bytes += g.freed_bytes;
    }
    s = fmt::format(
        "collector: {} cycles in {} steps, {}: {} per cycle (min {}, max {}), {:.1f} steps and "
        "{:.1f} blocks ({:.0f} B) freed per cycle",
        m.cycles.size(), c.steps, format_duration_ns(static_cast<double>(c.ns)),
        format_duration_ns(static_cast<double>(c.ns) / n),
        format_duration_ns(static_cast<double>(c.min_ns)),
        format_duration_ns(static_cast<double>(c.max_ns)), static_cast<double>(c.steps) / n,
        static_cast<double>(freed) / n, static_cast<double>(freed_bytes) / n);
  }
  if (m.unfinished.steps > 0)
    s += fmt::format("; {} steps ({}) after the last cycle ended", m.unfinished.steps,
                     format_duration_ns(static_cast<double>(m.unfinished.ns)));
  return s + "\n";
}

nlohmann::json cycle_json(const GcCycle& g) {
  return {{"steps", g.steps}, {"ns", g.ns}, {"freed", g.freed}, {"freed_bytes", g.freed_bytes}};
}

}  // namespace

MemSite mem_of(const ModuleCost& mc, const std::vector<std::int32_t>& pcs) {
  MemSite s;
  for (std::int32_t pc : pcs)
    if (pc >= 0 && static_cast<std::size_t>(pc) < mc.mem.size())
      s.merge(mc.mem[static_cast<std::size_t>(pc)]);
  return s;
}

MemSite mem_of_range(const ModuleCost& mc, std::int32_t from, std::int32_t to) {
  MemSite s;
  for (std::int32_t pc = std::max(0, from); pc < to && static_cast<std::size_t>(pc) < mc.mem.size();
       ++pc)
    s.merge(mc.mem[static_cast<std::size_t>(pc)]);
  return s;
}

MemSite mem_total(const CostData& d) {
  MemSite s;
  for (const ModuleCost& mc : d.modules)
    for (const MemSite& x : mc.mem) s.merge(x);
  if (d.memory) s.merge(d.memory->runtime);
  return s;
}

std::string mem_header_text(const CostData& d) {
  if (!d.memory) return "";
  const MemoryData& m = *d.memory;
  const MemSite t = mem_total(d);
  std::string s = fmt::format("memory: {} allocations, {} B: {}; {}\n", t.all_allocs(),
                              t.all_bytes(), kinds_text(t), freed_text(t));
  const bool agree = t.all_allocs() == m.heap_allocs && t.all_bytes() == m.heap_bytes &&
                     t.freed_refcount == m.heap_freed_refcount &&
                     t.freed_collector == m.heap_freed_collector;
  s += fmt::format(
      "memory: the heap's own counters {}: {} allocations, {} B, {} freed by reference "
      "counting, {} by the collector; {} allocations ({} B) outside any instruction (the "
      "runtime)\n",
      agree ? "agree" : "DIFFER", m.heap_allocs, m.heap_bytes, m.heap_freed_refcount,
      m.heap_freed_collector, m.runtime.all_allocs(), m.runtime.all_bytes());
  return s + collector_text(m);
}

std::string mem_line_text(const MemSite& s) {
  if (s.empty() && s.live == 0) return "";
  return fmt::format("+ mem {} allocs {} B: {}; {}\n", s.all_allocs(), s.all_bytes(), kinds_text(s),
                     freed_text(s));
}

std::string mem_functions_text(const CostData& d, const std::string& only) {
  if (!d.memory) return "";
  std::string s =
      "\n-- memory per function (allocations, bytes; freed by reference counting "
      "and by the collector; live at exit; by kind)\n";
  for (std::size_t mi : shown_modules(d, only)) {
    const ModuleCost& mc = d.modules[mi];
    for (const FunctionCost& f : functions_of(mc)) {
      const MemSite m = mem_of_range(mc, f.pc, f.end_pc);
      if (m.empty()) continue;
      s +=
          fmt::format("{:<24} {:>10} {:>12} B  rc {:>12} B  gc {:>12} B  live {:>10} B  {}\n",
                      detail::function_display_name(mc, f.name), m.all_allocs(), m.all_bytes(),
                      m.freed_refcount_bytes, m.freed_collector_bytes, m.live_bytes, kinds_text(m));
    }
  }
  const MemSite& rt = d.memory->runtime;
  if (!rt.empty())
    s += fmt::format("{:<24} {:>10} {:>12} B  rc {:>12} B  gc {:>12} B  live {:>10} B  {}\n",
                     "<runtime>", rt.all_allocs(), rt.all_bytes(), rt.freed_refcount_bytes,
                     rt.freed_collector_bytes, rt.live_bytes, kinds_text(rt));
  return s;
}

nlohmann::json mem_site_json(const MemSite& s) {
  nlohmann::json kinds = nlohmann::json::object();
  for (std::size_t k = 0; k < kNumMemKinds; ++k)
    if (s.allocs[k] > 0) kinds[kind_name(k)] = {{"allocs", s.allocs[k]}, {"bytes", s.bytes[k]}};
  return {{"allocs", s.all_allocs()},
          {"bytes", s.all_bytes()},
          {"by_kind", std::move(kinds)},
          {"freed_refcount", s.freed_refcount},
          {"freed_refcount_bytes", s.freed_refcount_bytes},
          {"freed_collector", s.freed_collector},
          {"freed_collector_bytes", s.freed_collector_bytes},
          {"live", s.live},
          {"live_bytes", s.live_bytes}};
}

nlohmann::json memory_json(const CostData& d) {
  if (!d.memory) return nullptr;
  const MemoryData& m = *d.memory;
  const CycleStats c = cycle_stats(m.cycles);
  nlohmann::json cycles = nlohmann::json::array();
  for (const GcCycle& g : m.cycles) cycles.push_back(cycle_json(g));
  const auto n = static_cast<double>(m.cycles.size());
  return {{"total", mem_site_json(mem_total(d))},
          {"runtime", mem_site_json(m.runtime)},
          {"heap",
           {{"allocs", m.heap_allocs},
            {"bytes", m.heap_bytes},
            {"freed_refcount", m.heap_freed_refcount},
            {"freed_collector", m.heap_freed_collector}}},
          {"collector",
           {{"cycles", m.cycles.size()},
            {"steps", c.steps},
            {"ns", c.ns},
            {"ns_per_cycle", n > 0 ? static_cast<double>(c.ns) / n : 0.0},
            {"min_cycle_ns", c.min_ns},
            {"max_cycle_ns", c.max_ns},
            {"per_cycle", std::move(cycles)},
            {"unfinished", cycle_json(m.unfinished)}}}};
}

const char* const kMemCsvHeader =
    ",allocs,bytes,adt_allocs,adt_bytes,array_allocs,array_bytes,list_allocs,list_bytes,"
    "string_allocs,string_bytes,channel_allocs,channel_bytes,module_allocs,module_bytes,"
    "freed_refcount,freed_refcount_bytes,freed_collector,freed_collector_bytes,live,live_bytes";

std::string mem_csv_fields(const MemSite& s) {
  std::string out = fmt::format(",{},{}", s.all_allocs(), s.all_bytes());
  for (std::size_t k = 0; k < kNumMemKinds; ++k)
    out += fmt::format(",{},{}", s.allocs[k], s.bytes[k]);
  return out + fmt::format(",{},{},{},{},{},{}", s.freed_refcount, s.freed_refcount_bytes,
                           s.freed_collector, s.freed_collector_bytes, s.live, s.live_bytes);
}

const char* const kMemEvents = "Alloc Bytes FreedRc FreedGc Live";

std::string mem_callgrind_cols(const MemSite& s) {
  return fmt::format("{} {} {} {} {}", s.all_allocs(), s.all_bytes(), s.freed_refcount_bytes,
                     s.freed_collector_bytes, s.live_bytes);
}

}  // namespace dis::cost
