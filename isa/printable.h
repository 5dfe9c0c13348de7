// Text from input files made safe to print in a message: control
// characters and bytes that are not UTF-8 become \xNN, so binary garbage
// named in an error cannot move the cursor, recolour or garble the
// terminal. Newlines and tabs stay; valid UTF-8 stays as it is.
#pragma once

#include <string>
#include <string_view>

namespace dis {

std::string printable(std::string_view text);

}  // namespace dis
