// A synthetic cost run with fixed numbers (the BASE loop's shape: 15 pcs
// over two functions, fixed tick patterns, buckets and a builtin), and the
// golden-file check the report tests share.
// Regenerate goldens after an intended change: DIS_UPDATE_GOLDEN=1 test_cost
#pragma once

#include <string>

#include "cost_data.h"

namespace dis::cost::test {

// pc -> op, line of the synthetic module.
struct Code {
  Op op;
  int line;
};
extern const Code kCode[15];

// The run: every record filled, environment and timer fixed.
CostData make_data(Mode mode = Mode::Time);

// Compares `actual` with tests/cost/golden/NAME, or writes it there when
// DIS_UPDATE_GOLDEN=1.
void expect_golden(const std::string& name, const std::string& actual);

}  // namespace dis::cost::test
