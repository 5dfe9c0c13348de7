'use strict';
// The report's tables and charts: per function, per opcode, the top lines,
// where all the time went, and the sections no view knows.

function renderFunctions(sec) {
  const R = S.report;
  const rows = [];
  for (const m of R.modules)
    for (const f of m.functions || []) rows.push(Object.assign({ module: m }, f));
  const all = S.denom;
  const v = (r, k) => (S.counts ? r[k === 'ex' ? 'instructions' : 'inclusive_instructions'] : r[k === 'ex' ? 'exclusive_ns' : 'inclusive_ns']);
  const cols = [
    { key: 'module', label: 'module', left: true, fmt: (r) => esc(r.module.name), sort: (r) => r.module.name },
    { key: 'name', label: 'function', left: true, fmt: (r) => `<button class="link">${esc(r.name)}</button>` },
    { key: 'calls', label: 'calls', fmt: (r) => fmtInt(r.calls) },
    { key: 'ex', label: S.counts ? 'exclusive instructions' : 'exclusive', fmt: (r) => fmtValue(v(r, 'ex'), S.counts), sort: (r) => v(r, 'ex') },
    { key: 'exp', label: '%', fmt: (r) => fmtPct(all ? v(r, 'ex') / all : 0), sort: (r) => v(r, 'ex') },
    { key: 'in', label: S.counts ? 'inclusive instructions' : 'inclusive', fmt: (r) => (v(r, 'in') === undefined ? '' : fmtValue(v(r, 'in'), S.counts)), sort: (r) => v(r, 'in') },
    { key: 'inp', label: '%', fmt: (r) => (v(r, 'in') === undefined ? '' : fmtPct(all ? v(r, 'in') / all : 0)), sort: (r) => v(r, 'in') },
    { key: 'bar', label: 'exclusive share', cls: 'bar', fmt: (r) => bar(all ? v(r, 'ex') / all : 0), sort: (r) => v(r, 'ex') },
  ];
  if (!S.counts) cols.splice(5, 0, { key: 'instructions', label: 'instructions', fmt: (r) => fmtInt(r.instructions) });
  sec.appendChild(el('p', { class: 'muted' }, 'Exclusive: the function\u2019s own instructions. Inclusive: from entry to return, outermost activations only (a recursive call adds nothing), so it never exceeds the run. Click a function for its source.'));
  sec.appendChild(makeTable(cols, rows.filter((r) => r.instructions > 0 || r.calls > 0), {
    sortKey: 'ex',
    onRow: (r) => {
      const l = lineAtPc(r.module, r.pc, r.end_pc);
      if (l) goToLine(r.module.index, l.file, l.line, true);
    },
  }));
}

function bar(share) {
  return `<span class="hbar" style="width:${Math.max(0, Math.min(1, share)) * 120}px"></span>`;
}

function renderOps(sec) {
  const R = S.report;
  const all = S.denom;
  const cols = [
    { key: 'op', label: 'op', left: true, fmt: (o) => `<b>${esc(o.op)}</b>` },
    { key: 'class', label: 'class', left: true },
    { key: 'count', label: 'count', fmt: (o) => fmtInt(o.count) },
  ];
  if (!S.counts) {
    cols.push({ key: 'total_ns', label: 'total', fmt: (o) => fmtNs(o.total_ns) });
    cols.push({ key: 'share', label: '%', fmt: (o) => fmtPct(all ? o.total_ns / all : 0), sort: (o) => o.total_ns });
    for (const [k, label] of [['mean_ns', 'mean'], ['min_ns', 'min'], ['max_ns', 'max'], ['std_ns', 'std'], ['median_ns', 'median'], ['p99_ns', 'p99']])
      cols.push({ key: k, label, fmt: (o) => fmtNs(o[k]) });
    cols.push({ key: 'bar', label: 'share', cls: 'bar', fmt: (o) => bar(all ? o.total_ns / all : 0), sort: (o) => o.total_ns });
  } else {
    cols.push({ key: 'share', label: '%', fmt: (o) => fmtPct(all ? o.count / all : 0), sort: (o) => o.count });
    cols.push({ key: 'bar', label: 'share', cls: 'bar', fmt: (o) => bar(all ? o.count / all : 0), sort: (o) => o.count });
  }
  if (!S.counts) sec.appendChild(el('p', { class: 'muted' }, 'Every execution of an opcode, all modules. Click an opcode for the histogram of its times.'));
  sec.appendChild(makeTable(cols, R.ops || [], {
    sortKey: S.counts ? 'count' : 'total_ns',
    onRow: S.counts ? null : (o) => showHistogram({ kind: 'op', op: o.op }),
  }));
}

function renderTopLines(sec) {
  const R = S.report;
  const lines = [];
  for (const m of R.modules) for (const l of m.lines) if (l.instructions > 0) lines.push(l);
  lines.sort((a, b) => lineValue(b) - lineValue(a));
  const controls = el('div', { class: 'controls' }, '<label>lines <select><option>20</option><option selected>50</option><option>200</option><option>1000</option></select></label>');
  sec.appendChild(controls);
  const box = el('div');
  sec.appendChild(box);
  const draw = (n) => {
    const cols = [
      { key: 'rank', label: '#', fmt: (l) => lines.indexOf(l) + 1, sort: (l) => -lineValue(l) },
      { key: 'module', label: 'module', left: true, fmt: (l) => esc(l.module.name), sort: (l) => l.module.name },
      { key: 'line', label: 'line', fmt: (l) => `<button class="link">${esc(fileName(l))}:${l.line}</button>`, sort: (l) => l.line },
      { key: 'text', label: 'source', left: true, cls: 'code l', fmt: (l) => esc(lineText(l).trim()) },
      { key: 'instructions', label: 'instructions', fmt: (l) => fmtInt(l.instructions) },
    ];
    if (!S.counts) cols.push({ key: 'total_ns', label: 'time', fmt: (l) => fmtNs(l.total_ns) });
    cols.push({ key: 'share', label: 'share', fmt: (l) => fmtPct(S.denom ? lineValue(l) / S.denom : 0), sort: lineValue });
    cols.push({ key: 'bar', label: '', cls: 'bar', fmt: (l) => bar(S.denom ? lineValue(l) / S.denom : 0), sort: lineValue });
    box.innerHTML = '';
    box.appendChild(makeTable(cols, lines.slice(0, n), { onRow: (l) => goToLine(l.module.index, l.file, l.line, true), limit: n }));
  };
  controls.querySelector('select').onchange = (ev) => draw(+ev.target.value);
  draw(50);
}

function fileName(l) {
  const f = (l.module.source_files || [])[l.file];
  return f ? f.replace(/^.*\//, '') : l.module.name;
}

function lineText(l) {
  const src = (S.sources.find((s) => s.module === l.module.name) || {}).files || [];
  const t = src[l.file];
  return t && l.line >= 1 && l.line <= t.length ? t[l.line - 1] : l.text || '';
}

// Where all the time went: instructions by class, builtins, collector,
// scheduler (host preemption apart), as a bar chart and a table.
function renderProfile(sec) {
  const R = S.report;
  const p = R.profile || { entries: [] };
  const counts = p.unit === 'instructions';
  const entries = (p.entries || []).slice();
  sec.appendChild(el('p', { class: 'muted' }, counts
    ? 'Executions per opcode class, as shares of all instructions.'
    : `The program's own time (${fmtNs(p.own != null ? p.own : p.total)}): instructions by opcode class (the call class less the time inside builtins), each builtin, and the time outside instructions.` +
      (p.preempted > 0 ? ` Host preemption (${fmtNs(p.preempted)}) is the host's, not the program's, and is left out of the shares.` : '')));
  sec.appendChild(barChart(entries.map((e) => ({ label: e.what, value: e.value, pct: e.percent })), counts));
  const named = (title, list) => {
    if (!list || !list.length) return;
    sec.appendChild(el('h3', {}, esc(title)));
    const cols = [
      { key: 'name', label: 'name', left: true },
      { key: 'count', label: 'count', fmt: (r) => fmtInt(r.count) },
    ];
    if (!counts)
      for (const [k, label] of [['total_ns', 'total'], ['mean_ns', 'mean'], ['min_ns', 'min'], ['max_ns', 'max'], ['std_ns', 'std'], ['p99_ns', 'p99']])
        cols.push({ key: k, label, fmt: (r) => (r.timed ? fmtNs(r[k]) : '') });
    sec.appendChild(makeTable(cols, list, { sortKey: counts ? 'count' : 'total_ns' }));
  };
  named('Outside instructions', R.buckets);
  named('Builtins (time inside their mcall)', R.builtins);
  if (R.refcount_frees && R.refcount_frees.count) named('Reference-count frees (time inside instructions)', [Object.assign({ name: 'free' }, R.refcount_frees)]);
}

// Horizontal bars: [{label, value, pct}].
function barChart(items, counts) {
  const W = 860, rowH = 20, left = 230, right = 150;
  const H = items.length * rowH + 10;
  const svg = svgEl('svg', { class: 'chart', viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img', 'aria-label': 'where the time went' });
  const max = Math.max(1e-9, ...items.map((i) => i.pct || 0));
  items.forEach((it, i) => {
    const y = 5 + i * rowH;
    const w = ((it.pct || 0) / max) * (W - left - right);
    svg.appendChild(svgEl('text', { x: left - 6, y: y + 14, 'text-anchor': 'end' }, it.label));
    const kind = /^instructions/.test(it.label) ? '' : /^builtin/.test(it.label) ? ' builtin' : ' outside';
    const r = svgEl('rect', { class: 'bar' + kind, x: left, y: y + 3, width: Math.max(0.5, w), height: rowH - 6 });
    r.appendChild(svgEl('title', {}, `${it.label}: ${fmtValue(it.value, counts)} (${(it.pct || 0).toFixed(2)}%)`));
    svg.appendChild(r);
    svg.appendChild(svgEl('text', { x: left + w + 6, y: y + 14 }, `${(it.pct || 0).toFixed(1)}%  ${fmtValue(it.value, counts)}`));
  });
  return svg;
}

const REPORT_KNOWN = ['schema', 'program', 'mode', 'runs', 'sample_every', 'total_instructions', 'timer_read_ns', 'timer', 'base',
  'environment', 'accuracy', 'totals', 'modules', 'ops', 'buckets', 'builtins', 'refcount_frees', 'profile', 'quality', 'memory'];
const MODULE_KNOWN = ['name', 'source_files', 'lines', 'functions', 'call_sites', 'index', 'byKey', 'pcs'];

// Sections of the report no view knows (a later cost's additions).
function unknownSections(R) {
  const out = [];
  for (const k of Object.keys(R)) if (!REPORT_KNOWN.includes(k)) out.push({ title: k, value: R[k] });
  for (const m of R.modules) for (const k of Object.keys(m)) if (!MODULE_KNOWN.includes(k)) out.push({ title: `${m.name}: ${k}`, value: m[k] });
  return out;
}

function renderMore(sec) {
  sec.appendChild(el('p', { class: 'muted' }, 'Sections of the report that this page shows as they are.'));
  for (const s of unknownSections(S.report)) {
    sec.appendChild(el('h3', {}, esc(s.title)));
    sec.appendChild(el('div', {}, genericHtml(s.value)));
  }
}
