"""The Are-We-Fast-Yet suite for perf/run.py (--suite awfy).

Our Limbo ports (perf/awfy/NAME.b, compiled with our limbo into one
directory with the harness and som modules) run as `dis harness.dis NAME
OUTER INNER` there; the suite's Lua versions (../shared/peers/awfy/lua) run
as `lua5.4 harness.lua NAME OUTER INNER` (and under luajit -joff and luajit)
there. Both harnesses verify every benchmark result themselves and exit
non-zero on a wrong one; a run counts only with exit status 0 and the
harness's lines: the start line, one runtime line per outer iteration, the
average and the total.
"""

import json
import re

from runners import PERF_DIR, REPO_DIR, OursRunner, PeerRunner, ProbeRunner, is_executable, run_once

AWFY_DIR = PERF_DIR / "awfy"
SUITE_FILE = AWFY_DIR / "suite.json"
LUA_DIR = REPO_DIR.parent / "shared" / "peers" / "awfy" / "lua"
LUA_PEERS = ("lua5.4", "luajit-joff", "luajit")  # run.py's peers that run the Lua versions
SHARED_MODULES = ("harness", "som")  # compiled once beside the benchmark modules


class SuiteError(Exception):
    """A malformed suite.json."""


def load_programs(size):
    """The benchmarks with their outer and inner iterations at size, as run.py's program dicts."""
    try:
        spec = json.loads(SUITE_FILE.read_text())["benchmarks"]
    except (OSError, ValueError, KeyError) as e:
        raise SuiteError(f"{SUITE_FILE}: {e}")
    programs = []
    for name, b in spec.items():
        if size not in b:
            raise SuiteError(f"{SUITE_FILE}: benchmark {name} has no size '{size}'")
        outer, inner = b[size]
        programs.append({"name": name, "size": f"{outer}x{inner}", "outer": outer, "inner": inner,
                         "expected": f"the harness's lines for {outer} verified iteration(s)",
                         "what": b.get("what", "")})
    return programs


def harness_total_us(stdout, prog):
    """The harness's total time in µs when stdout is a complete verified run, else None."""
    name = re.escape(prog["name"])
    lines = [ln for ln in stdout.splitlines() if ln.strip()]
    runs = [ln for ln in lines if re.fullmatch(rf"{name}: iterations=1 runtime: \d+us", ln)]
    total = re.fullmatch(r"Total Runtime: (\d+)us", lines[-1]) if lines else None
    if (not lines or lines[0] != f"Starting {prog['name']} benchmark ..." or len(runs) != prog["outer"]
            or not any(re.fullmatch(rf"{name}: iterations={prog['outer']} average: \d+us total: \d+us", ln)
                       for ln in lines) or total is None):
        return None
    return int(total.group(1))


def argv_tail(prog):
    return [prog["name"], str(prog.get("outer", "OUTER")), str(prog.get("inner", "INNER"))]


class HarnessOutput:
    """The check of a suite harness's output, for both languages' runners."""

    def check_output(self, result, prog):
        return harness_total_us(result.stdout, prog) is not None

    def extras(self, result, prog):
        return {"harness_total_us": harness_total_us(result.stdout, prog)}


class AwfyOursRunner(HarnessOutput, OursRunner):
    """Our VM on the Limbo ports: all compiled by our limbo into one directory (not timed)."""

    def __init__(self, name, build_dir, extra_args=None):
        super().__init__(name, build_dir, extra_args)
        self.cwd = AWFY_DIR  # without limbo, dis compiles harness.b and loads each NAME.b beside it
        self.harness = "harness.b"
        self.compiled = set()

    def compile(self, module, outdir):
        if module in self.compiled:
            return None
        out = outdir / f"{module}.dis"
        argv = [str(self.limbo), "-g", "-I", str(AWFY_DIR)]
        if (REPO_DIR / "module").is_dir():
            argv += ["-I", str(REPO_DIR / "module")]
        argv += ["-o", str(out), str(AWFY_DIR / f"{module}.b")]
        r = run_once(argv, outdir, 120)
        if r.status != 0 or not out.exists():
            return f"compile failed ({' '.join(argv)}): status {r.status}\n{r.stderr.strip()}"
        self.compiled.add(module)
        return None

    def prepare(self, prog, workdir):
        if not is_executable(self.limbo):
            return None
        outdir = workdir / ("awfy-" + self.name.replace("/", "_").replace(":", "_"))
        outdir.mkdir(parents=True, exist_ok=True)
        for module in SHARED_MODULES + (prog["name"].lower(),):
            err = self.compile(module, outdir)
            if err:
                return err
        self.cwd, self.harness = outdir, "harness.dis"
        return None

    def program_argv(self, prog):
        return [self.harness] + argv_tail(prog)

    def argv(self, prog):
        return [str(self.dis)] + self.extra_args + self.program_argv(prog)


class AwfyProbeRunner(HarnessOutput, ProbeRunner):
    """`cost` in one view on the harness and modules the plain runner compiled, in their directory."""


class AwfyLuaRunner(HarnessOutput, PeerRunner):
    """A Lua peer on the suite's Lua versions, run in their directory."""

    def __init__(self, name, prefix):
        super().__init__(name, prefix, "lua")
        self.cwd = LUA_DIR
        if not (LUA_DIR / "harness.lua").is_file():
            self.available = False
            self.note = f"{LUA_DIR} not found (it comes with ../shared): the Lua side is skipped"

    def argv(self, prog):
        return self.prefix + ["harness.lua"] + argv_tail(prog)
