"""The command line the tree checks (check_layers.py, check_sizes.py) share:

  SCRIPT [--root DIR]   check the tree (default: this repository)
  SCRIPT --self-test    show that the check refuses what it should
Exit status: 0 clean, 1 a violation (each printed on stderr), 2 usage.
"""
import argparse
import sys
from pathlib import Path


def run(name, doc, check, self_test, clean_message):
    """Parses the arguments and runs `check(root)` (a list of violations) or
    `self_test()` (an exit status); `clean_message` is printed when clean."""
    ap = argparse.ArgumentParser(prog=name, description=doc.splitlines()[0])
    ap.add_argument("--root", default=str(Path(__file__).resolve().parent.parent))
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    errors = check(args.root)
    for e in errors:
        print(e, file=sys.stderr)
    if errors:
        print(f"{name}: {len(errors)} violation(s)", file=sys.stderr)
        return 1
    print(f"{name}: {clean_message}")
    return 0
