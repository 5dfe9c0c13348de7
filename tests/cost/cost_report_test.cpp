// Cost reports from a synthetic CostData with fixed numbers: golden text
// (every view, time and counts), CSV, JSON and callgrind; units per value;
// the JSON validated against cost/cost_schema.json; structural checks.
//
// Regenerate goldens after an intended change: DIS_UPDATE_GOLDEN=1 test_cost
// (then read the diff).
#include "cost_report.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "json_schema_checker.h"
#include "synthetic_report.h"

namespace dis::cost {
namespace {

using nlohmann::json;
using test::expect_golden;
using test::kCode;
using test::make_data;

ReportOptions opts(View v, Format f = Format::Text, bool counts = false) {
  ReportOptions o;
  o.view = v;
  o.format = f;
  o.counts_only = counts;
  return o;
}

TEST(CostReport, UnitsChosenPerValue) {
  EXPECT_EQ(format_duration_ns(0), "0 ns");
  EXPECT_EQ(format_duration_ns(-3), "0 ns");
  EXPECT_EQ(format_duration_ns(0.3), "0.3 ns");  // a mean finer than the timer's step
  EXPECT_EQ(format_duration_ns(0.04), "0.0 ns");
  EXPECT_EQ(format_duration_ns(7), "7.0 ns");
  EXPECT_EQ(format_duration_ns(9.94), "9.9 ns");
  EXPECT_EQ(format_duration_ns(9.96), "10 ns");
  EXPECT_EQ(format_duration_ns(807), "807 ns");
  EXPECT_EQ(format_duration_ns(999.4), "999 ns");
  EXPECT_EQ(format_duration_ns(999.6), "1.00 us");
  EXPECT_EQ(format_duration_ns(2130), "2.13 us");
  EXPECT_EQ(format_duration_ns(133810), "133.81 us");
  EXPECT_EQ(format_duration_ns(514440), "514.44 us");
  EXPECT_EQ(format_duration_ns(999996), "1.00 ms");
  EXPECT_EQ(format_duration_ns(8.61e6), "8.61 ms");
  EXPECT_EQ(format_duration_ns(999.994e6), "999.99 ms");
  EXPECT_EQ(format_duration_ns(1.5e9), "1.50 s");
}

TEST(CostReport, ViewAndFormatNames) {
  View v;
  EXPECT_TRUE(parse_view("fn", v));
  EXPECT_EQ(v, View::Fn);
  EXPECT_TRUE(parse_view("profile", v));
  EXPECT_EQ(v, View::Profile);
  EXPECT_FALSE(parse_view("lines", v));
  EXPECT_STREQ(view_name(View::Top), "top");
  Format f;
  EXPECT_TRUE(parse_format("callgrind", f));
  EXPECT_EQ(f, Format::Callgrind);
  EXPECT_FALSE(parse_format("xml", f));
}

TEST(CostReport, PaperShapedOpLine) {
  // The paper's line: `- mcall  2000 133.81 us  89.88 us   8.61 ms 514.44 us`.
  std::string text = render_text(make_data(), opts(View::Line));
  EXPECT_NE(text.find("- mcall  2000 "), std::string::npos) << text;
  EXPECT_NE(text.find("   13: \tn := sys->read(tsfd, buf, len buf);\n- mframe 2000"),
            std::string::npos);
}

TEST(CostReport, GoldenLineView) {
  expect_golden("line.txt", render_text(make_data(), opts(View::Line)));
}

TEST(CostReport, GoldenLineViewHidingUnexecuted) {
  ReportOptions o = opts(View::Line);
  o.hide_unexecuted = true;
  o.environment = false;
  std::string text = render_text(make_data(), o);
  EXPECT_EQ(text.find("return big 0"), std::string::npos);  // line 8 never ran
  EXPECT_EQ(text.find("env "), std::string::npos);
  expect_golden("line_hidden.txt", text);
}

TEST(CostReport, GoldenCountView) {
  std::string text = render_text(make_data(), opts(View::Line, Format::Text, true));
  // No times at all: no unit appears anywhere.
  for (const char* unit : {" ns", " us", " ms", "timer", "base", "env "})
    EXPECT_EQ(text.find(unit), std::string::npos) << unit;
  expect_golden("count.txt", text);
  // A count-mode run renders the same as a timed run shown as counts.
  CostData counted = make_data(Mode::Count);
  EXPECT_EQ(render_text(counted, opts(View::Line)), text);
}

TEST(CostReport, GoldenOtherViews) {
  CostData d = make_data();
  expect_golden("fn.txt", render_text(d, opts(View::Fn)));
  expect_golden("op.txt", render_text(d, opts(View::Op)));
  expect_golden("pc.txt", render_text(d, opts(View::Pc)));
  ReportOptions top = opts(View::Top);
  top.top = 3;
  expect_golden("top.txt", render_text(d, top));
  expect_golden("profile.txt", render_text(d, opts(View::Profile)));
  std::string counts;
  for (View v : {View::Fn, View::Op, View::Pc, View::Top, View::Profile})
    counts += render_text(d, opts(v, Format::Text, true));
  expect_golden("count_views.txt", counts);
}

TEST(CostReport, GoldenCsv) {
  CostData d = make_data();
  expect_golden("line.csv", render_csv(d, opts(View::Line, Format::Csv)));
  expect_golden("count.csv", render_csv(d, opts(View::Line, Format::Csv, true)));
  std::string views;
  for (View v : {View::Fn, View::Op, View::Top, View::Profile})
    views += render_csv(d, opts(v, Format::Csv));
  expect_golden("views.csv", views);
}

TEST(CostReport, GoldenJson) {
  expect_golden("report.json", render_json(make_data(), opts(View::Line, Format::Json)));
  expect_golden("count.json", render_json(make_data(), opts(View::Line, Format::Json, true)));
}

TEST(CostReport, GoldenCallgrind) {
  expect_golden("report.callgrind",
                render_callgrind(make_data(), opts(View::Line, Format::Callgrind)));
  expect_golden("count.callgrind",
                render_callgrind(make_data(), opts(View::Line, Format::Callgrind, true)));
}

TEST(CostReport, WriteReportDispatchesOnFormat) {
  CostData d = make_data();
  for (Format f : {Format::Text, Format::Json, Format::Csv, Format::Callgrind}) {
    ReportOptions o = opts(View::Line, f);
    std::ostringstream out;
    write_report(out, d, o);
    std::string want = f == Format::Text   ? render_text(d, o)
                       : f == Format::Json ? render_json(d, o)
                       : f == Format::Csv  ? render_csv(d, o)
                                           : render_callgrind(d, o);
    EXPECT_EQ(out.str(), want);
  }
}

// ---- Structure ---------------------------------------------------------------

TEST(CostReport, DerivedFiguresAddUp) {
  CostData d = make_data();
  Totals t = totals_of(d);
  std::uint64_t want = 0;
  double ticks = 0;
  for (const auto& r : d.modules[0].pcs) {
    want += r.count;
    ticks += static_cast<double>(r.sum);
  }
  EXPECT_EQ(t.instructions, want);
  EXPECT_DOUBLE_EQ(t.instruction_ticks, ticks);
  // Lines partition the pcs; functions partition them too.
  std::uint64_t by_line = 0, by_fn = 0;
  for (const auto& l : lines_of(d.modules[0])) by_line += l.instructions;
  for (const auto& f : functions_of(d.modules[0])) by_fn += f.instructions;
  EXPECT_EQ(by_line, want);
  EXPECT_EQ(by_fn, want);
  std::uint64_t by_op = 0;
  for (const auto& o : ops_of(d)) by_op += o.rec.count;
  EXPECT_EQ(by_op, want);
  // Profile shares add up to 100%.
  double pct = 0;
  for (const auto& e : profile_of(d).entries) pct += e.percent;
  EXPECT_NEAR(pct, 100.0, 1e-9);
  double cpct = 0;
  for (const auto& e : profile_of(d, true).entries) cpct += e.percent;
  EXPECT_NEAR(cpct, 100.0, 1e-9);
}

TEST(CostReport, LineOwnershipIsTheFirstLineOfTheRange) {
  CostData d = make_data();
  auto m = std::make_shared<Module>(*d.modules[0].module);
  m->positions[3].end_line = 9;  // mframe spans lines 6-9: still belongs to 6
  d.modules[0].module = m;
  auto lines = lines_of(d.modules[0]);
  auto six =
      std::find_if(lines.begin(), lines.end(), [](const LineCost& l) { return l.line == 6; });
  ASSERT_NE(six, lines.end());
  EXPECT_EQ(six->pcs, (std::vector<std::int32_t>{3, 4, 5, 6}));
}

TEST(CostReport, ModuleWithoutPositionsListsPcs) {
  CostData d = make_data();
  auto m = std::make_shared<Module>(*d.modules[0].module);
  m->positions.clear();
  d.modules[0].module = m;
  auto lines = lines_of(d.modules[0]);
  ASSERT_EQ(lines.size(), std::size(kCode));
  EXPECT_EQ(lines[4].file, -1);
  EXPECT_EQ(lines[4].line, 4);
  std::string text = render_text(d, opts(View::Line, Format::Text, true));
  EXPECT_NE(text.find("pc 12:\n- mcall  2000\n"), std::string::npos) << text;
}

TEST(CostReport, ModuleFilter) {
  CostData d = make_data();
  ModuleCost other = d.modules[0];
  other.name = "Other";
  d.modules.push_back(other);
  ReportOptions o = opts(View::Line, Format::Text, true);
  std::string both = render_text(d, o);
  EXPECT_NE(both.find("== module Other"), std::string::npos);
  o.module = "Bench";
  std::string one = render_text(d, o);
  EXPECT_EQ(one.find("== module Other"), std::string::npos);
  EXPECT_NE(one.find("== module Bench"), std::string::npos);
}

TEST(CostReport, SampledRecordsAreMarked) {
  CostData d = make_data();
  d.sample_every = 100;
  ProbeRecord r;
  for (int i = 0; i < 300; ++i) r.add_count();
  r.observe(1000);
  r.observe(3000);
  r.observe(2000);
  d.modules[0].pcs[8] = r;
  std::string text = render_text(d, opts(View::Line));
  EXPECT_NE(text.find("- movw    300   1.00 us    500 ns   1.50 us    500 ns  (timed 3 of 300)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("sampled: about 1 in 100 executions timed"), std::string::npos);
  // An instruction none of whose executions was sampled says so.
  ProbeRecord untimed;
  for (int i = 0; i < 7; ++i) untimed.add_count();
  d.modules[0].pcs[8] = untimed;
  EXPECT_NE(render_text(d, opts(View::Line)).find("- movw      7  (timed 0 of 7)"),
            std::string::npos)
      << render_text(d, opts(View::Line));
  d.modules[0].pcs[8] = r;
  json j = render_json_value(d, opts(View::Line, Format::Json));
  const json& line8 = j["modules"][0]["lines"][3];
  EXPECT_EQ(line8["line"], 8);
  const json& op = line8["ops"][0];
  EXPECT_EQ(op["pc"], 8);
  EXPECT_EQ(op["sampled"], true);
  EXPECT_EQ(op["timed"], 3);
  EXPECT_DOUBLE_EQ(op["total_ns"].get<double>(), 300 * 1000.0);  // mean x count, in ns
}

TEST(CostReport, CallgrindCostsSumToTheSummary) {
  CostData d = make_data();
  std::istringstream in(render_callgrind(d, opts(View::Line, Format::Callgrind)));
  std::string line;
  std::uint64_t instr = 0, ns = 0, summary_instr = 0, summary_ns = 0;
  bool after_calls = false;
  int fns = 0, calls = 0;
  ASSERT_TRUE(std::getline(in, line));
  EXPECT_EQ(line, "# callgrind format");
  while (std::getline(in, line)) {
    if (line.rfind("summary: ", 0) == 0) {
      std::istringstream(line.substr(9)) >> summary_instr >> summary_ns;
    } else if (line.rfind("fn=", 0) == 0) {
      ++fns;
    } else if (line.rfind("calls=", 0) == 0) {
      ++calls;
      after_calls = true;
    } else if (!line.empty() && std::isdigit(static_cast<unsigned char>(line[0]))) {
      std::uint64_t pos, a, b;
      std::istringstream(line) >> pos >> a >> b;
      if (!after_calls) {  // a call's cost line is inclusive: not self cost
        instr += a;
        ns += b;
      }
      after_calls = false;
    }
  }
  EXPECT_EQ(fns, 2 + 3);  // init, tstamp, three buckets
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(instr, summary_instr);
  EXPECT_EQ(summary_instr, totals_of(d).instructions);
  // Per-line ns are rounded separately: within one ns per cost line.
  EXPECT_NEAR(static_cast<double>(ns), static_cast<double>(summary_ns), 20.0);
}

// ---- JSON Schema (the subset cost_schema.json uses) --------------------------

using test::SchemaChecker;

json load_schema() {
  std::ifstream in(std::string(DIS_SOURCE_DIR) + "/cost/cost_schema.json");
  return json::parse(in);
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& e : v) s += e + "\n";
  return s;
}

TEST(CostReportJson, ValidatesAgainstTheSchema) {
  SchemaChecker checker(load_schema());
  CostData d = make_data();
  json timed = json::parse(render_json(d, opts(View::Line, Format::Json)));
  EXPECT_EQ(joined(checker.check(timed)), "");
  json counted = json::parse(render_json(d, opts(View::Line, Format::Json, true)));
  EXPECT_EQ(joined(checker.check(counted)), "");
  // Without environment or call data: still valid.
  d.environment.reset();
  d.modules[0].function_calls.clear();
  d.modules[0].call_sites.clear();
  EXPECT_EQ(joined(checker.check(render_json_value(d, opts(View::Line, Format::Json)))), "");
  // With this machine's real environment and timer: valid too.
  d.environment = vm::collect_environment({"cost", "x.b"});
  d.timer = vm::timer();
  EXPECT_EQ(joined(checker.check(render_json_value(d, opts(View::Line, Format::Json)))), "");
}

TEST(CostReportJson, CheckerRejectsWhatTheSchemaForbids) {
  SchemaChecker checker(load_schema());
  json doc = render_json_value(make_data(), opts(View::Line, Format::Json));
  json missing = doc;
  missing.erase("total_instructions");
  EXPECT_NE(joined(checker.check(missing)).find("missing required key total_instructions"),
            std::string::npos);
  json wrong = doc;
  wrong["modules"][0]["lines"][0]["ops"][0]["count"] = "many";
  EXPECT_NE(joined(checker.check(wrong)).find("lines[0].ops[0].count"), std::string::npos);
  json extra = doc;
  extra["buckets"][0]["colour"] = "red";
  EXPECT_NE(joined(checker.check(extra)).find("undocumented key colour"), std::string::npos);
  json negative = doc;
  negative["totals"]["wall_ns"] = -1;
  EXPECT_NE(joined(checker.check(negative)).find("below minimum"), std::string::npos);
}

TEST(CostReportJson, KeysThePerfHarnessReads) {
  CostData d = make_data();
  json j = render_json_value(d, opts(View::Line, Format::Json));
  EXPECT_EQ(j["total_instructions"], totals_of(d).instructions);
  EXPECT_DOUBLE_EQ(j["timer_read_ns"].get<double>(), 20.5);
  json c = render_json_value(d, opts(View::Line, Format::Json, true));
  EXPECT_EQ(c["total_instructions"], totals_of(d).instructions);
  EXPECT_FALSE(c.contains("timer_read_ns"));
  EXPECT_EQ(c["mode"], "count");
}

}  // namespace
}  // namespace dis::cost

namespace dis::cost {
namespace {

TEST(CostReportRobustness, MismatchedOrEmptyDataNeverIndexesOutOfRange) {
  for (Format f : {Format::Text, Format::Json, Format::Csv, Format::Callgrind}) {
    for (View v : {View::Line, View::Fn, View::Op, View::Pc, View::Top, View::Profile}) {
      CostData empty;
      empty.program = "empty.b";
      std::ostringstream out;
      write_report(out, empty, opts(v, f));
      EXPECT_FALSE(out.str().empty());
      CostData d = make_data();
      d.modules[0].pcs.resize(40);                                // more records than code
      d.modules[0].functions.push_back({"far", 99});              // a function past the end
      d.modules[0].call_sites.push_back({3, 7, 0, "", 1, 1, 1});  // no module 7
      ModuleCost bare;
      bare.name = "Bare";  // no Module at all
      bare.pcs.resize(3);
      d.modules.push_back(bare);
      write_report(out, d, opts(v, f));
      d.modules[0].pcs.resize(2);  // fewer records than code
      write_report(out, d, opts(v, f, true));
    }
  }
  CostData d = make_data();
  d.modules[0].pcs.resize(40);
  EXPECT_EQ(totals_of(d).instructions, totals_of(make_data()).instructions);
}

TEST(CostReportRobustness, RepeatedRunsShowTheirSpreadPerLine) {
  CostData d = make_data();
  d.runs = 3;
  auto& mc = d.modules[0];
  mc.run_pc_ticks.assign(3, std::vector<std::uint64_t>(mc.pcs.size(), 0));
  // Line 12 (pc 10) took 1000, 2000 and 3000 ticks in the three runs: mean
  // 2000 ticks = 1 us, std 1000 ticks = 500 ns, 50%.
  mc.run_pc_ticks[0][10] = 1000;
  mc.run_pc_ticks[1][10] = 2000;
  mc.run_pc_ticks[2][10] = 3000;
  std::string text = render_text(d, opts(View::Line));
  EXPECT_NE(text.find("cost: bench.b (time, 3 runs merged)"), std::string::npos);
  // 50% from run to run over three runs: proven above 5% at 95%, marked.
  EXPECT_NE(text.find("   12! \tbuf := array[128] of byte;\n"
                      "- newa   2000  31.06 us   5.37 us  80.91 us  35.24 us\n"
                      "= runs 3 mean 1.00 us std 500 ns (50.0%)  not reproducible: above 5% at "
                      "95%\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(render_text(d, opts(View::Line, Format::Text, true)).find("= runs"), std::string::npos);
  json j = render_json_value(d, opts(View::Line, Format::Json));
  EXPECT_EQ(j["modules"][0]["lines"][5]["line"], 12);
  EXPECT_EQ(j["modules"][0]["lines"][5]["run_ns"], json({500.0, 1000.0, 1500.0}));
  SchemaChecker checker(load_schema());
  EXPECT_EQ(joined(checker.check(j)), "");
}

}  // namespace
}  // namespace dis::cost
