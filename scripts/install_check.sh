#!/usr/bin/env bash
# Checks what `cmake --install` ships, away from the source tree: installs
# BUILD into a temporary prefix and, from a directory outside the tree, runs
# the installed dis on a Limbo program, cost -f, bench, builds a C++ program
# against the library with find_package(disvm) (shared and static) and with
# pkg-config, checks every man page with `man --warnings`, then packages the
# tree with cpack -G DEB and runs the packaged dis.
#   scripts/install_check.sh [BUILD_DIR]   (default build)
# Installed executables never read the tree they were built from
# (isa/data_dirs.h), so a missing file under the prefix fails here.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$(pwd)
build=$(realpath "${1:-build}")
tmp=$(mktemp -d /tmp/disvm-install.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
fail() { echo "install_check: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >/dev/null
for tool in dis cost bench bstat plot limbo asm disdump; do
  [ -x "$prefix/bin/$tool" ] || fail "bin/$tool not installed"
  if readelf -S "$prefix/bin/$tool" | grep -q '\.debug_info'; then
    grep -q "CMAKE_BUILD_TYPE:STRING=Debug" "$build/CMakeCache.txt" || fail "bin/$tool is not stripped"
  fi
  [ -f "$prefix/share/man/man1/$tool.1" ] || fail "no man page for $tool"
done
for f in lib/libdisvm.so lib/libdisvm.a include/disvm/vm.h lib/cmake/disvm/disvmConfig.cmake \
         lib/pkgconfig/disvm.pc share/dis/module/sys.m share/dis/bench-suite/ops.b \
         share/man/man3/disvm.3 share/doc/disvm/LICENSE; do
  [ -e "$prefix/$f" ] || fail "$f not installed"
done

work=$tmp/work
mkdir -p "$work"
cp samples/fib.b "$work/"
cd "$work"
out=$("$prefix/bin/dis" fib.b)
[ -n "$out" ] || fail "installed dis printed nothing for fib.b"
"$prefix/bin/cost" -f fib.b >cost.txt 2>&1 || fail "installed cost -f fib.b failed: $(tail -3 cost.txt)"
grep -q "fib.b" cost.txt || fail "cost's report does not name fib.b"
"$prefix/bin/bench" -n 2 -t INT >bench.txt 2>&1 || fail "installed bench -n 2 -t INT failed: $(tail -3 bench.txt)"
grep -q "^INT" bench.txt || fail "bench printed no INT line: $(cat bench.txt)"
echo "install_check: installed tools run from $work"

# The man pages: no groff warnings, and every long option a tool's --help
# lists is documented in its page.
for page in "$prefix"/share/man/man1/*.1 "$prefix"/share/man/man3/*.3; do
  warn=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings -E UTF-8 -l "$page" 2>&1 >/dev/null)
  [ -z "$warn" ] || fail "$(basename "$page"): $warn"
done
for tool in dis cost bench bstat plot limbo asm disdump; do
  for opt in $("$prefix/bin/$tool" --help | grep -o -- '--[a-z][a-z0-9-]*' | sort -u); do
    [ "$opt" = --help ] || [ "$opt" = --version ] && continue
    grep -q -- "$(printf '%s' "$opt" | sed 's/-/\\\\-/g')" "$prefix/share/man/man1/$tool.1" ||
      fail "$tool.1 does not document $opt"
  done
done
echo "install_check: man pages clean and complete"

# An out-of-tree consumer: find_package (shared and static) and pkg-config.
cp -r "$src/tests/install/consumer" "$tmp/consumer"
cmake -S "$tmp/consumer" -B "$tmp/consumer/build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$tmp/consumer/build" >/dev/null
for kind in shared static; do
  got=$("$tmp/consumer/build/consumer_$kind") || fail "consumer_$kind failed: $got"
  [ "$got" = "$(printf 'answer 42\n42 hello, world!')" ] || fail "consumer_$kind printed '$got'"
done
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
moddir=$(pkg-config --variable=moduledir disvm)
# shellcheck disable=SC2046
g++ -o "$tmp/consumer_pc" "$tmp/consumer/main.cpp" -DMODULE_DIR="\"$moddir\"" \
  $(pkg-config --cflags --libs disvm)
got=$(LD_LIBRARY_PATH=$prefix/lib "$tmp/consumer_pc") || fail "pkg-config consumer failed: $got"
[ "$got" = "$(printf 'answer 42\n42 hello, world!')" ] || fail "pkg-config consumer printed '$got'"
echo "install_check: find_package(disvm) shared+static and pkg-config consumers run"

# The Debian package: its dis runs the same program.
(cd "$build" && cpack -G DEB -B "$tmp/deb" >/dev/null) || fail "cpack -G DEB failed"
deb=$(ls "$tmp"/deb/*.deb)
dpkg-deb --field "$deb" Package Depends
dpkg-deb -x "$deb" "$tmp/root"
got=$("$tmp/root/usr/bin/dis" fib.b)
[ "$got" = "$out" ] || fail "the packaged dis printed '$got'"
echo "install_check: $(basename "$deb") installs and runs"
