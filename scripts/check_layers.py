#!/usr/bin/env python3
"""Checks that the layers' dependencies point one way (docs/design.md).

Each layer is a folder and a library; a file may include headers of its own
layer and of the layers listed below as beneath it, never of a layer above.
Includes are bare names ("heap.h"), found by the build through the include
folders of the libraries a target links; this check resolves each name to
the one project file of that name and fails, naming file and line, when:
  - a file includes a header of a layer it may not depend on,
  - two layers hold a header of the same name (a bare include would be
    ambiguous),
  - a source file lies in no layer.
Tests, samples and perf are outside the layers and may include anything.

  scripts/check_layers.py [--root DIR]   check the tree (default: this repo)
  scripts/check_layers.py --self-test    show that a wrong include fails
Exit status: 0 clean, 1 a violation, 2 usage.
"""
import argparse
import re
import sys
import tempfile
from pathlib import Path

# Layer folder -> the layers its files may include (besides its own).
BELOW = {
    "isa": [],
    "asm": ["isa"],
    "stats": ["isa"],
    "limbo": ["isa", "asm"],
    "vm/mem": ["isa"],
    "vm/core": ["isa", "asm", "vm/mem"],
    "vm/builtins": ["isa", "asm", "vm/mem", "vm/core"],
    # vm/ itself: the VM put together (dis_vm) and the dis tool.
    "vm": ["isa", "asm", "limbo", "vm/mem", "vm/core", "vm/builtins"],
    "probe": ["isa", "asm", "vm/mem", "vm/core", "vm/builtins", "vm"],
    "cost": ["isa", "asm", "stats", "limbo", "vm/mem", "vm/core", "vm/builtins", "vm", "probe"],
}
SOURCE_SUFFIXES = {".h", ".cpp", ".inc", ".def"}
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def layer_of(rel):
    """The layer folder holding `rel` (a path relative to the root), or None."""
    folder = str(Path(rel).parent)
    return folder if folder in BELOW else None


def check(root):
    root = Path(root)
    files = sorted(
        p.relative_to(root).as_posix()
        for top in {k.split("/")[0] for k in BELOW}
        if (root / top).is_dir()
        for p in (root / top).rglob("*")
        if p.suffix in SOURCE_SUFFIXES and p.is_file()
    )
    errors = []
    by_name = {}
    for f in files:
        layer = layer_of(f)
        if layer is None:
            errors.append(f"{f}: in no layer (a folder of {', '.join(sorted(BELOW))})")
            continue
        by_name.setdefault(Path(f).name, []).append(f)
    for name, where in sorted(by_name.items()):
        if len({layer_of(w) for w in where}) > 1:
            errors.append(f"{name}: in more than one layer ({', '.join(where)}); "
                          "a bare include of it is ambiguous")
    for f in files:
        layer = layer_of(f)
        if layer is None:
            continue
        for n, line in enumerate((root / f).read_text(errors="replace").splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            target = by_name.get(Path(m.group(1)).name)
            if not target:
                continue  # not a project header
            to = layer_of(target[0])
            if to != layer and to not in BELOW[layer]:
                errors.append(f"{f}:{n}: includes {m.group(1)} ({to}/), a layer above "
                              f"{layer}/ (it may include {', '.join(BELOW[layer]) or 'nothing'})")
    return errors


def self_test():
    """A tree with one upward include must fail; the same tree fixed must pass."""
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        (root / "isa").mkdir()
        (root / "vm/core").mkdir(parents=True)
        (root / "vm/core/runtime.h").write_text('#include "opcodes.h"\n')
        (root / "isa/opcodes.h").write_text('#include "runtime.h"  // upward\n')
        bad = check(root)
        (root / "isa/opcodes.h").write_text("#pragma once\n")
        good = check(root)
    ok = len(bad) == 1 and "isa/opcodes.h:1: includes runtime.h (vm/core/)" in bad[0] and not good
    print(f"self-test: upward include {'refused' if bad else 'NOT refused'}, "
          f"fixed tree {'passes' if not good else 'fails'}: {'ok' if ok else 'FAILED'}")
    for e in bad + good:
        print("  " + e)
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=str(Path(__file__).resolve().parent.parent))
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    errors = check(args.root)
    for e in errors:
        print(e, file=sys.stderr)
    if errors:
        print(f"check_layers: {len(errors)} violation(s)", file=sys.stderr)
        return 1
    print(f"check_layers: {len(BELOW)} layers, every include points down")
    return 0


if __name__ == "__main__":
    sys.exit(main())
