// cost --mem: the memory profile in the report (probe/mem_profile.h says
// what is recorded). Per pc in ModuleCost::mem, per line and per function
// summed from it, the runtime's allocations and the collector's cycles in
// CostData::memory; every format carries it:
//   text      under each line that allocated: `+ mem N allocs B bytes (by
//             kind); freed: refcount B, collector B; live at exit B`, a
//             summary in the header (checked against the heap's own
//             counters) and a table per function after the listing;
//   JSON      "mem" in each line and function that allocated, "memory" at
//             the top (cost_schema.json);
//   CSV       the pc and function tables gain the memory columns
//             (kMemCsvHeader), and a row of kind "runtime";
//   callgrind events Alloc, Bytes, FreedRc, FreedGc, Live (bytes) beside
//             Instr, per line (exclusive: call arcs carry instructions only).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cost_data.h"

namespace dis::cost {

// What the pcs allocated, summed (an empty site when mc has no profile).
vm::MemSite mem_of(const ModuleCost& mc, const std::vector<std::int32_t>& pcs);
vm::MemSite mem_of_range(const ModuleCost& mc, std::int32_t from, std::int32_t to);
// Every site of the run: instructions of all modules, and the runtime.
vm::MemSite mem_total(const CostData& d);

// The header's lines (memory and collector), each ending in '\n'.
std::string mem_header_text(const CostData& d);
// `+ mem ...` for a line, "" when it allocated nothing.
std::string mem_line_text(const vm::MemSite& s);
// "-- memory per function" and the runtime's line, for the modules shown.
std::string mem_functions_text(const CostData& d, const std::string& only);

nlohmann::json mem_site_json(const vm::MemSite& s);
// The report's "memory" object.
nlohmann::json memory_json(const CostData& d);

// CSV: the memory columns' header (starting with a comma) and a site's
// fields (each starting with a comma).
extern const char* const kMemCsvHeader;
std::string mem_csv_fields(const vm::MemSite& s);

// Callgrind: the event names ("Alloc Bytes FreedRc FreedGc Live") and a
// site's figures, space-separated.
extern const char* const kMemEvents;
std::string mem_callgrind_cols(const vm::MemSite& s);

}  // namespace dis::cost
