// ministat's Student t table (internal to stats.cpp and its tests).
#pragma once

namespace dis::cost {

extern const double kTInfinity[6];    // the normal quantiles, used for df > 100
extern const double kTTable[100][6];  // kTTable[df - 1][confidence index]

}  // namespace dis::cost
