// Each calibration stream of the stream base does the work its fit takes it
// for (cost/stream_base.cpp): the stream named for a cost class runs that
// class, the fused shapes' stream runs fused instructions, the array loop
// streams run loops, the builtin stream calls a builtin. The call stream
// once called nothing: its functions, one return each, were inlined at
// their calls, and the call class rested on the recursion stream alone.
#include <gtest/gtest.h>

#include <map>
#include <numeric>
#include <string_view>

#include "stream_base.h"

using namespace dis;
using dis::cost::StreamCalibration;

namespace {

double share(const StreamCalibration::Mix& m, CostClass c) {
  const double all = std::accumulate(m.classes.begin(), m.classes.end(), 0.0);
  return all > 0 ? m.classes[static_cast<std::size_t>(c)] / all : 0;
}

TEST(StreamMix, EachStreamRunsTheWorkItIsNamedFor) {
  StreamCalibration cal(vm::ProbeMode::Time, true);
  cal.round();
  std::map<std::string_view, StreamCalibration::Mix> by;
  for (const StreamCalibration::Mix& m : cal.mixes()) by[m.name] = m;
  ASSERT_EQ(by.size(), cal.mixes().size());
  EXPECT_GT(share(by.at("arith"), CostClass::Arith), 0.9);
  EXPECT_GT(share(by.at("index"), CostClass::Index), 0.2);
  EXPECT_GT(share(by.at("memory"), CostClass::Memory), 0.2);
  EXPECT_GT(share(by.at("real"), CostClass::Real), 0.2);
  EXPECT_GT(share(by.at("call"), CostClass::Call), 0.2);
  EXPECT_GT(share(by.at("recurse"), CostClass::Call), 0.2);
  auto fused = [&](std::string_view s, vm::Fusion f) {
    return by.at(s).fusions[static_cast<std::size_t>(f)];
  };
  EXPECT_GT(fused("pair", vm::Fusion::Pair), 0);
  EXPECT_GT(fused("short", vm::Fusion::Pair), 0);
  EXPECT_GT(fused("fill", vm::Fusion::Fill), 0);
  EXPECT_GT(fused("scan", vm::Fusion::Scan), 0);
  EXPECT_EQ(fused("arith", vm::Fusion::Fill), 0);  // a loop run is a fill only in a fill
  EXPECT_GT(by.at("builtin").builtins, 0);
  EXPECT_EQ(by.at("call").builtins, 0);
  // Every unknown of the fit rests on two streams or more, but the fused
  // loops' and the builtin's, each with a stream of its own.
  for (std::size_t c = 0; c < kNumCostClasses; ++c) {
    int streams = 0;
    for (const auto& [name, m] : by) streams += m.classes[c] > 0 ? 1 : 0;
    EXPECT_GE(streams, 2) << cost_class_name(static_cast<CostClass>(c));
  }
}

}  // namespace
