#!/usr/bin/env bash
# Installs the Debian packages the project needs (only those missing; safe to
# re-run) and configures + builds the given build tree.
#   scripts/setup.sh [BUILD_DIR [extra cmake args...]]
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  cmake ninja-build g++ pkg-config git
  libboost-dev libboost-math-dev libfmt-dev libspdlog-dev libcli11-dev
  nlohmann-json3-dev libgtest-dev libgmock-dev libssl-dev libcairo2-dev libfontconfig-dev
  clang libclang-rt-14-dev
  # The HTML report's tests: Python's standard library drives headless
  # Chromium over its DevTools pipe and headless Firefox over WebDriver BiDi
  # (no driver needed for either); the page names DejaVu fonts, so
  # screenshots look the same on every machine.
  python3 chromium firefox-esr fonts-dejavu-core
  # scripts/install_check.sh: man --warnings, cpack's dpkg-shlibdeps.
  man-db dpkg-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -q
  "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if [ $# -ge 1 ]; then
  build=$1
  shift
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
  cmake --build "$build" -j "$(nproc)"
fi
