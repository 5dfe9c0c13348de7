// cost --format html (issue 40): the page's data (columns, rounding, what is
// left out), the call-path tree behind the flame graph, where a failing run
// stopped, and the page's wrapping. The page in a browser and for every
// sample: html_page_test.cpp.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cost_diff.h"
#include "cost_report.h"
#include "cost_report_html.h"
#include "cost_run.h"
#include "stream_tee.h"
#include "tool_runner.h"

namespace dis::cost {
namespace {

using nlohmann::json;

RunOutcome run(const std::string& program, vm::ProbeMode mode, bool paths,
               std::vector<std::string> args = {}) {
  static std::ostringstream sink;
  RunSpec spec;
  spec.program = test::source(program);
  spec.args = {spec.program};
  spec.args.insert(spec.args.end(), args.begin(), args.end());
  spec.vm.out = &sink;
  spec.mode = mode;
  spec.paths = paths;
  return run_costed(load_program(spec.program), spec);
}

// The page's data document.
json page_data(const std::string& page) {
  const std::string open = R"(<script type="application/json" id="cost-data">)";
  const std::size_t at = page.find(open);
  if (at == std::string::npos) {
    ADD_FAILURE() << "no data document";
    return json();
  }
  const std::size_t from = at + open.size();
  return json::parse(page.substr(from, page.find("</script>", from) - from));
}

// The page's tables back into objects, as its script restores them.
json restore(const json& v);
json restore_rows(const json& schema, const json& rows) {
  json out = json::array();
  for (const json& row : rows) {
    json o = json::object();
    for (std::size_t i = 0; i < schema["$cols"].size(); ++i) {
      if (row[i].is_null()) continue;
      const std::string k = schema["$cols"][i];
      const bool sub = schema.contains("$sub") && schema["$sub"].contains(k);
      o[k] = sub ? restore_rows(schema["$sub"][k], row[i]) : restore(row[i]);
    }
    out.push_back(std::move(o));
  }
  return out;
}
json restore(const json& v) {
  if (v.is_object() && v.contains("$cols")) return restore_rows(v, v["$rows"]);
  if (v.is_array()) {
    json a = json::array();
    for (const json& x : v) a.push_back(restore(x));
    return a;
  }
  if (v.is_object()) {
    json o = json::object();
    for (const auto& [k, x] : v.items()) o[k] = restore(x);
    return o;
  }
  return v;
}

TEST(HtmlData, ArraysOfObjectsBecomeColumnsAndNestedTablesShareTheirKeys) {
  const json in = {
      {"lines",
       {{{"line", 1}, {"ops", {{{"op", "movw"}, {"pc", 0}}, {{"op", "addw"}, {"pc", 1}}}}},
        {{"line", 2}, {"ops", {{{"op", "ret"}, {"pc", 2}, {"extra", true}}}}},
        {{"line", 3}}}},
      {"one", {{{"a", 1}}}},
      {"scalars", {1, 2}}};
  const json c = compact_json(in);
  EXPECT_EQ(c["lines"]["$cols"], json({"line", "ops"}));
  EXPECT_EQ(c["lines"]["$sub"]["ops"]["$cols"], json({"op", "pc", "extra"}));
  EXPECT_EQ(c["lines"]["$rows"][0], json::parse(R"([1, [["movw", 0, null], ["addw", 1, null]]])"));
  EXPECT_EQ(c["lines"]["$rows"][1], json::parse(R"([2, [["ret", 2, true]]])"));
  EXPECT_EQ(c["lines"]["$rows"][2], json::parse(R"([3, null])"));
  EXPECT_EQ(c["one"], in["one"]) << "a single object stays as it is";
  EXPECT_EQ(c["scalars"], in["scalars"]);
  EXPECT_EQ(restore(c), in);
}

TEST(HtmlData, FloatsKeepFiveSignificantDigitsAndIntegersStayExact) {
  EXPECT_EQ(compact_json(12.3456789).dump(), "12.346");
  EXPECT_EQ(compact_json(0.000123456789).dump(), "0.00012346");
  EXPECT_EQ(compact_json(123456789.0).dump(), "123460000.0");
  EXPECT_EQ(compact_json(1.0).dump(), "1.0");
  EXPECT_EQ(compact_json(0.0).dump(), "0.0");
  EXPECT_EQ(compact_json(-2.5).dump(), "-2.5");
  EXPECT_EQ(compact_json(std::uint64_t{123456789012}).dump(), "123456789012");
  EXPECT_EQ(compact_json(5e-310).get<double>(), 5e-310) << "denormals are left alone";
}

TEST(HtmlFailure, PositionIsThePrefixOfTheLineEndingInTheMessage) {
  const std::string diag = "filled\nfails.b:17: array bounds error\nmore\n";
  EXPECT_EQ(failure_position(diag, "array bounds error"), "fails.b:17");
  EXPECT_EQ(failure_position(diag, "deadlock"), "");
  EXPECT_EQ(failure_position(diag, ""), "");
  EXPECT_EQ(failure_position("Samples: no entry point\n", "Samples: no entry point"), "");
}

TEST(HtmlFailure, TeeWritesThroughAndKeepsTheFirstBytes) {
  std::ostringstream to;
  TeeStream tee(to, 8);
  tee << "hello, " << 42 << " world\n" << std::flush;
  EXPECT_EQ(to.str(), "hello, 42 world\n");
  EXPECT_EQ(tee.kept(), "hello, 4");
}

TEST(HtmlCallPaths, OffUnlessAsked) {
  EXPECT_TRUE(run("samples/fib.b", vm::ProbeMode::Count, false).data.call_paths.empty());
}

// fib.b: init calls fib(0), fib(5) ... fib(20); the deepest chain is init
// and fib(20) down to fib(1), so 21 paths.
TEST(HtmlCallPaths, OneNodePerChainWithEveryActivationCounted) {
  const RunOutcome o = run("samples/fib.b", vm::ProbeMode::Count, true);
  const CostData& d = o.data;
  ASSERT_EQ(d.call_paths.size(), 21u);
  const ModuleCost& mc = d.modules[0];
  std::uint64_t fib_calls = 0, init_instr = 0, fib_outer_instr = 0;
  for (std::size_t i = 0; i < d.call_paths.size(); ++i) {
    const CallPath& p = d.call_paths[i];
    EXPECT_LT(p.parent, static_cast<std::int32_t>(i)) << "parents come first";
    std::uint64_t children = 0;
    for (const CallPath& c : d.call_paths)
      if (c.parent == static_cast<std::int32_t>(i)) children += c.inclusive_instructions;
    EXPECT_GE(p.inclusive_instructions, children) << "node " << i;
    const bool is_init = p.parent < 0;
    const auto fns = functions_of(mc);
    const auto init =
        std::find_if(fns.begin(), fns.end(), [](const auto& f) { return f.name == "init"; });
    ASSERT_NE(init, fns.end());
    EXPECT_EQ(is_init, p.entry_pc == init->pc) << "node " << i;
    if (is_init) {
      EXPECT_EQ(p.calls, 1u);
      init_instr = p.inclusive_instructions;
    } else {
      fib_calls += p.calls;
      if (d.call_paths[static_cast<std::size_t>(p.parent)].parent < 0)
        fib_outer_instr += p.inclusive_instructions;
    }
  }
  for (const FunctionCost& f : functions_of(mc)) {
    ASSERT_TRUE(f.inclusive);
    if (f.name == "fib") {
      EXPECT_EQ(fib_calls, f.inclusive->calls);
      EXPECT_EQ(fib_outer_instr, f.inclusive->inclusive_instructions);
    } else {
      EXPECT_EQ(init_instr, f.inclusive->inclusive_instructions);
    }
  }
}

// The root's activation is init's only one: the same ticks as init's
// inclusive figure, and within the run.
TEST(HtmlCallPaths, TimedRootHoldsInitsInclusiveTime) {
  const RunOutcome o = run("samples/bench/bintrees.b", vm::ProbeMode::Time, true, {"6"});
  const CostData& d = o.data;
  ASSERT_FALSE(d.call_paths.empty());
  const CallPath& root = d.call_paths[0];
  ASSERT_EQ(root.parent, -1);
  const ModuleCost& mc = d.modules[static_cast<std::size_t>(root.module)];
  bool found = false;
  for (const FunctionCost& f : functions_of(mc))
    if (f.pc == root.entry_pc && f.inclusive) {
      found = true;
      EXPECT_EQ(f.name, "init");
      EXPECT_EQ(root.inclusive_ticks, f.inclusive->inclusive_ticks);
      EXPECT_EQ(root.inclusive_instructions, f.inclusive->inclusive_instructions);
    }
  EXPECT_TRUE(found);
  EXPECT_GT(root.inclusive_ticks, 0u);
  const Totals t = totals_of(d);
  EXPECT_LE(static_cast<double>(root.inclusive_ticks), t.instruction_ticks + t.outside_ticks);
}

TEST(HtmlPage, HoldsOneDataDocumentWithTheReportSourcesAndOutcome) {
  RunOutcome o = run("samples/loop.b", vm::ProbeMode::Count, true);
  o.data.program = "<odd>@title@ & \"name\"";
  ReportOptions ro;
  ro.counts_only = true;
  const json report = render_json_value(o.data, ro);
  const std::string page = render_html(o.data, report, {1, "broken", "loop.b:3", ""});
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(page.find("<title>cost: &lt;odd&gt;&#64;title&#64; &amp; &quot;name&quot;</title>"),
            std::string::npos);
  const json data = page_data(page);
  EXPECT_EQ(data["kind"], "report");
  EXPECT_EQ(
      data["outcome"],
      json({{"status", 1}, {"state", "failed"}, {"message", "broken"}, {"where", "loop.b:3"}}));
  const json back = restore(data["report"]);
  EXPECT_EQ(back["program"], o.data.program);
  ASSERT_EQ(back["modules"].size(), report["modules"].size());
  const json& lines = back["modules"][0]["lines"];
  const json& want = report["modules"][0]["lines"];
  ASSERT_EQ(lines.size(), want.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    EXPECT_EQ(lines[i]["instructions"], want[i]["instructions"]);
    EXPECT_EQ(lines[i]["ops"], want[i]["ops"]);
    // The text is in the sources, so the line does not repeat it.
    EXPECT_FALSE(lines[i].contains("text"));
    const auto f = want[i]["file"].get<std::size_t>(), n = want[i]["line"].get<std::size_t>();
    EXPECT_EQ(data["sources"][0]["files"][f][n - 1], want[i]["text"]);
  }
  EXPECT_EQ(restore(data["call_paths"]).size(), o.data.call_paths.size());
  EXPECT_FALSE(data.contains("hist")) << "a count report has no times to draw";
}

TEST(HtmlPage, TimedInstructionsCarryHistogramsAndLeaveOutWhatThePageComputes) {
  const RunOutcome o = run("samples/loop.b", vm::ProbeMode::Time, true);
  const json report = render_json_value(o.data, {});
  const json data = page_data(render_html(o.data, report, {}));
  const json back = restore(data["report"]);
  std::size_t timed = 0;
  for (const json& l : back["modules"][0]["lines"])
    for (const json& op : l["ops"]) {
      EXPECT_FALSE(op.contains("total_ns") || op.contains("sampled"));
      if (op["timed"].get<std::uint64_t>() > 0) ++timed;
    }
  const json& h = data["hist"];
  EXPECT_EQ(h["low_ns"].size(), static_cast<std::size_t>(vm::LogHistogram::kBuckets));
  ASSERT_EQ(h["modules"][0]["pcs"].size(), timed);
  // Each pc's (step, count) pairs add up to its timed executions.
  for (std::size_t i = 0; i < timed; ++i) {
    const std::size_t pc = h["modules"][0]["pcs"][i];
    std::uint64_t n = 0;
    const json& pairs = h["modules"][0]["h"][i];
    for (std::size_t k = 1; k < pairs.size(); k += 2) n += pairs[k].get<std::uint64_t>();
    EXPECT_EQ(n, o.data.modules[0].pcs[pc].timed) << "pc " << pc;
  }
}

TEST(HtmlPage, DiffCarriesBothReportsAndTheTextsVerdicts) {
  const RunOutcome a = run("samples/bench/fib.b", vm::ProbeMode::Count, false, {"10"});
  const RunOutcome b = run("samples/bench/fib.b", vm::ProbeMode::Count, false, {"12"});
  const json ja = render_json_value(a.data, {}), jb = render_json_value(b.data, {});
  const json data = page_data(render_html_diff(ja, jb, "a.json", "b.json", 95));
  EXPECT_EQ(data["kind"], "diff");
  EXPECT_EQ(data["timed"], false);
  const LineComparison c = compare_lines(ja, jb, 95);
  const json lines = restore(data["lines"]);
  ASSERT_EQ(lines.size(), c.lines.size());
  std::size_t changed = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    EXPECT_EQ(lines[i]["line"], c.lines[i].line);
    EXPECT_EQ(lines[i]["a_instructions"], c.lines[i].a_instructions);
    EXPECT_EQ(lines[i]["b_instructions"], c.lines[i].b_instructions);
    if (c.lines[i].a_instructions != c.lines[i].b_instructions) ++changed;
  }
  EXPECT_GT(changed, 0u);
  EXPECT_EQ(restore(data["a"])["total_instructions"], ja["total_instructions"]);
}

TEST(HtmlTool, WritesThePageAndTheDiffPage) {
  using test::read_text;
  using test::run_shell;
  using test::tool;
  const std::string dir = ::testing::TempDir() + "html_tool_" + std::to_string(getpid()) + "/";
  std::filesystem::create_directories(dir);
  const std::string fib = test::source("samples/fib.b");
  auto r = run_shell(tool("cost") + " --count --format html --out " + dir + "h.html -f " + fib +
                     " >/dev/null");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(page_data(read_text(dir + "h.html"))["report"]["mode"], "count");
  for (const char* n : {"a", "b"})
    EXPECT_EQ(run_shell(tool("cost") + " --count --format json --out " + dir + n + ".json -f " +
                        fib + " >/dev/null")
                  .status,
              0);
  r = run_shell(tool("cost") + " --diff " + dir + "a.json " + dir + "b.json --format html --out " +
                dir + "d.html");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(page_data(read_text(dir + "d.html"))["kind"], "diff");
  r = run_shell(tool("cost") + " --format pdf -f " + fib + " 2>/dev/null");
  EXPECT_EQ(r.status, 2);
}

}  // namespace
}  // namespace dis::cost
