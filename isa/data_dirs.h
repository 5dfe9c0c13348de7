// Where the tools and the library find their run-time data (Limbo's
// module/*.m, bench's suite), most specific first:
//   beside the executable: EXE/../SOURCE_REL and EXE/../../SOURCE_REL (a
//     build tree inside the source tree), EXE/../share/dis/SHARE_REL (an
//     installed tree, wherever it was moved);
//   beside libdisvm.so, LIB/../share/dis/SHARE_REL, and the configured
//     install prefix's share/dis/SHARE_REL (a program that embeds an
//     installed libdisvm lives elsewhere);
//   the source tree's SOURCE_REL, only for executables inside this build
//     tree: an installed tool never reads the tree it was built from.
// Only existing directories are returned.
#pragma once

#include <string>
#include <vector>

namespace dis {

std::vector<std::string> data_dirs(const std::string& source_rel, const std::string& share_rel);

}  // namespace dis
