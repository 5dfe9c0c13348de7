#!/usr/bin/env bash
# Every test: the normal build and its tests, the kernel-process tests under
# ThreadSanitizer, the same tests under ASan+UBSan (GCC), and each libFuzzer
# target (clang) for a short time.
#   scripts/test.sh            everything (what CI runs)
#   scripts/test.sh --quick    the normal build and tests only
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
[ "${1:-}" = "--quick" ] && quick=1
fuzz_seconds=${DIS_FUZZ_SECONDS:-60}
jobs=$(nproc)

echo "== layers (no header is included from a layer above) and sizes (files, functions)"
python3 scripts/check_layers.py
python3 scripts/check_layers.py --self-test
python3 scripts/check_sizes.py
python3 scripts/check_sizes.py --self-test
scripts/setup.sh build
echo "== tests (normal build)"
ctest --test-dir build -j "$jobs" --output-on-failure
[ $quick -eq 1 ] && exit 0

echo "== install (the tools, libdisvm, headers, CMake package, pkg-config, man pages, .deb) away from the tree"
scripts/install_check.sh build

echo "== Inferno corpus conformance (fails on a compiler crash or a program that no longer compiles)"
python3 perf/conformance.py --build build --check

echo "== perf harness (tiny sizes: it runs and every checksum matches, plain and under each probe view)"
python3 perf/update.py --check --no-run
python3 perf/run.py --size tiny --rounds 1
python3 perf/run.py --probes --size tiny --rounds 1 --warmup 0
python3 perf/run.py --suite awfy --size tiny --rounds 1 --warmup 0 --peers lua5.4
# (The timed view is left out: on Havlak's tiny size alone it takes 10 s.)
python3 perf/run.py --suite awfy --probes --views count,sample100 --size tiny --rounds 1 --warmup 0
python3 perf/accuracy.py --size tiny --repeats 1
python3 perf/reliability.py --size tiny --runs 2

echo "== tests (switch dispatch)"
cmake -S . -B build-switch -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDIS_DISPATCH=switch >/dev/null
cmake --build build-switch -j "$jobs" --target test_vm dis
ctest --test-dir build-switch -j "$jobs" --output-on-failure -L vm

echo "== kernel-process tests (ThreadSanitizer; only test_kproc is built)"
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDIS_TSAN=ON >/dev/null
cmake --build build-tsan -j "$jobs" --target test_kproc
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
  build-tsan/tests/test_kproc --gtest_brief=1 --gtest_repeat=3

echo "== tests (ASan + UBSan)"
scripts/setup.sh build-asan -DDIS_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  LSAN_OPTIONS=suppressions="$PWD/tests/lsan.supp" \
  ctest --test-dir build-asan -j "$jobs" --output-on-failure

echo "== fuzz (${fuzz_seconds}s per target)"
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DDIS_FUZZ=ON -DDIS_TESTS=OFF -DCMAKE_CXX_COMPILER=clang++ >/dev/null
# Only the fuzz targets (and the format library they link) need the clang build.
fuzz_targets=$(cd tests/fuzz && ls fuzz_*.cpp | sed 's/\.cpp$//')
# shellcheck disable=SC2086
cmake --build build-fuzz -j "$jobs" --target $fuzz_targets
for f in build-fuzz/tests/fuzz/fuzz_*; do
  [ -x "$f" ] || continue
  name=$(basename "$f")
  corpus=build-fuzz/corpus/$name
  mkdir -p "$corpus"
  case $name in
    fuzz_dis*) cp ../shared/testdata/limbo/*/*.dis "$corpus/" ;;
    fuzz_asm*) cp ../shared/testdata/limbo/*/*.s "$corpus/" ;;
    fuzz_sbl*) cp ../shared/testdata/limbo/*/*.sbl "$corpus/" ;;
    fuzz_limbo*) cp ../shared/testdata/limbo/*/*.b "$corpus/" ;;
    fuzz_observations*) cp tests/cost/fixtures/*/*.obs "$corpus/" ;;
    fuzz_cost_report*) cp tests/fuzz/seeds/cost_report/*.json "$corpus/" ;;
  esac
  echo "-- $name"
  log=build-fuzz/$name.log
  if ! "$f" -max_total_time="$fuzz_seconds" -print_final_stats=1 \
      -artifact_prefix="build-fuzz/$name-" "$corpus" >"$log" 2>&1; then
    # Show what it found: the input that failed, and the report around it.
    grep -v -E '^#[0-9]+' "$log" | tail -n 60
    for a in build-fuzz/"$name"-crash-* build-fuzz/"$name"-timeout-* build-fuzz/"$name"-oom-*; do
      [ -f "$a" ] && { echo "-- failing input $a (base64):"; base64 "$a" | head -c 4000; echo; }
    done
    echo "fuzz target $name failed"
    exit 1
  fi
  tail -n 3 "$log"
done
echo "all test stages passed"
