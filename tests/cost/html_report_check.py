#!/usr/bin/env python3
"""cost --format html, end to end (issue 40).

  html_report_check.py --bin BUILD/bin --source REPO --out DIR --stage parse|browser|firefox

parse: every sample (samples/*.b, samples/bench/*.b), --count, --repeat,
  --sample and --accuracy variants, a failing program, a --diff and a
  generated program of 10,000 lines and 200,000 pcs give pages that Python's
  html.parser finds well formed (every element closed in order, ids unique),
  that hold one data document matching the run, and that fetch nothing.
browser: headless Chromium (cdp_browser.py) loads pages from file URLs:
  no console error, every executed line shown with its count, a click and an
  Enter on a line open that line's instruction table, every view draws;
  screenshots, a printed PDF and the large page's load time go to DIR.
firefox: the same pages and checks (the print ones aside) in headless
  Firefox over WebDriver BiDi (bidi_browser.py); its screenshots go beside
  Chromium's, DIR/../browser/screenshots/firefox-*.png.
Exit status: 0 passed, 1 failed, 77 skipped (the reason on stdout).
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

SKIP = 77
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Failure(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failure(what)


# ---- the page as HTML ------------------------------------------------------

class PageChecker(HTMLParser):
    """Well-formedness as far as html.parser sees it, and what the page
    must not do: load anything (no src/href to elsewhere, no <link>)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.ids, self.errors = [], set(), []
        self.doctype = False
        self.data_scripts, self.scripts, self.styles = [], [], []
        self._in = None

    def handle_decl(self, decl):
        self.doctype = self.doctype or decl.lower() == "doctype html"

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            if a["id"] in self.ids:
                self.errors.append(f"duplicate id {a['id']}")
            self.ids.add(a["id"])
        for k in ("src", "href", "action"):
            if k in a and a[k] and not a[k].startswith("#"):
                self.errors.append(f"<{tag} {k}={a[k]}> loads something")
        if tag == "link":
            self.errors.append("<link> loads something")
        if tag == "script":
            self._in = "data" if a.get("type") == "application/json" else "script"
            self._buf = []
        elif tag == "style":
            self._in, self._buf = "style", []
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag in VOID:
            self.errors.append(f"</{tag}> closes a void element")
            return
        if not self.stack or self.stack[-1][0] != tag:
            self.errors.append(f"</{tag}> at {self.getpos()} does not close {self.stack[-1] if self.stack else 'anything'}")
            return
        self.stack.pop()
        if tag in ("script", "style") and self._in:
            text = "".join(self._buf)
            {"data": self.data_scripts, "script": self.scripts, "style": self.styles}[self._in].append(text)
            self._in = None

    def handle_data(self, data):
        if self._in:
            self._buf.append(data)


def decode(v):
    """The page's column tables back into objects (as the script does)."""
    if isinstance(v, list):
        return [decode(x) for x in v]
    if not isinstance(v, dict):
        return v
    if "$cols" in v and "$rows" in v:
        return decode_rows(v, v["$rows"])
    return {k: decode(x) for k, x in v.items()}


def decode_rows(schema, rows):
    cols, sub = schema["$cols"], schema.get("$sub", {})
    return [{k: decode_rows(sub[k], x) if k in sub else decode(x) for k, x in zip(cols, row) if x is not None}
            for row in rows]


_parsed = {}


def check_page(path):
    """Parses the page; returns its data document (decoded), parsed once
    per version of the file (the large page takes seconds)."""
    st = os.stat(path)
    key = (os.path.abspath(path), st.st_mtime_ns, st.st_size)
    if key not in _parsed:
        _parsed[key] = _check_page(path)
    return _parsed[key]


def _check_page(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    p = PageChecker()
    p.feed(text)
    p.close()
    check(p.doctype, f"{path}: no <!DOCTYPE html>")
    check(not p.errors, f"{path}: {p.errors[:5]}")
    check(not p.stack, f"{path}: unclosed elements {p.stack[:5]}")
    check(len(p.data_scripts) == 1 and len(p.scripts) == 1 and len(p.styles) == 1,
          f"{path}: {len(p.data_scripts)} data, {len(p.scripts)} script, {len(p.styles)} style elements")
    for code in p.scripts + p.styles:
        check(not re.search(r"@import|url\(\s*['\"]?(https?:)?//|fetch\(|XMLHttpRequest|import\(", code),
              f"{path}: the page's code fetches something")
    data = json.loads(p.data_scripts[0])
    check(data.get("kind") in ("report", "diff"), f"{path}: data kind {data.get('kind')}")
    for k in ("report", "a", "b", "lines", "call_paths"):
        if k in data:
            data[k] = decode(data[k])
    return data


def executed_lines(report):
    """{(module, file, line): instructions} of the lines whose code ran."""
    out = {}
    for m in report["modules"]:
        for l in m.get("lines", []):
            if l.get("instructions", 0) > 0:
                out[(m["name"], l["file"], l["line"])] = l["instructions"]
    return out


# ---- runs ------------------------------------------------------------------

class Runner:
    def __init__(self, args):
        self.bin, self.src, self.out = args.bin, args.source, args.out
        os.makedirs(self.out, exist_ok=True)

    def cost(self, name, argv, want_status=0):
        path = os.path.join(self.out, name + ".html")
        cmd = [os.path.join(self.bin, "cost"), "--format", "html", "--out", path] + argv
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
        check(r.returncode == want_status, f"{' '.join(cmd)}: status {r.returncode}, want {want_status}: {r.stderr[-400:]}")
        return path

    def json_report(self, name, argv):
        path = os.path.join(self.out, name + ".json")
        cmd = [os.path.join(self.bin, "cost"), "--format", "json", "--out", path] + argv
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
        check(r.returncode == 0, f"{' '.join(cmd)}: status {r.returncode}: {r.stderr[-400:]}")
        return path

    def diff(self, name, a, b):
        path = os.path.join(self.out, name + ".html")
        cost = os.path.join(self.bin, "cost")
        r = subprocess.run([cost, "--diff", a, b, "--format", "html", "--out", path], capture_output=True, text=True)
        check(r.returncode == 0, f"cost --diff --format html: status {r.returncode}: {r.stderr}")
        text = subprocess.run([cost, "--diff", a, b], capture_output=True, text=True).stdout
        return path, text

    def large_program(self):
        path = os.path.join(self.out, "large.b")
        subprocess.run([sys.executable, os.path.join(self.src, "tests/cost/gen_large_program.py"), path, "10000"], check=True)
        return path

    def sample(self, rel):
        return os.path.join(self.src, rel)


def check_report_page(path, argv, status=0):
    data = check_page(path)
    check(data["kind"] == "report", f"{path}: not a report page")
    r = data["report"]
    check(r["schema"] == "disvm-cost/1", f"{path}: schema {r['schema']}")
    check(data["outcome"]["status"] == status, f"{path}: outcome {data['outcome']}")
    counts = "--count" in argv
    check(r["mode"] == ("count" if counts else "time"), f"{path}: mode {r['mode']}")
    if "--repeat" in argv:
        check(r["runs"] == int(argv[argv.index("--repeat") + 1]), f"{path}: runs {r['runs']}")
    if "--sample" in argv:
        check(r["sample_every"] == int(argv[argv.index("--sample") + 1]), f"{path}: sample_every")
    lines = executed_lines(r)
    check(status != 0 or lines, f"{path}: no executed line")
    check(sum(lines.values()) == r["total_instructions"], f"{path}: line counts add to {sum(lines.values())}, not {r['total_instructions']}")
    # Every executed line's source text is on the page (sources, or its own).
    srcs = {s["module"]: s["files"] for s in data["sources"]}
    for (mod, f, n) in lines:
        files = srcs.get(mod, [])
        check(f < 0 or (f < len(files) and n <= len(files[f])) or any(
            l["line"] == n and "text" in l for m in r["modules"] if m["name"] == mod for l in m["lines"]),
            f"{path}: {mod} line {n} has no text")
    if not counts:
        check("hist" in data and data["hist"]["modules"], f"{path}: no histograms")
    check(data.get("call_paths"), f"{path}: no call-path tree")
    roots = [p for p in data["call_paths"] if p["parent"] < 0]
    check(roots and any(p["fn"] == "init" for p in roots), f"{path}: no init root in the call paths")
    return data


def stage_parse(run):
    pages = []
    samples = sorted(glob.glob(run.sample("samples/*.b")) + glob.glob(run.sample("samples/bench/*.b")))
    for s in samples:
        name = "sample-" + os.path.relpath(s, run.src).replace("/", "-")[:-2]
        # samples.b is a library module: no entry point, the page says so.
        status = 1 if os.path.basename(s) == "samples.b" else 0
        argv = ["-f", s]
        path = run.cost(name, argv, status)
        if status:
            data = check_page(path)
            check(data["outcome"]["status"] == 1 and "no entry point" in data["outcome"]["message"],
                  f"{path}: outcome {data['outcome']}")
        else:
            check_report_page(path, argv)
        pages.append(path)
    fib = run.sample("samples/fib.b")
    for name, extra in (("fib-count", ["--count"]), ("fib-repeat", ["--repeat", "3"]), ("fib-sample", ["--sample", "10"]),
                        ("loop-accuracy", ["--accuracy"])):
        prog = run.sample("samples/loop.b") if "accuracy" in name else fib
        argv = extra + ["-f", prog]
        data = check_report_page(run.cost(name, argv), argv)
        if "--repeat" in extra:
            check(any("run_ns" in l for m in data["report"]["modules"] for l in m["lines"]), "fib-repeat: no run_ns")
        if "--accuracy" in extra:
            check("accuracy" in data["report"] and data.get("accuracy_text"), "loop-accuracy: no accuracy")
    fails = run.sample("tests/cost/fixtures/html/fails.b")
    data = check_report_page(run.cost("fails", ["-f", fails], 1), ["-f", fails], status=1)
    check(data["outcome"]["where"].endswith("fails.b:17") and data["outcome"]["message"] == "array bounds error",
          f"fails: outcome {data['outcome']}")
    # The diff: counts differ everywhere fib runs (15 against 16).
    bench_fib = run.sample("samples/bench/fib.b")
    a = run.json_report("diff-a", ["--repeat", "3", "-f", bench_fib, "15"])
    b = run.json_report("diff-b", ["--repeat", "3", "-f", bench_fib, "16"])
    path, text = run.diff("diff", a, b)
    data = check_page(path)
    check(data["kind"] == "diff" and data["runs_each"], f"{path}: kind {data['kind']}")
    compared = sum(1 for d in data["lines"] if d["in"] == "both")
    check(re.search(rf"^{compared} lines compared", text, re.M), f"{path}: {compared} lines against the text's: {text[-200:]}")
    changed = sum(1 for d in data["lines"] if d["in"] == "both" and d["a_instructions"] != d["b_instructions"])
    check(re.search(rf", {changed} with different counts", text), f"{path}: {changed} count changes against the text's")
    check(changed > 0, f"{path}: no line changed")
    large = run.large_program()
    argv = ["--count", "-f", large]
    data = check_report_page(run.cost("large-count", argv), argv)
    pcs = sum(len(l.get("ops", [])) for m in data["report"]["modules"] for l in m["lines"])
    src_lines = sum(len(f) for s in data["sources"] for f in s["files"])
    check(pcs >= 200000 and src_lines >= 9900, f"large: {pcs} pcs, {src_lines} lines")
    print(f"parse: {len(pages) + 8} pages well formed (large: {src_lines} lines, {pcs} pcs executed)")


# ---- the browser -------------------------------------------------------------

ROWS_JS = """(async () => {
  const out = [];
  const tabs = [...document.querySelectorAll('#view-source .tabs button')];
  for (const t of tabs) {
    t.click();
    const fv = S.fileViews[+t.dataset.file];
    finishFile(fv);
    for (const r of fv.div.querySelectorAll('.row.x'))
      out.push([fv.m.name, +r.dataset.f, +r.dataset.l, r.querySelector('.c-count').textContent]);
  }
  if (tabs.length) tabs[0].click();
  return out;
})()"""

OPS_JS = """((sel) => { const r = document.querySelector(sel); const box = r && r.nextElementSibling;
  if (!box || !box.classList.contains('opsbox')) return null;
  return [...box.querySelectorAll('tbody tr')].map(tr => [...tr.cells].slice(0, 3).map(c => c.textContent)); })"""


def row_selector(mod_index, f, n):
    return f'#view-source .row.x[data-m="{mod_index}"][data-f="{f}"][data-l="{n}"]'


def expect_ops(report, mod, f, n):
    m = next(m for m in report["modules"] if m["name"] == mod)
    l = next(l for l in m["lines"] if l["file"] == f and l["line"] == n)
    return [[o["op"], str(o["pc"]), f"{o['count']:,}"] for o in l["ops"] if o["count"] > 0]


def browse_report(page, path, shots, name, views_shot=()):
    data = check_page(path)
    r = data["report"]
    ms = page.load("file://" + os.path.abspath(path))
    shown = page.eval(ROWS_JS)
    got = {(m, f, n): int(c.replace(",", "")) for m, f, n, c in shown}
    want = executed_lines(r)
    missing = [k for k in want if k not in got]
    check(not missing, f"{name}: executed lines not shown: {missing[:5]}")
    wrong = [(k, got[k], want[k]) for k in want if got[k] != want[k]]
    check(not wrong, f"{name}: wrong counts (line, shown, report): {wrong[:5]}")
    check(len(got) == len(want), f"{name}: {len(got) - len(want)} rows shown as executed that did not run")
    # A real click on the hottest line, Enter on the second: their tables.
    key = "instructions" if r["mode"] == "count" else "total_ns"
    hot = sorted(((l.get(key, 0), m["name"], mi, l["file"], l["line"]) for mi, m in enumerate(r["modules"])
                  for l in m["lines"] if l.get("instructions", 0) > 0), reverse=True)
    _, mod, mi, f, n = hot[0]
    if shots:
        page.screenshot(os.path.join(shots, f"{name}-page.png"))
    check(page.click(row_selector(mi, f, n) + " > code"), f"{name}: no row for line {n}")
    got_ops = page.eval(OPS_JS + f"({json.dumps(row_selector(mi, f, n))})")
    check(got_ops == expect_ops(r, mod, f, n), f"{name}: line {n}'s table {got_ops} is not {expect_ops(r, mod, f, n)}")
    if shots:
        page.screenshot(os.path.join(shots, f"{name}-line.png"))
    if len(hot) > 1:
        _, mod2, mi2, f2, n2 = hot[1]
        page.eval(f"goToLine({mi2}, {f2}, {n2}, false)")  # its file's tab, the row focused
        check(page.eval(f"document.activeElement === document.querySelector({json.dumps(row_selector(mi2, f2, n2))})"),
              f"{name}: line {n2} not focused")
        page.key("Enter", "Enter", 13)
        got2 = page.eval(OPS_JS + f"({json.dumps(row_selector(mi2, f2, n2))})")
        check(got2 == expect_ops(r, mod2, f2, n2), f"{name}: Enter on line {n2} opened {got2}")
    # Every view draws, by a click on its tab.
    for v in page.eval("Object.keys(S.views)"):
        check(page.click(f"#tab-{v}"), f"{name}: no tab {v}")
        check(page.eval(f"!document.getElementById('view-{v}').hidden && S.views['{v}'].drawn"), f"{name}: view {v} not shown")
        if v in views_shot and shots:
            page.screenshot(os.path.join(shots, f"{name}-{v}.png"))
    if r["mode"] == "time":
        page.click("#tab-hist")
        check(page.eval("document.querySelectorAll('#view-hist rect.bar').length") > 0, f"{name}: no histogram bars")
    page.click("#tab-flame")
    check(page.eval("document.querySelectorAll('#view-flame g.f').length") > 1, f"{name}: no flame graph")
    if r.get("memory"):
        check_memory_view(page, r, name)
    errors = [e for e in page.console_errors() if e[0] in ("exception", "console.error", "console.assert", "log", "request")
              and not (e[0] == "log" and "favicon" in e[1])]
    check(not errors, f"{name}: {errors[:5]}")
    return ms


def check_memory_view(page, r, name):
    """cost --mem's view: a row per line that allocated, the totals as the
    report has them, and a click on the biggest line lands on its source."""
    check(page.click("#tab-memory"), f"{name}: no Memory tab")
    lines = [(l["mem"]["bytes"], mi, l["file"], l["line"]) for mi, m in enumerate(r["modules"])
             for l in m["lines"] if l.get("mem")]
    rows = page.eval("[...document.querySelectorAll('#view-memory table')].map(t => t.querySelectorAll('tbody tr').length)")
    check(rows and rows[0] == min(len(lines), 500), f"{name}: memory view shows {rows} rows, the report has {len(lines)} lines")
    facts = page.eval("document.querySelector('#view-memory .facts').textContent")
    total = r["memory"]["total"]["allocs"]
    check(f"{total:,} objects" in facts, f"{name}: memory facts do not give {total:,} objects: {facts[:200]}")
    check("agree" in facts, f"{name}: the heap's counters do not agree with the sites: {facts[:300]}")
    # The table is sorted by bytes: its first row is one of the biggest lines.
    biggest = max(b for b, *_ in lines)
    sels = [row_selector(mi, f, n) for b, mi, f, n in lines if b == biggest]
    page.click("#view-memory table tbody tr:first-child button.link")
    check(page.eval(f"!document.getElementById('view-source').hidden && {json.dumps(sels)}"
                    ".some(s => document.activeElement === document.querySelector(s))"),
          f"{name}: a click on the memory view's first line did not land on a line of {biggest} bytes")


def later_section_page(path, out):
    """The page at path with a section no view knows added to its report."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r'(<script type="application/json" id="cost-data">)(.*?)(</script>)', text, re.S)
    data = json.loads(m.group(2))
    # "memory" is cost --mem's own view now; a name no view knows stands for
    # what a later cost adds.
    data["report"]["energy"] = {"allocated_bytes": 4096,
                                "by_line": [{"module": "Fib", "line": 15, "bytes": 1024},
                                            {"module": "Fib", "line": 17, "bytes": 3072}]}
    body = json.dumps(data).replace("<", "\\u003c")
    with open(out, "w", encoding="utf-8") as f:
        f.write(text[:m.start(2)] + body + text[m.end(2):])
    return out


def browser_pages(run, large_flags=()):
    """The pages both browsers load: [(name, path, views to screenshot)],
    the --diff page, the large page (run with large_flags)."""
    # The paper's loop (BASE), and bintrees at depth 12.
    base = run.cost("base", ["-f", run.sample("samples/paper/costbase.b")])
    bintrees = run.cost("bintrees", ["-f", run.sample("samples/bench/bintrees.b"), "12"])
    pages = [("base", base, ("overview", "hist")), ("bintrees", bintrees, ("profile", "flame", "functions"))]
    pages.append(("bintree-mem", run.cost("bintree-mem", ["--mem", "-f", run.sample("samples/bintree.b")]), ("memory",)))
    for name, extra in (("fib-count", ["--count"]), ("fib-repeat", ["--repeat", "3"]), ("fib-sample", ["--sample", "10"])):
        pages.append((name, run.cost(name, extra + ["-f", run.sample("samples/fib.b")]), ()))
    bench_fib = run.sample("samples/bench/fib.b")
    a = run.json_report("diff-a", ["--repeat", "3", "-f", bench_fib, "15"])
    b = run.json_report("diff-b", ["--repeat", "3", "-f", bench_fib, "16"])
    diff, _ = run.diff("diff", a, b)
    large = run.cost("large", list(large_flags) + ["-f", run.large_program()])
    return pages, diff, large


def browse_diff(page, diff, shots, name):
    """The diff: a changed line marked, both runs' tables on a click, the
    other views drawn without an error; a screenshot of the side by side."""
    data = check_page(diff)
    page.load("file://" + os.path.abspath(diff))
    changed = next(d for d in data["lines"] if d["in"] == "both" and d["a_instructions"] != d["b_instructions"])
    sel = f'#view-side .row.x[data-module="{changed["module"]}"][data-f="{changed["file"]}"][data-l="{changed["line"]}"]'
    check(page.eval(f"document.querySelector({json.dumps(sel)}).classList.contains('cnt')"), f"{name}: a changed line not marked")
    check(page.click(sel + " > code"), f"{name}: no row to click")
    check(page.eval(f"document.querySelectorAll({json.dumps(sel)} + ' + .opsbox table').length") == 2, f"{name}: not both tables")
    page.screenshot(os.path.join(shots, f"{name}-side.png"))
    for v in ("changes", "runs"):
        check(page.click(f"#tab-{v}"), f"{name}: no tab {v}")
    errors = [e for e in page.console_errors() if e[0] in ("exception", "console.error", "request")]
    check(not errors, f"{name}: {errors[:5]}")


def stage_browser(run):
    from cdp_browser import Browser, find_chromium
    if not find_chromium():
        print("skipped: no chromium on this machine (scripts/setup.sh installs Debian's)")
        return SKIP
    shots = os.path.join(run.out, "screenshots")
    os.makedirs(shots, exist_ok=True)
    pages, diff, large = browser_pages(run)
    base = pages[0][1]
    with Browser.start() as br:
        page = br.new_page(1400, 900)
        for name, path, views in pages:
            browse_report(page, path, shots, name, views)
        page.load("file://" + os.path.abspath(base))
        page.pdf(os.path.join(run.out, "base.pdf"))
        with open(os.path.join(run.out, "base.pdf"), "rb") as f:
            check(f.read(5) == b"%PDF-", "base.pdf: not a PDF")
        # As printed: every view, one after another, without the controls.
        page.send("Emulation.setEmulatedMedia", {"media": "print"})
        page.eval("drawAllViews()")
        check(page.eval("[...document.querySelectorAll('.view')].every(v => getComputedStyle(v).display === 'block')"),
              "print: a view is not shown")
        check(page.eval("getComputedStyle(document.getElementById('nav')).display") == "none", "print: the tabs are shown")
        page.screenshot(os.path.join(shots, "base-print.png"))
        page.send("Emulation.setEmulatedMedia", {"media": ""})
        # A section a later cost adds (one no view knows) is shown as it is.
        later = later_section_page(pages[2][1], os.path.join(run.out, "later.html"))
        page.load("file://" + os.path.abspath(later))
        check(page.click("#tab-more"), "later: no More view")
        text = page.eval("document.getElementById('view-more').textContent")
        check("energy" in text and "allocated_bytes" in text and "4,096" in text and "Fib" in text,
              f"later: the section is not shown: {text[:200]}")
        check(not [e for e in page.console_errors() if e[0] in ("exception", "console.error")], "later: errors")
        browse_diff(page, diff, shots, "diff")
        # The largest page: load time, median of three loads.
        times = []
        for _ in range(3):
            ms = page.load("file://" + os.path.abspath(large))
            times.append((ms, page.eval("S.loadMs"),
                          page.eval("new Promise(r => requestAnimationFrame(() => setTimeout(() => r(performance.now()))))")))
        times.sort()
        ms, boot, frame = times[1]
        browse_report(page, large, shots, "large")
        check_jump(page, large, "large")
        data = check_page(large)
        pcs = sum(len(l.get("ops", [])) for m in data["report"]["modules"] for l in m["lines"])
        size = os.path.getsize(large)
        print(f"browser: large page {size / 1e6:.1f} MB, {pcs} pcs ({size / pcs * 1000 / 1e3:.0f} kB per 1,000 pcs): "
              f"ready {ms:.0f} ms after navigation (script {boot:.0f} ms), first frame at {frame:.0f} ms (median of 3)")
    print(f"browser: {len(pages) + 2} pages checked; screenshots in {shots}")
    return 0


def check_jump(page, path, name):
    """goToLine to a line just past a chunk boundary of the large page lands
    it in view once the chunks around it are laid out (skipped chunks'
    stand-in heights once moved it off screen in Firefox)."""
    r = check_page(path)["report"]
    mi, m = next((i, m) for i, m in enumerate(r["modules"]) if len(m["lines"]) > 3000)
    l = next(l for l in m["lines"] if l["line"] > 3005 and l.get("instructions", 0) > 0)
    page.eval(f"goToLine({mi}, {l['file']}, {l['line']}, false)")
    top, bottom, height = page.eval(f"""new Promise(done => setTimeout(() => {{
        const r = document.querySelector({json.dumps(row_selector(mi, l['file'], l['line']))}).getBoundingClientRect();
        done([r.top, r.bottom, innerHeight]); }}, 500))""")
    check(0 <= top and bottom <= height, f"{name}: line {l['line']} at {top:.0f}..{bottom:.0f} after goToLine, not in 0..{height}")


def stage_firefox(run):
    """The essentials again in headless Firefox (bidi_browser.py): no error,
    every executed line with its count, clicks and Enter open the right
    tables, every view draws, the diff's tables, the large page."""
    from bidi_browser import Browser, find_firefox
    if not find_firefox():
        print("skipped: no firefox-esr on this machine (scripts/setup.sh installs Debian's)")
        return SKIP
    # Beside Chromium's, so CI keeps both browsers' pictures in one place.
    shots = os.path.join(run.out, "..", "browser", "screenshots")
    os.makedirs(shots, exist_ok=True)
    # The large page counted, not timed: half the run, the same rows to lay out.
    pages, diff, large = browser_pages(run, ["--count"])
    with Browser.start() as br:
        page = br.new_page(1400, 900)
        for name, path, views in pages:
            browse_report(page, path, shots, "firefox-" + name, views)
        page.load("file://" + os.path.abspath(pages[0][1]))
        page.pdf(os.path.join(run.out, "base.pdf"))
        with open(os.path.join(run.out, "base.pdf"), "rb") as f:
            check(f.read(5) == b"%PDF-", "firefox base.pdf: not a PDF")
        browse_diff(page, diff, shots, "firefox-diff")
        ms = browse_report(page, large, None, "firefox-large")
        boot = page.eval("S.loadMs")
        check_jump(page, large, "firefox-large")
        version = br.version
    print(f"firefox: {version}: {len(pages) + 2} pages checked, the large one ready {ms:.0f} ms after navigation "
          f"(script {boot:.0f} ms); screenshots in {os.path.normpath(shots)}/firefox-*.png")
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--stage", choices=("parse", "browser", "firefox"), required=True)
    args = ap.parse_args()
    run = Runner(args)
    try:
        if args.stage == "parse":
            stage_parse(run)
            return 0
        return stage_browser(run) if args.stage == "browser" else stage_firefox(run)
    except Failure as e:
        print("FAILED:", e)
        return 1


if __name__ == "__main__":
    sys.exit(main())
