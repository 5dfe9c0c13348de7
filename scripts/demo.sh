#!/usr/bin/env bash
# The main job: install what is missing, build, and show a sample module.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
sample=samples/hello.s
echo "== asm $sample"
build/bin/asm -o build/hello.dis "$sample"
echo "== disdump --pc build/hello.dis"
build/bin/disdump --pc build/hello.dis
if [ -x build/bin/dis ]; then
  echo "== dis build/hello.dis"
  build/bin/dis build/hello.dis
fi
