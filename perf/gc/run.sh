#!/bin/sh
# GC figures (not a test): peak RSS of binary trees at depth 16 in the
# default mode, and the distribution of GC step times on a ~100 MB live heap
# (binary trees plus an array of a million pointers) with default quanta.
#   perf/gc/run.sh [build-dir]
set -e
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$here/build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/bin/limbo" -o "$tmp/binarytrees.dis" "$here/samples/gc/binarytrees.b"
"$build/bin/limbo" -o "$tmp/bigheap.dis" "$here/samples/gc/bigheap.b"

echo "== binary trees, depth 16, --gc=dis"
/usr/bin/time -v "$build/bin/dis" --gc-stats "$tmp/binarytrees.dis" 16 >/dev/null 2>"$tmp/bt.err"
grep -E "Maximum resident|Elapsed|heap bytes-peak|gc (steps|epochs)" "$tmp/bt.err"

echo "== ~100 MB live heap, default quanta"
/usr/bin/time -v "$build/bin/dis" --gc-stats --gc-step-times "$tmp/bigheap.dis" >/dev/null 2>"$tmp/bh.err"
grep -E "Maximum resident|heap bytes-peak|gc (steps|epochs|step)" "$tmp/bh.err"
echo "(load average: $(cut -d' ' -f1-3 /proc/loadavg); a max far above p99.9 is the host preempting the process)"
