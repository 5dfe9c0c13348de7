#!/usr/bin/env bash
# Writes docs/deps.dot: the link graph of the project's libraries and tools
# as CMake sees it (cmake --graphviz), without the external packages, so a
# layer that starts to depend on a higher one shows up in review. Renders
# docs/deps.svg too when Graphviz's `dot` is installed (it is optional).
#   scripts/deps_graph.sh [BUILD_DIR]   (default build/, configured already)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/CMakeGraphVizOptions.cmake" <<'OPTS'
set(GRAPHVIZ_EXTERNAL_LIBS FALSE)
set(GRAPHVIZ_GENERATE_PER_TARGET FALSE)
set(GRAPHVIZ_GENERATE_DEPENDERS FALSE)
set(GRAPHVIZ_IGNORE_TARGETS "^test_;^fuzz_;^embed_example$;^gmock;^gtest")
OPTS
# cmake reads the options file from the build directory.
mkdir -p "$build"
cp "$tmp/CMakeGraphVizOptions.cmake" "$build/CMakeGraphVizOptions.cmake"
cmake -S . -B "$build" --graphviz="$tmp/deps.dot" >/dev/null
rm -f "$build/CMakeGraphVizOptions.cmake"
{
  echo "// The libraries and tools of disvm and their link dependencies, written by"
  echo "// scripts/deps_graph.sh from cmake --graphviz; arrows point from a target"
  echo "// to what it links. Render: dot -Tsvg docs/deps.dot > deps.svg"
  cat "$tmp/deps.dot"
} >docs/deps.dot
if command -v dot >/dev/null; then dot -Tsvg docs/deps.dot >docs/deps.svg; fi
echo "deps_graph: wrote docs/deps.dot$(command -v dot >/dev/null && echo ' and docs/deps.svg')"
