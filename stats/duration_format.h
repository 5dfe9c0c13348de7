// Durations in the paper's units, shared by the reports and cost --diff (its
// own file so that a fuzz target can read reports without linking the VM).
#pragma once

#include <string>

namespace dis::cost {

// The paper's units: below 10 ns one decimal ("0.3 ns", "7.0 ns"; 0 is
// "0 ns"), below 1 us integer ns ("807 ns"), below 1 ms us with two
// decimals ("2.13 us"), below 1 s ms ("8.61 ms"), else s ("1.50 s"); the
// unit is chosen after rounding, so 999.996 us prints "1.00 ms".
std::string format_duration_ns(double ns);

}  // namespace dis::cost
