'use strict';
// The page's start: reads the embedded data, builds the views' tabs and
// shows the first view. Each view is drawn the first time it is shown, and
// every view before printing (all of them print, one after another).

// A view: a tab in the nav and a section; render(section) draws it once.
function addView(id, label, render) {
  const nav = document.getElementById('nav');
  const main = document.getElementById('main');
  const tab = el('button', { role: 'tab', id: 'tab-' + id, 'aria-controls': 'view-' + id, 'aria-selected': 'false' }, esc(label));
  const sec = el('section', { class: 'view', id: 'view-' + id, role: 'tabpanel', 'aria-labelledby': 'tab-' + id, hidden: true });
  sec.appendChild(el('h2', {}, esc(label)));
  nav.appendChild(tab);
  main.appendChild(sec);
  S.views[id] = { id, tab, sec, render, drawn: false };
  tab.addEventListener('click', () => showView(id));
  tab.addEventListener('keydown', (ev) => {
    if (ev.key !== 'ArrowRight' && ev.key !== 'ArrowLeft') return;
    const ids = Object.keys(S.views);
    const next = ids[(ids.indexOf(id) + (ev.key === 'ArrowRight' ? 1 : ids.length - 1)) % ids.length];
    showView(next);
    S.views[next].tab.focus();
  });
}

function drawView(v) {
  if (v.drawn) return;
  v.drawn = true;
  v.render(v.sec);
}

function showView(id) {
  const v = S.views[id];
  if (!v) return null;
  for (const w of Object.values(S.views)) {
    const on = w === v;
    w.tab.setAttribute('aria-selected', on ? 'true' : 'false');
    w.tab.tabIndex = on ? 0 : -1;
    w.sec.hidden = !on;
  }
  S.current = id;
  drawView(v);
  return v.sec;
}

function drawAllViews() {
  for (const v of Object.values(S.views)) drawView(v);
  if (S.beforePrint) S.beforePrint();
}

function showFatal(e) {
  const main = document.getElementById('main');
  main.prepend(el('p', { class: 'fatal' }, 'This page could not be drawn: ' + esc(e && e.message ? e.message : e)));
}

function boot() {
  const t0 = performance.now();
  S.data = JSON.parse(document.getElementById('cost-data').textContent);
  if (S.data.kind === 'diff') bootDiff();
  else bootReport();
  window.addEventListener('beforeprint', drawAllViews);
  S.loadMs = performance.now() - t0;
  document.body.dataset.ready = '1';
}

function bootReport() {
  const R = decode(S.data.report);
  S.report = R;
  S.counts = R.mode === 'count';
  S.sources = S.data.sources || [];
  S.paths = S.data.call_paths ? decode(S.data.call_paths) : null;
  S.outcome = S.data.outcome || { status: 0 };
  indexReport(R);
  renderSummary(R);
  addView('source', 'Source', renderSourceView);
  if (R.memory) addView('memory', 'Memory', renderMemory);
  addView('overview', 'Run and accuracy', renderOverview);
  addView('functions', 'Functions', renderFunctions);
  addView('ops', 'Opcodes', renderOps);
  addView('top', 'Top lines', renderTopLines);
  addView('profile', 'Where the time went', renderProfile);
  if (!S.counts) addView('hist', 'Histograms', renderHistogramView);
  addView('flame', 'Flame graph', renderFlame);
  if (unknownSections(R).length) addView('more', 'More', renderMore);
  showView('source');
}

// The program's own time for the heat (host preemption apart), and the
// modules indexed.
function indexReport(R) {
  indexModules(R);
  S.ownNs = R.ownNs;
  S.denom = S.counts ? (R.totals || {}).instructions || R.total_instructions || 0 : S.ownNs;
}

// Per module: its lines by (file, line); R.ownNs: the attributed time less
// host preemption.
function indexModules(R) {
  const t = R.totals || {};
  let preempted = 0;
  for (const b of R.buckets || []) if (b.name === 'preempted') preempted += b.total_ns || 0;
  // Not enumerable: it is no section of the report.
  Object.defineProperty(R, 'ownNs', { value: Math.max(0, (t.attributed_ns || 0) - preempted) });
  R.modules.forEach((m, mi) => {
    m.index = mi;
    m.lines = m.lines || [];
    m.byKey = new Map();
    for (const l of m.lines) {
      l.module = m;
      m.byKey.set(l.file + ':' + l.line, l);
    }
  });
}

// Per module, per pc: its line, opcode and time (count mode: count) if it
// ran, from the stored rows (no object per instruction).
function pcIndex(m) {
  if (m.pcs) return m.pcs;
  let n = 0;
  const all = m.lines.map((l) => {
    const t = rawRows(l, 'ops');
    const ipc = t.cols.indexOf('pc');
    for (const r of t.raw) n = Math.max(n, r[ipc] + 1);
    return t;
  });
  const pcs = { line: new Array(n).fill(null), op: new Array(n).fill(null), value: new Float64Array(n), n };
  m.lines.forEach((l, li) => {
    const { cols, raw } = all[li];
    const ipc = cols.indexOf('pc'), iop = cols.indexOf('op'), icount = cols.indexOf('count'), imean = cols.indexOf('mean_ns'), itimed = cols.indexOf('timed');
    for (const r of raw) {
      const pc = r[ipc];
      pcs.line[pc] = l;
      pcs.op[pc] = r[iop];
      const timed = itimed >= 0 ? r[itimed] : 0;
      pcs.value[pc] = S.counts ? r[icount] : timed > 0 ? r[imean] * r[icount] : 0;
    }
  });
  m.pcs = pcs;
  return pcs;
}

// The record of the instruction at pc (its line's instructions restored).
function opAt(m, pc) {
  const l = pcIndex(m).line[pc];
  return l ? (l.ops || []).find((o) => o.pc === pc) : null;
}

// A line's value for the heat and the rankings: time, or instructions.
function lineValue(l) {
  return S.counts ? l.instructions || 0 : l.total_ns || 0;
}

function renderSummary(R) {
  const s = document.getElementById('summary');
  const o = S.outcome;
  const t = R.totals || {};
  const parts = [];
  parts.push(o.status === 0 ? '<span class="badge ok">exit 0</span>' : `<span class="badge fail">failed: ${esc(o.message || 'status ' + o.status)}</span>`);
  parts.push(`<span>${S.counts ? 'counts only' : 'timed'}${R.runs > 1 ? `, <b>${R.runs}</b> runs merged` : ''}${R.sample_every ? `, about 1 in <b>${fmtInt(R.sample_every)}</b> executions timed` : ''}</span>`);
  parts.push(`<span><b>${fmtInt(R.total_instructions)}</b> instructions</span>`);
  if (!S.counts) {
    parts.push(`<span>attributed <b>${fmtNs(t.attributed_ns)}</b></span>`);
    if (t.wall_ns) parts.push(`<span>wall <b>${fmtNs(t.wall_ns)}</b></span>`);
    if (R.base) parts.push(`<span>base <b>${esc(R.base.policy)}</b> ${fmtNs(R.base.ns)}</span>`);
    const q = R.quality;
    if (q && q.accuracy && q.accuracy.estimated) parts.push(`<span>own time within <b>\u00b1${fmtPct(q.accuracy.share)}</b> (estimate)</span>`);
  }
  if (R.memory) parts.push(`<span>allocated <b>${fmtBytes(R.memory.total.bytes)}</b> in ${fmtInt(R.memory.total.allocs)} objects</span>`);
  const w = warnings(R).filter((x) => x.level !== 'info').length;
  if (w) parts.push(`<button class="link" id="warn-link"><span class="badge note">${w} warning${w > 1 ? 's' : ''}</span></button>`);
  s.innerHTML = parts.join('');
  const wl = document.getElementById('warn-link');
  if (wl) wl.onclick = () => showView('overview');
}

document.addEventListener('DOMContentLoaded', () => {
  try {
    boot();
  } catch (e) {
    showFatal(e);
    throw e;
  }
});
