#!/usr/bin/env bash
# The main job: install what is missing, build, and cost a sample: the
# paper's BASE benchmark, every instruction timed and reported per source
# line (the program's own output goes to build/base.out).
set -euo pipefail
cd "$(dirname "$0")/.."
# The packages, then the one tool the demo runs: no test is built, so a
# clone without ../shared (the reference corpus the tests use) works too.
scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build --target cost
echo "== cost -f samples/base.b -s Base --hide-unexecuted"
build/bin/cost -f samples/base.b -s Base --hide-unexecuted --out build/base.cost >build/base.out
grep summary build/base.out
cat build/base.cost
echo "== cost --profile -f samples/base.b"
build/bin/cost --profile -f samples/base.b --out build/base.profile >/dev/null
cat build/base.profile
