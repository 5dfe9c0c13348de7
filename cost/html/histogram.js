'use strict';
// Histograms of an instruction's times (the paper's Figures 3 and 4): all
// observations, then with one layer of outliers removed (those more than two
// standard deviations from the mean, as the paper's plot -o). Drawn from the
// report's own per-pc histograms (log-linear buckets, within 1/16 of each
// value), re-binned into equal widths over a linear axis.

const BINS = 60;

// Per module name: pc -> its delta-coded (bucket step, count) list.
function histIndex() {
  if (S.histIndex) return S.histIndex;
  S.histIndex = new Map();
  const H = S.data.hist;
  if (H) for (const m of H.modules) {
    const map = new Map();
    m.pcs.forEach((pc, i) => map.set(pc, m.h[i]));
    S.histIndex.set(m.module, map);
  }
  return S.histIndex;
}

// Adds one pc's buckets into acc (bucket index -> count).
function addPcHist(acc, moduleName, pc) {
  const m = histIndex().get(moduleName);
  const h = m && m.get(pc);
  if (!h) return;
  let b = 0;
  for (let i = 0; i < h.length; i += 2) {
    b += h[i];
    acc.set(b, (acc.get(b) || 0) + h[i + 1]);
  }
}

// What a selection means: its buckets and its record's statistics.
function histSelection(sel) {
  const R = S.report;
  const acc = new Map();
  if (sel.kind === 'pc') {
    const m = R.modules[sel.module];
    addPcHist(acc, m.name, sel.pc);
    const op = opAt(m, sel.pc) || {};
    const l = pcIndex(m).line[sel.pc];
    return { acc, rec: op, title: `${op.op} at pc ${sel.pc}, ${m.name} line ${l ? l.line : '?'}` + (l ? `: ${lineText(l).trim()}` : ''), line: l };
  }
  for (const m of R.modules) {
    const ix = pcIndex(m);
    for (let pc = 0; pc < ix.n; pc++) if (ix.op[pc] === sel.op) addPcHist(acc, m.name, pc);
  }
  const rec = (R.ops || []).find((o) => o.op === sel.op) || {};
  return { acc, rec, title: `every ${sel.op} (all pcs merged)` };
}

// The n timed pcs with the most time, all modules: [{m, pc, v}].
function hottestPcs(R, n) {
  let top = [];
  let floor = 0;
  for (const m of R.modules) {
    const ix = pcIndex(m);
    for (let pc = 0; pc < ix.n; pc++) {
      const v = ix.value[pc];
      if (v <= floor) continue;
      top.push({ m, pc, v });
      if (top.length >= 4 * n) {
        top.sort((a, b) => b.v - a.v);
        top = top.slice(0, n);
        floor = top[n - 1].v;
      }
    }
  }
  return top.sort((a, b) => b.v - a.v).slice(0, n);
}

function showHistogram(sel) {
  S.histSel = sel;
  const sec = showView('hist');
  if (sec && S.histDraw) S.histDraw();
}

function renderHistogramView(sec) {
  const R = S.report;
  const top = hottestPcs(R, 300);
  const controls = el('div', { class: 'controls' });
  let opts = '<optgroup label="instructions (the 300 with the most time)">';
  for (const x of top) {
    const l = pcIndex(x.m).line[x.pc];
    opts += `<option value="pc:${x.m.index}:${x.pc}">${esc(pcIndex(x.m).op[x.pc])} pc ${x.pc} \u2014 ${esc(x.m.name)} line ${l ? l.line : '?'} (${fmtNs(x.v)})</option>`;
  }
  opts += '</optgroup><optgroup label="opcodes (all pcs)">';
  for (const o of R.ops || []) if (o.timed > 0) opts += `<option value="op:${esc(o.op)}">${esc(o.op)} (${fmtNs(o.total_ns)})</option>`;
  opts += '</optgroup>';
  controls.innerHTML = `<label>instruction <select id="hist-select">${opts}</select></label><span class="muted">or choose one from a line's table (histogram) or the opcodes</span>`;
  sec.appendChild(controls);
  const out = el('div');
  sec.appendChild(out);
  const select = controls.querySelector('select');
  if (!S.histSel && top.length) S.histSel = { kind: 'pc', module: top[0].m.index, pc: top[0].pc };
  select.onchange = () => {
    const [k, a, b] = select.value.split(':');
    S.histSel = k === 'pc' ? { kind: 'pc', module: +a, pc: +b } : { kind: 'op', op: a };
    S.histDraw();
  };
  S.histDraw = () => {
    const sel = S.histSel;
    if (!sel) {
      out.innerHTML = '<p class="muted">No instruction was timed.</p>';
      return;
    }
    const v = sel.kind === 'pc' ? `pc:${sel.module}:${sel.pc}` : `op:${sel.op}`;
    if ([...select.options].some((o) => o.value === v)) select.value = v;
    drawHistograms(out, histSelection(sel));
  };
  S.histDraw();
}

function drawHistograms(out, h) {
  const rec = h.rec;
  const buckets = [...h.acc.entries()].sort((a, b) => a[0] - b[0]).map(([b, c]) => ({ lo: S.data.hist.low_ns[b], w: S.data.hist.width_ns[b], c }));
  out.innerHTML = '';
  out.appendChild(el('h3', {}, esc(h.title)));
  const stats = `${fmtInt(rec.timed)} timed of ${fmtInt(rec.count)} executions; mean ${fmtNs(rec.mean_ns)}, min ${fmtNs(rec.min_ns)}, max ${fmtNs(rec.max_ns)}, std ${fmtNs(rec.std_ns)}, median ${fmtNs(rec.median_ns)}, p99 ${fmtNs(rec.p99_ns)}`;
  out.appendChild(el('p', { class: 'muted' }, stats));
  if (h.line) {
    const b = el('p', {}, '<button class="link">show its line</button>');
    b.querySelector('button').onclick = () => goToLine(h.line.module.index, h.line.file, h.line.line, true);
    out.appendChild(b);
  }
  if (!buckets.length) {
    out.appendChild(el('p', { class: 'muted' }, 'No timed observation.'));
    return;
  }
  const lo = Math.max(0, rec.mean_ns - 2 * rec.std_ns), hi = rec.mean_ns + 2 * rec.std_ns;
  const kept = rec.std_ns > 0 ? buckets.filter((b) => b.lo + b.w / 2 >= lo && b.lo + b.w / 2 <= hi) : buckets;
  const removed = buckets.reduce((a, b) => a + b.c, 0) - kept.reduce((a, b) => a + b.c, 0);
  const charts = el('div', { class: 'charts2' });
  charts.appendChild(histChart(buckets, 'all observations', Math.max(rec.min_ns || 0, 0), rec.max_ns));
  charts.appendChild(histChart(kept, `one layer of outliers removed (${fmtInt(removed)} beyond mean \u00b1 2 std)`));
  out.appendChild(charts);
}

// Equal-width bins over [from, to]; each bucket's count spread over the
// bins its range covers.
function histChart(buckets, title, from, to) {
  const W = 560, H = 260, L = 56, B = 40, T = 24, Rm = 12;
  const svg = svgEl('svg', { class: 'chart', viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img', 'aria-label': title });
  svg.appendChild(svgEl('text', { x: W / 2, y: 14, 'text-anchor': 'middle' }, title));
  if (!buckets.length) return svg;
  let x0 = from !== undefined ? from : buckets[0].lo;
  let x1 = to !== undefined && to > x0 ? to : buckets[buckets.length - 1].lo + buckets[buckets.length - 1].w;
  x0 = Math.min(x0, buckets[0].lo);
  x1 = Math.max(x1, x0 + 1e-3);
  const bins = new Array(BINS).fill(0);
  const bw = (x1 - x0) / BINS;
  for (const b of buckets) {
    const a = Math.max(b.lo, x0), z = Math.min(b.lo + b.w, x1);
    if (z <= a) {
      bins[Math.min(BINS - 1, Math.max(0, Math.floor((b.lo - x0) / bw)))] += b.c;
      continue;
    }
    for (let i = Math.max(0, Math.floor((a - x0) / bw)); i < BINS && x0 + i * bw < z; i++) {
      const s = Math.max(a, x0 + i * bw), e = Math.min(z, x0 + (i + 1) * bw);
      if (e > s) bins[i] += (b.c * (e - s)) / (z - a);
    }
  }
  const ymax = Math.max(...bins, 1);
  const pw = W - L - Rm, ph = H - T - B;
  bins.forEach((c, i) => {
    if (c <= 0) return;
    const h = (c / ymax) * ph;
    const r = svgEl('rect', { class: 'bar', x: L + (i * pw) / BINS, y: T + ph - h, width: Math.max(0.5, pw / BINS - 1), height: Math.max(0.5, h) });
    r.appendChild(svgEl('title', {}, `${fmtNs(x0 + i * bw)} \u2013 ${fmtNs(x0 + (i + 1) * bw)}: ${fmtInt(c)}`));
    svg.appendChild(r);
  });
  svg.appendChild(svgEl('line', { class: 'axis', x1: L, y1: T + ph, x2: L + pw, y2: T + ph }));
  svg.appendChild(svgEl('line', { class: 'axis', x1: L, y1: T, x2: L, y2: T + ph }));
  for (const t of niceTicks(x0, x1, 5)) {
    const x = L + ((t - x0) / (x1 - x0)) * pw;
    svg.appendChild(svgEl('line', { class: 'axis', x1: x, y1: T + ph, x2: x, y2: T + ph + 4 }));
    svg.appendChild(svgEl('text', { x, y: T + ph + 16, 'text-anchor': 'middle' }, fmtNs(t)));
  }
  for (const t of niceTicks(0, ymax, 4)) {
    const y = T + ph - (t / ymax) * ph;
    svg.appendChild(svgEl('text', { x: L - 6, y: y + 4, 'text-anchor': 'end' }, fmtInt(t)));
  }
  svg.appendChild(svgEl('text', { x: L + pw / 2, y: H - 4, 'text-anchor': 'middle' }, 'time per execution'));
  return svg;
}
