// The text views as a reader takes them in: every table has a column
// header, a row of nothing (count 0) is left out, and shares are of the
// program's own time, with what the host took (bucket "preempted") apart.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cost_report.h"
#include "probe_timing.h"
#include "synthetic_report.h"

namespace dis::cost::test {
namespace {

ReportOptions view(View v) {
  ReportOptions o;
  o.view = v;
  return o;
}

// The synthetic run with the host taking 100 ms in the middle of it and an
// interrupts bucket that never filled.
CostData with_preemption() {
  CostData d = make_data();
  NamedRecord pre{vm::kPreemptedBucket, {}}, irq{vm::kInterruptsBucket, {}};
  pre.rec.add(200'000'000);  // 100 ms at 2 ticks/ns
  d.buckets.push_back(pre);
  d.buckets.push_back(irq);
  return d;
}

TEST(TextViews, EveryTableHasAColumnHeader) {
  const std::string t = render_text(make_data(), view(View::Line));
  EXPECT_NE(t.find("== module Bench\n  op        n      mean       min       max       std\n"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("-- outside instructions\n  what         n      mean"), std::string::npos) << t;
  EXPECT_NE(t.find("-- builtins (time inside their mcall)\n  what         n      mean"),
            std::string::npos)
      << t;
}

TEST(TextViews, RowsOfNothingAreLeftOut) {
  const std::string t = render_text(with_preemption(), view(View::Line));
  EXPECT_NE(t.find("- preempted"), std::string::npos) << t;
  EXPECT_EQ(t.find(vm::kInterruptsBucket), std::string::npos) << t;
}

TEST(TextViews, SharesAreOfTheProgramsOwnTimeWithPreemptionApart) {
  const CostData d = with_preemption();
  const std::string t = render_text(d, view(View::Profile));
  // 456.78 ms attributed before, plus 100 ms the host took.
  EXPECT_NE(t.find("host preemption 100.00 ms (18.0% of the total) is the host's, not the "
                   "program's: shares below are of the program's own 456.78 ms\n"),
            std::string::npos)
      << t;
  // Sys->read's 222.51 ms: 48.7% of the program's own time, as without
  // preemption (it would read 40.0% of the total).
  EXPECT_NE(t.find(" 222.51 ms   48.7  builtin Sys->read\n"), std::string::npos) << t;
  EXPECT_EQ(t.find("  preempted\n"), std::string::npos) << t;
  // The top view's shares too.
  const std::string top = render_text(d, [] {
    ReportOptions o = view(View::Top);
    o.top = 1;
    return o;
  }());
  const std::string plain = render_text(make_data(), [] {
    ReportOptions o = view(View::Top);
    o.top = 1;
    return o;
  }());
  const auto row = [](const std::string& s) { return s.substr(s.find("\n   1 ")); };
  EXPECT_EQ(row(top), row(plain)) << top;
}

// The saved formats give the same shares as the text: of the program's own
// time, with the host's preemption as its own figure.
TEST(TextViews, JsonAndCsvSharesLeavePreemptionOutToo) {
  const CostData d = with_preemption();
  ReportOptions jo = view(View::Profile);
  jo.format = Format::Json;
  const nlohmann::json p = nlohmann::json::parse(render_json(d, jo)).at("profile");
  EXPECT_DOUBLE_EQ(p.at("preempted").get<double>(), 100e6);
  EXPECT_NEAR(p.at("own").get<double>(), p.at("total").get<double>() - 100e6, 1e-3);
  double sum = 0;
  for (const nlohmann::json& e : p.at("entries")) {
    EXPECT_NE(e.at("what"), vm::kPreemptedBucket);
    sum += e.at("percent").get<double>();
    if (e.at("what") == "builtin Sys->read") {
      EXPECT_NEAR(e.at("percent").get<double>(), 48.7, 0.05);
    }
  }
  EXPECT_NEAR(sum, 100.0, 1e-9);

  ReportOptions co = view(View::Profile);
  co.format = Format::Csv;
  const std::string csv = render_csv(d, co);
  EXPECT_NE(csv.find("\n# host preemption 100000000.000 ns is the host's, not the program's: "
                     "percent is of the program's own 456777149.000 ns\nwhat,value,percent\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find("\nbuiltin Sys->read,222515000.000,48.714\n"), std::string::npos) << csv;
  // The top lines' shares are those of the run without preemption.
  ReportOptions to = view(View::Top);
  to.format = Format::Csv;
  to.top = 1;
  const auto row = [](const std::string& s) { return s.substr(s.find("\n1,")); };
  EXPECT_EQ(row(render_csv(d, to)), row(render_csv(make_data(), to)));
}

}  // namespace
}  // namespace dis::cost::test
