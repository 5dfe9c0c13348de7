// Walking a Module's data section the way Inferno's loader executes it:
// a current base (module data, or an element of an array stored earlier),
// a stack of at most kDataBaseDepth saved bases, and every store checked to
// lie inside module data (data_size bytes) or inside its array. Used by the
// .dis reader (validation) and by flatten_data.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>

#include "dis_file.h"

namespace dis {

struct DataError {
  std::size_t item = 0;  // index into Module::data
  std::string message;
};

// Calls `store` for every value in store order (see DataValue); returns the
// first inconsistency instead of walking further.
std::optional<DataError> walk_data(const Module& m, const std::function<void(DataValue&&)>& store);

}  // namespace dis
