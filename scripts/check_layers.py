#!/usr/bin/env python3
"""Checks that the layers' dependencies point one way (docs/design.md).

Each layer is a folder and a library; a file may include headers of its own
layer and of the layers listed below as beneath it, never of a layer above.
Includes are bare names ("heap.h"), found by the build through the include
folders of the libraries a target links; this check resolves each name to
the one project file of that name and fails, naming file and line, when:
  - a file includes a header of a layer it may not depend on,
  - a builtin includes a header of a lower layer that is not part of the
    embedding API (vm.h and the headers it includes; PUBLIC_ONLY),
  - two layers hold a header of the same name (a bare include would be
    ambiguous),
  - a source file lies in no layer,
  - a header the installed headers include (cmake/Install.cmake's
    disvm_headers) is not installed with them.
Tests, samples and perf are outside the layers and may include anything.

  scripts/check_layers.py [--root DIR]   check the tree (default: this repo)
  scripts/check_layers.py --self-test    show that a wrong include fails
Exit status: 0 clean, 1 a violation, 2 usage.
"""
import re
import sys
import tempfile
from pathlib import Path

import check_cli  # the shared command line (this folder is on sys.path)

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
    # The embedding layer: the VM's API made typed, with the Limbo compiler.
    "embed": ["isa", "asm", "limbo", "vm/mem", "vm/core", "vm/builtins", "vm"],
    "probe": ["isa", "asm", "vm/mem", "vm/core", "vm/builtins", "vm"],
    "cost": ["isa", "asm", "stats", "limbo", "vm/mem", "vm/core", "vm/builtins", "vm", "probe"],
}
# Layers that may include, of the layers beneath them, only the embedding
# API: vm.h, every project header it includes (directly or not), and the
# extras named here. The builtins are written as an embedder's modules are;
# format.h is Inferno's print formatting, a pure function of its arguments.
API_ROOT = "vm.h"
PUBLIC_ONLY = {"vm/builtins": {"format.h"}}
SOURCE_SUFFIXES = {".h", ".cpp", ".inc", ".def"}
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def layer_of(rel):
    """The layer folder holding `rel` (a path relative to the root), or None."""
    folder = str(Path(rel).parent)
    return folder if folder in BELOW else None


def includes_of(path):
    for line in path.read_text(errors="replace").splitlines():
        m = INCLUDE.match(line)
        if m:
            yield Path(m.group(1)).name


def public_headers(root, by_name):
    """The names of API_ROOT and of every project header it reaches."""
    seen, todo = set(), [API_ROOT]
    while todo:
        name = todo.pop()
        if name in seen or name not in by_name:
            continue
        seen.add(name)
        todo.extend(includes_of(root / by_name[name][0]))
    return seen


INSTALLED = re.compile(r"set\(disvm_headers\s+([^)]*)\)")


def missing_installed(root, by_name):
    """Project headers that an installed header reaches but the install omits:
    an embedder's build would stop at the first of them."""
    cmake = root / "cmake/Install.cmake"
    m = INSTALLED.search(cmake.read_text()) if cmake.is_file() else None
    if not m:
        return []
    listed = {Path(h).name: h for h in m.group(1).split()}
    errors, seen, todo = [], set(), [(n, h) for n, h in listed.items()]
    while todo:
        name, holder = todo.pop()
        if name in seen or name not in by_name:
            continue
        seen.add(name)
        if name not in listed:
            errors.append(f"cmake/Install.cmake: {by_name[name][0]} is included by the installed "
                          f"{holder} but not installed (add it to disvm_headers)")
        todo.extend((n, by_name[name][0]) for n in includes_of(root / by_name[name][0]))
    return errors


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
    public = public_headers(root, by_name)
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
            name = Path(m.group(1)).name
            if to != layer and to not in BELOW[layer]:
                errors.append(f"{f}:{n}: includes {m.group(1)} ({to}/), a layer above "
                              f"{layer}/ (it may include {', '.join(BELOW[layer]) or 'nothing'})")
            elif (to != layer and layer in PUBLIC_ONLY and name not in public
                  and name not in PUBLIC_ONLY[layer]):
                errors.append(f"{f}:{n}: includes {m.group(1)} ({to}/), which is not part of "
                              f"the embedding API ({API_ROOT} and what it includes) that "
                              f"{layer}/ is written on")
    return errors + missing_installed(root, by_name)


def self_test():
    """A tree with an upward include, and a builtin that includes a core header
    outside the embedding API, must fail; the same tree fixed (the builtin
    including a header vm.h reaches) must pass."""
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        for folder in ("isa", "vm/core", "vm/builtins"):
            (root / folder).mkdir(parents=True)
        (root / "vm/core/runtime.h").write_text('#include "opcodes.h"\n')
        (root / "vm/core/vm.h").write_text('#include "heap.h"\n')
        (root / "vm/mem").mkdir()
        (root / "vm/mem/heap.h").write_text('#include "cage.h"\n')
        (root / "vm/mem/cage.h").write_text("#pragma once\n")
        (root / "isa/opcodes.h").write_text('#include "runtime.h"  // upward\n')
        (root / "vm/builtins/sys.cpp").write_text(
            '#include "vm.h"\n#include "runtime.h"\n#include "cage.h"\n')
        (root / "cmake").mkdir()
        (root / "cmake/Install.cmake").write_text("set(disvm_headers\n  vm/core/vm.h)\n")
        bad = check(root)
        (root / "cmake/Install.cmake").write_text(
            "set(disvm_headers\n  vm/core/vm.h vm/mem/heap.h vm/mem/cage.h)\n")
        (root / "isa/opcodes.h").write_text("#pragma once\n")
        (root / "vm/builtins/sys.cpp").write_text('#include "vm.h"\n#include "cage.h"\n')
        good = check(root)
    want = ["isa/opcodes.h:1: includes runtime.h (vm/core/)",
            "vm/builtins/sys.cpp:2: includes runtime.h (vm/core/), which is not part of",
            "cmake/Install.cmake: vm/mem/heap.h is included by the installed vm/core/vm.h",
            "cmake/Install.cmake: vm/mem/cage.h is included by the installed vm/mem/heap.h"]
    ok = len(bad) == 4 and all(any(w in e for e in bad) for w in want) and not good
    print(f"self-test: {len(bad)} wrong includes refused, fixed tree "
          f"{'passes' if not good else 'fails'}: {'ok' if ok else 'FAILED'}")
    for e in bad + good:
        print("  " + e)
    return 0 if ok else 1


def main():
    return check_cli.run("check_layers", __doc__, check, self_test,
                         f"{len(BELOW)} layers, every include points down")


if __name__ == "__main__":
    sys.exit(main())
