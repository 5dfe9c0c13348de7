"""Runs of a child process and the runners of perf/run.py's table columns.

run_once times one child (wall from spawn to reaping, CPU from wait4, peak
RSS from GNU time when GNU_TIME is set). A Runner is one column: `prepare`
once per program (e.g. compile it), then `argv` per run, in `cwd` (None: the
harness's work directory), with `check_output` deciding whether the run
printed what it must. Standard library only.
"""

import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path

PERF_DIR = Path(__file__).resolve().parent
REPO_DIR = PERF_DIR.parent
PROGRAMS_DIR = PERF_DIR / "programs"


class RunResult:
    def __init__(self, wall, user, sys_, maxrss_kb, stdout, stderr, status, timed_out):
        self.wall = wall
        self.user = user
        self.sys = sys_
        self.maxrss_kb = maxrss_kb
        self.stdout = stdout
        self.stderr = stderr
        self.status = status
        self.timed_out = timed_out


def find_gnu_time():
    """GNU time, when installed: it forks the program from a small process, so
    the peak RSS it reports is the program's own. (A child forked from this
    Python process inherits its ~15 MiB high-water mark across exec, so wait4's
    ru_maxrss cannot go below that.)"""
    path = shutil.which("time")
    if path and "GNU" in tool_version([path, "--version"]):
        return path
    return None


GNU_TIME = None  # set by run.py's main() after the packages are installed


def run_once(argv, cwd, timeout):
    """Runs argv; wall time from spawn to reaping, CPU from wait4, peak RSS from GNU time."""
    with tempfile.TemporaryFile() as err, tempfile.NamedTemporaryFile("r") as rss:
        full = ([GNU_TIME, "-f", "%M", "-o", rss.name, "--"] + argv) if GNU_TIME else argv
        start = time.perf_counter()
        try:
            proc = subprocess.Popen(full, cwd=cwd, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.PIPE, stderr=err, start_new_session=True)
        except OSError as e:
            return RunResult(0.0, 0.0, 0.0, 0, "", str(e), -1, False)
        killed = []

        def kill():
            killed.append(True)
            try:  # the run's own process group: GNU time and the program under it
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(timeout, kill)
        timer.start()
        out = proc.stdout.read()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        timer.cancel()
        proc.stdout.close()
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped: keep Popen from waiting
        err.seek(0)
        errtext = err.read().decode("utf-8", "replace")
        maxrss = usage.ru_maxrss
        if GNU_TIME:
            lines = rss.read().split()
            maxrss = int(lines[-1]) if lines and lines[-1].isdigit() else 0
    return RunResult(wall, usage.ru_utime, usage.ru_stime, maxrss,
                     out.decode("utf-8", "replace"), errtext, proc.returncode, bool(killed))


# --------------------------------------------------------------------------
# Runners: one column of the table each


class Runner:
    """A way to run a program: `prepare` once per program, then `argv` per run."""

    def __init__(self, name, kind):
        self.name = name
        self.kind = kind  # "ours", "peer" or "probe"
        self.available = True
        self.note = ""
        self.version = ""
        self.cwd = None  # where the runs start; None: the harness's work directory

    def prepare(self, prog, workdir):  # returns an error text or None
        return None

    def argv(self, prog):
        raise NotImplementedError

    def check_output(self, result, prog):
        """True when the run printed exactly the expected checksum line."""
        return result.stdout.strip() == prog["expected"]

    def extras(self, result, prog):  # figures of a good run to keep beside its times: {field: value}
        return {}


class PeerRunner(Runner):
    def __init__(self, name, prefix, ext):
        super().__init__(name, "peer")
        self.prefix = list(prefix)
        self.ext = ext

    def argv(self, prog):
        return self.prefix + [str(PROGRAMS_DIR / f"{prog['name']}.{self.ext}"), str(prog["size"])]


class OursRunner(Runner):
    """Our VM: compile NAME.b with limbo once (not timed), run the .dis with dis.

    Without a limbo binary, `dis NAME.b` compiles in memory; that compile time
    is then part of every run, and the note says so."""

    def __init__(self, name, build_dir, extra_args=None):
        super().__init__(name, "ours")
        self.build_dir = build_dir
        self.dis = build_dir / "bin" / "dis"
        self.limbo = build_dir / "bin" / "limbo"
        self.extra_args = list(extra_args or [])
        self.modules = {}
        if not is_executable(self.dis):
            self.available = False
            self.note = f"{self.dis} not built"
        elif not is_executable(self.limbo):
            self.note = f"{self.limbo} not built: dis compiles NAME.b in memory on every run"

    def prepare(self, prog, workdir):
        source = PROGRAMS_DIR / f"{prog['name']}.b"
        if not is_executable(self.limbo):
            self.modules[prog["name"]] = source
            return None
        out = workdir / self.name.replace("/", "_") / f"{prog['name']}.dis"
        out.parent.mkdir(parents=True, exist_ok=True)
        argv = [str(self.limbo), "-g"]
        if (REPO_DIR / "module").is_dir():
            argv += ["-I", str(REPO_DIR / "module")]
        argv += ["-o", str(out), str(source)]
        r = run_once(argv, out.parent, 120)
        if r.status != 0 or not out.exists():
            return f"compile failed ({' '.join(argv)}): status {r.status}\n{r.stderr.strip()}"
        self.modules[prog["name"]] = out
        return None

    def module_path(self, prog):
        return self.modules.get(prog["name"], PROGRAMS_DIR / f"{prog['name']}.b")

    def program_argv(self, prog):
        """The module and its arguments, as dis (and cost) take them."""
        return [str(self.module_path(prog)), str(prog["size"])]

    def argv(self, prog):
        return [str(self.dis)] + self.extra_args + self.program_argv(prog)


class ProbeRunner(Runner):
    """`cost` in one view on the module the plain runner compiled.

    The report goes to a file (--out), so stdout is the program's own output;
    its first line must be the checksum."""

    def __init__(self, name, cost, view_args, plain, workdir):
        super().__init__(name, "probe")
        self.cost = cost
        self.view_args = list(view_args)
        self.plain = plain
        self.workdir = workdir
        if not is_executable(cost):
            self.available = False
            self.note = f"{cost} not built"

    def report_path(self, prog):
        return self.workdir / f"{prog['name']}.{self.name}.report"

    def command(self, prog, options):
        """cost in this view with `options` (e.g. where the report goes) on the plain runner's module."""
        return [str(self.cost)] + self.view_args + options + self.plain.program_argv(prog)

    def argv(self, prog):
        return self.command(prog, ["--out", str(self.report_path(prog))])

    @property
    def cwd(self):  # where the plain runner runs (its modules may load others beside them)
        return self.plain.cwd

    @cwd.setter
    def cwd(self, value):  # (Runner's constructor sets None: the plain runner's decides)
        pass

    def check_output(self, result, prog):
        lines = result.stdout.splitlines()
        return bool(lines) and lines[0].strip() == prog["expected"]


def is_executable(path):
    return path.is_file() and os.access(path, os.X_OK)


def tool_version(argv):
    try:
        r = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    text = (r.stdout + r.stderr).strip()
    return text.splitlines()[0] if text else ""
