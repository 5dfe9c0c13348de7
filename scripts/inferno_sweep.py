#!/usr/bin/env python3
"""Runs Inferno's own commands on the VM and says which work.

Two parts, over an Inferno `dis/` tree (default ../shared/corpus/inferno,
whose dis/ holds Inferno's precompiled commands):

  1. every top-level command (dis/*.dis) with no arguments, stdin empty,
     under a timeout;
  2. command lines with known output, run in a scratch directory the script
     fills; the expected texts are computed here from the files (Python's
     sort, hashlib...), never taken from a run. Where the text holds what
     varies from run to run (ps's sizes, pids), it is a pattern the whole
     output must match.

A run is *crashed* when dis dies by a signal, times out on a line with known
output, or reports an internal error; *wrong* when a line with known output
prints something else; *refused* when the program stops naming what the VM
lacks (a builtin module or function, /prog). Prints the figures and the
refusals by module; exits 1 on a crash or a wrong output, 77 when the tree
is absent (the ctest skip code).

  scripts/inferno_sweep.py [--root TREE] [--bin build/bin] [--timeout S] [-v]

/dev/time is fixed (DIS_FIXED_TIME) so that `date` has a known output.
"""
import argparse
import collections
import hashlib
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FIXED_TIME = 1234567890  # seconds; Fri Feb 13 23:31:30 GMT 2009

# What a program prints when the VM lacks something: (pattern, what).
LACKS = [
    (re.compile(r"no such builtin module (\$\w+)"), lambda m: m.group(1)),
    (re.compile(r"not implemented: (\$\w+->\w+)"), lambda m: m.group(1)),
    (re.compile(r"'(/prog|#p)/[^']*' file does not exist"), lambda m: "/prog"),
]
# Diagnostics of the VM itself that must never appear.
CRASH = re.compile(r"internal error|assertion|Segmentation|Aborted|std::")

# Lines the VM cannot run yet, and why: reported apart (neither right nor
# wrong nor crashed) until they work, when the sweep says to drop them here.
KNOWN_GAPS = {}

TEXT_A = "banana\napple\ncherry\napple\nbanana\napple\ndate\n"
NUMS = "10\n9\n100\n1\n25\n"


def make_fixture(d):
    with open(os.path.join(d, "a.txt"), "w") as f:
        f.write(TEXT_A)
    with open(os.path.join(d, "nums.txt"), "w") as f:
        f.write(NUMS)
    sub = os.path.join(d, "tree")
    os.makedirs(os.path.join(sub, "inner"))
    for name, size in (("one", 1500), ("two", 10), ("inner/three", 3000)):
        with open(os.path.join(sub, name), "w") as f:
            f.write("x" * size)
    stamp = FIXED_TIME - 3600  # within six months of "now": ls shows the time
    for name in ("one", "two", "inner/three", "inner"):
        os.utime(os.path.join(sub, name), (stamp, stamp))


def wc_line(text, name=None, fields="lwc"):
    counts = {"l": text.count("\n"), "w": len(text.split()), "c": len(text.encode())}
    line = "".join(" %7d" % counts[f] for f in fields)
    if name:
        line += " " + name
    return line[1:] + "\n"


def uniq_d(lines):
    """The lines that occur more than once in a row, once each."""
    return "".join(s for i, s in enumerate(lines)
                   if i > 0 and lines[i - 1] == s and (i < 2 or lines[i - 2] != s))


def ls_l(d, names):
    """ls -l as Inferno's ls prints host files: mode, type U, the host's
    device number, owner, group, length (0 for a directory), time, name."""
    import grp
    import pwd
    rows = []
    for n in names:
        st = os.stat(os.path.join(d, n))
        isdir = os.path.isdir(os.path.join(d, n))
        perm = "".join(c if st.st_mode & (1 << (8 - i)) else "-"
                       for i, c in enumerate("rwxrwxrwx"))
        t = time.gmtime(st.st_mtime)
        rows.append((("d-" if isdir else "--") + perm, str(st.st_dev),
                     pwd.getpwuid(st.st_uid).pw_name, grp.getgrgid(st.st_gid).gr_name,
                     str(0 if isdir else st.st_size), time.strftime("%b %d %H:%M", t), n))
    w = [max(len(r[i]) for r in rows) for i in range(5)]
    return "".join("%s U %*s %-*s %-*s %*s %s %s\n" % (r[0], w[1], r[1], w[2], r[2], w[3], r[3],
                                                     w[4], r[4], r[5], r[6]) for r in rows)


def pwd_name():
    import pwd
    return pwd.getpwuid(os.getuid()).pw_name


def matches(out, want):
    return want.fullmatch(out) is not None if isinstance(want, re.Pattern) else out == want


def kb(n):
    return (n + 1023) // 1024


def known_lines(d):
    """(name, argv or shell line, stdin, expected stdout)."""
    a_lines = TEXT_A.splitlines(keepends=True)
    srt = "".join(sorted(a_lines))
    grep_n = "".join("%d:%s" % (i + 1, s) for i, s in enumerate(a_lines) if "an" in s)
    grep_v = "".join(s for s in a_lines if "an" not in s)
    nums_sorted = "".join(sorted(NUMS.splitlines(keepends=True), key=lambda s: int(s)))
    gm = time.gmtime(FIXED_TIME)
    date = time.strftime("%a %b %d %H:%M:%S GMT %Y", gm) + "\n"
    tree_total = 1500 + 10 + 3000
    md5 = hashlib.md5(TEXT_A.encode()).hexdigest()
    sha1 = hashlib.sha1(TEXT_A.encode()).hexdigest()
    return [
        ("echo", ["echo", "hello", "world"], "", "hello world\n"),
        ("echo -n", ["echo", "-n", "abc"], "", "abc"),
        ("cat", ["cat", "a.txt"], "", TEXT_A),
        ("cat stdin", ["cat"], "piped\n", "piped\n"),
        ("wc", ["wc", "a.txt"], "", wc_line(TEXT_A, "a.txt")),
        ("wc -l", ["wc", "-l", "a.txt"], "", wc_line(TEXT_A, "a.txt", "l")),
        ("wc stdin", ["wc"], TEXT_A, wc_line(TEXT_A)),
        ("sort", ["sort", "a.txt"], "", srt),
        ("sort -r", ["sort", "-r", "a.txt"], "", "".join(sorted(a_lines, reverse=True))),
        ("sort -n", ["sort", "-n", "nums.txt"], "", nums_sorted),
        ("uniq", ["uniq"], srt, "".join(dict.fromkeys(sorted(a_lines)))),
        # The shipped uniq.dis predates -c (its usage says [-ud]).
        ("uniq -d", ["uniq", "-d"], srt, "".join(uniq_d(sorted(a_lines)))),
        ("grep", ["grep", "an", "a.txt"], "", "".join(s for s in a_lines if "an" in s)),
        ("grep -n", ["grep", "-n", "an", "a.txt"], "", grep_n),
        ("grep -v", ["grep", "-v", "an", "a.txt"], "", grep_v),
        ("tr", ["tr", "a-z", "A-Z"], "Hello\n", "HELLO\n"),
        ("sed", ["sed", "s/an/AN/g", "a.txt"], "", TEXT_A.replace("an", "AN")),
        ("tail -2", ["tail", "-2", "a.txt"], "", "".join(a_lines[-2:])),
        ("basename", ["basename", "/a/b/c.b", ".b"], "", "c\n"),
        ("cleanname", ["cleanname", "/a/b/../c/./d"], "", "/a/c/d\n"),
        ("du -s", ["du", "-s", "tree"], "", "%-4d tree\n" % kb(tree_total)),
        ("du -a", ["du", "-a", "tree/inner"], "",
         "%-4d tree/inner/three\n%-4d tree/inner\n" % (kb(3000), kb(3000))),
        ("ls", ["ls", "tree"], "", "tree/inner\ntree/one\ntree/two\n"),
        ("ls -p", ["ls", "-p", "tree"], "", "inner\none\ntwo\n"),
        ("ls -l", ["ls", "-l", "tree"], "", ls_l(d, ["tree/inner", "tree/one", "tree/two"])),
        ("date -u", ["date", "-u"], "", date),
        ("date -n", ["date", "-n"], "", "%d\n" % FIXED_TIME),
        ("md5sum", ["md5sum", "a.txt"], "", "%s\ta.txt\n" % md5),
        ("sha1sum", ["sha1sum", "a.txt"], "", "%s\ta.txt\n" % sha1),
        ("cat /dev/time", ["cat", "/dev/time"], "", "%d" % (FIXED_TIME * 1000000)),
        ("cat /dev/sysname", ["cat", "/dev/sysname"], "", socket.gethostname()),
        ("cmp same", ["cmp", "a.txt", "a.txt"], "", ""),
        ("comm -12", ["comm", "-12", "a.txt", "a.txt"], "", TEXT_A),
        # mash's parser reaches mashlib's variables through the module value.
        ("mash echo", ["mash", "-c", "echo hi"], "", "hi\n"),
        ("sh echo", ["sh", "-c", "echo hello"], "", "hello\n"),
        ("sh pipeline", ["sh", "-c", "echo hello | wc"], "", wc_line("hello\n")),
        ("sh sort|uniq -d", ["sh", "-c", "sort a.txt | uniq -d"], "", uniq_d(sorted(a_lines))),
        ("sh redirect", ["sh", "-c", "echo hi > out.txt; cat out.txt; echo after"], "",
         "hi\nafter\n"),
        ("sh for", ["sh", "-c", "load std; for i in a b c {echo $i}"], "", "a\nb\nc\n"),
        ("sh if", ["sh", "-c", "load std; if {~ a a} {echo yes}"], "", "yes\n"),
        # grep ends with fail:no matches; $status keeps what follows fail:.
        ("sh status", ["sh", "-c", "grep zzz a.txt; echo $status"], "", "no matches\n"),
        ("sh list", ["sh", "-c", "x=(a b c); echo $#x $x"], "", "3 a b c\n"),
        ("sh for|sort", ["sh", "-c", "load std; for i in c a b {echo $i} | sort"], "",
         "a\nb\nc\n"),
        ("sh < file", ["sh", "-c", "wc < a.txt"], "", wc_line(TEXT_A)),
        ("sh >> file", ["sh", "-c", "echo one >> app.txt; echo two >> app.txt; cat app.txt"], "",
         "one\ntwo\n"),
        ("sh 3-stage", ["sh", "-c", "sort a.txt | uniq | wc -l"], "",
         wc_line("".join(sorted(set(a_lines))), None, "l")),
        # /prog: ps reads each thread's status (pid, group, user, time,
        # state, size, module) as Inferno's devprog formats it.
        ("ps", ["ps"], "", re.compile(r"       1        1 %10s    0:00\.\d      ready +\d+K Ps\[\$Sys\]\n"
                                       % re.escape(pwd_name()))),
        ("sh sleep&ps", ["sh", "-c", "sleep 100 & ps; kill Sleep"], "",
         re.compile(r"( +\d+ +1 +\S+ +0:00\.\d +(ready|release|recv|alt) +\d+K (Sh|Ps|Sleep)(\[\$Sys\])?\n){3}\d+ \n")),
        # kill writes "kill" to /prog/N/ctl: the sleeper ends now, else the
        # run would last 100 seconds (the timeout calls that a crash).
        ("sh kill", ["sh", "-c", "sleep 100 & kill Sleep; echo done"], "", re.compile(r"\d+ \ndone\n")),
        # The shell's patterns walk / and /prog: / lists prog beside the tree's own.
        ("sh glob /prog", ["sh", "-c", "echo /prog/* /prog/1/s*; ls -p / | grep '^prog$'"], "",
         "/prog/1 /prog/1/status\nprog\n"),
        ("ns", ["ns"], "", "bind / /\nbind -b '#c' /dev\nbind '#p' /prog\ncd %s\n" % d),
        ("sh bind -a", ["sh", "-c", "bind -a tree/inner tree; ls -p tree"], "",
         "inner\none\nthree\ntwo\n"),
        ("sh bind", ["sh", "-c", "bind tree/inner tree; ls -p tree; unmount tree; ls -p tree"], "",
         "three\ninner\none\ntwo\n"),
        # Inferno's createsignerkey writes a key file through its Limbo oldauth
        # ($Crypt); getpk reads it back with $Keyring->readauthinfo and
        # prints the public key's text (-a) and owner (-u).
        ("signer key", ["sh", "-c", "auth/createsignerkey -f key -b 512 alice; auth/getpk -au key"],
         "", re.compile(r"rsa\nalice\n[A-Za-z0-9+/]+=*\nAQAB\n alice\n")),
        ("sh bind -bc", ["sh", "-c", "bind -bc tree/inner tree; echo x > tree/new; ls -p tree/inner"],
         "", "new\nthree\n"),
    ]


def run(binary, root, argv, stdin, cwd, timeout, env):
    # The loader's log names a builtin module a program could not load even
    # when the program itself says only "module not loaded".
    cmd = [binary, "--log", "info", "--root", root, os.path.join(root, "dis", argv[0] + ".dis")] + argv[1:]
    try:
        p = subprocess.run(cmd, input=stdin.encode(), capture_output=True, cwd=cwd,
                           timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return None, "", "timeout"
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def lacks(err):
    for pat, what in LACKS:
        m = pat.search(err)
        if m:
            return what(m)
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=os.path.join(HERE, "..", "..", "shared", "corpus", "inferno"),
                    help="directory holding Inferno's dis/ tree")
    ap.add_argument("--bin", default=os.path.join(HERE, "..", "build", "bin"))
    ap.add_argument("--timeout", type=float, default=10)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    if not os.path.isdir(os.path.join(root, "dis")):
        print("inferno_sweep: no dis/ tree under %s: skipped" % root)
        return 77
    binary = os.path.join(os.path.abspath(args.bin), "dis")
    env = dict(os.environ, DIS_FIXED_TIME=str(FIXED_TIME * 1000000))

    crashed, wrong, refused, worked, timed_out = [], [], collections.defaultdict(list), [], []
    gaps = []
    work = tempfile.mkdtemp(prefix="inferno_sweep_")
    try:
        empty = os.path.join(work, "empty")
        os.makedirs(empty)
        # 1. Every top-level command with no arguments.
        cmds = sorted(f[:-4] for f in os.listdir(os.path.join(root, "dis")) if f.endswith(".dis"))
        for c in cmds:
            rc, out, err = run(binary, root, [c], "", empty, args.timeout, env)
            if rc is None:
                timed_out.append(c)  # a server or a reader of the console: it waits
            elif rc < 0 or rc > 2 or CRASH.search(err):
                crashed.append("%s: status %s %s" % (c, rc, err.strip()[-200:]))
            elif rc != 0 and lacks(err):
                refused[lacks(err)].append(c)
            if args.verbose:
                print("%-12s %s %s" % (c, rc, err.strip().splitlines()[-1:] if err else ""))
        # 2. Command lines with known output.
        fixture = os.path.join(work, "fixture")
        os.makedirs(fixture)
        make_fixture(fixture)
        lines = known_lines(fixture)
        for name, argv, stdin, want in lines:
            rc, out, err = run(binary, root, argv, stdin, fixture, args.timeout, env)
            if name in KNOWN_GAPS:
                if matches(out, want) and rc == 0:
                    print("known gap now works, drop it from KNOWN_GAPS: " + name)
                    worked.append(name)
                else:
                    gaps.append("%s: %s" % (name, KNOWN_GAPS[name]))
            elif rc is None or rc < 0 or rc > 2 or CRASH.search(err):
                crashed.append("%s: status %s %s" % (name, rc, err.strip()[-200:]))
            elif matches(out, want):
                worked.append(name)
            elif rc != 0 and lacks(err):
                refused[lacks(err)].append(name)
            else:
                want_text = want.pattern if isinstance(want, re.Pattern) else want
                wrong.append("%s: got %r, want %r; stderr %r" % (name, out[:200], want_text[:200],
                                                                  err.strip()[-200:]))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print("commands run with no arguments: %d (%d still waiting at the timeout)"
          % (len(cmds), len(timed_out)))
    print("command lines with known output: %d, right: %d" % (len(lines), len(worked)))
    print("crashed: %d" % len(crashed))
    for c in crashed:
        print("  " + c)
    print("wrong output: %d" % len(wrong))
    for w in wrong:
        print("  " + w)
    print("known gaps: %d" % len(gaps))
    for g in gaps:
        print("  " + g)
    # A command run with no arguments counts when it stopped (status not 0)
    # after the VM refused it something; a line with known output, when that
    # refusal is why it did not give it.
    print("refused, by what is lacking: %d" % sum(len(v) for v in refused.values()))
    for what in sorted(refused):
        print("  %s: %s" % (what, " ".join(refused[what])))
    return 1 if crashed or wrong else 0


if __name__ == "__main__":
    sys.exit(main())
