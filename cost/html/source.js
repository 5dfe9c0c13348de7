'use strict';
// The source view: every module's source files as tabs, each line with its
// count, time and share of the program's own time in a gutter, coloured by
// that share; a click (or Enter) on an executed line opens its instructions'
// table, as the text report lists them.

// Heat levels h1..h9 start at these shares of the program's own time.
const HEAT = [0, 0.001, 0.003, 0.01, 0.02, 0.04, 0.07, 0.12, 0.18, 0.25];
const CHUNK = 500; // rows per block the browser may skip laying out

function heatLevel(share) {
  let h = 0;
  for (let i = 1; i < HEAT.length; i++) if (share >= HEAT[i]) h = i;
  return share > 0 && h === 0 ? 1 : h;
}

// The files to show: per module, each source file with text or lines.
function sourceFiles(R) {
  const files = [];
  for (const m of R.modules) {
    const src = (S.sources.find((s) => s.module === m.name) || {}).files || [];
    const idx = new Set(m.lines.map((l) => l.file));
    src.forEach((t, f) => { if (t && t.length) idx.add(f); });
    for (const f of [...idx].sort((a, b) => a - b)) {
      const name = f >= 0 ? (m.source_files || [])[f] || m.name + '.dis' : '(no source positions)';
      files.push({ m, f, name, text: f >= 0 ? src[f] || [] : [] });
    }
  }
  return files;
}

function renderSourceView(sec) {
  const R = S.report;
  const files = sourceFiles(R);
  const lead = el('div', { class: 'controls' });
  lead.innerHTML = heatLegend();
  sec.appendChild(lead);
  const tabs = el('div', { class: 'tabs', role: 'tablist', 'aria-label': 'Modules and files' });
  const box = el('div', { class: 'src' + (S.counts ? ' count' : '') + (R.memory ? ' mem' : '') });
  sec.appendChild(tabs);
  sec.appendChild(box);
  S.fileViews = files.map((fv, i) => {
    const t = el('button', { role: 'tab', 'aria-selected': 'false', 'data-file': i }, esc(fv.m.name + ': ' + fv.name));
    tabs.appendChild(t);
    fv.tab = t;
    fv.div = el('div', { class: 'file', hidden: true, 'data-module': fv.m.name, 'data-file': fv.f });
    box.appendChild(fv.div);
    t.onclick = () => showFile(i);
    return fv;
  });
  box.addEventListener('click', (ev) => {
    const row = ev.target.closest('.row.x');
    if (row) toggleOps(row);
  });
  box.addEventListener('keydown', onSourceKey);
  S.beforePrint = () => S.fileViews.forEach(finishFile);
  if (files.length) showFile(0);
  else box.innerHTML = '<p class="muted">No module ran.</p>';
}

function heatLegend() {
  let h = '<span class="legend">';
  h += S.counts ? 'share of all instructions executed:' : 'share of the program\u2019s own time (instructions, collector and scheduler; host preemption apart):';
  h += '<span class="scale">';
  for (let i = 1; i < HEAT.length; i++) h += `<span class="h${i}" title="${fmtPct(HEAT[i])} or more">${(100 * HEAT[i]).toFixed(HEAT[i] < 0.01 ? 1 : 0)}</span>`;
  h += '</span>% &nbsp; click a line, or Enter on it, for its instructions</span>';
  return h;
}

function showFile(i) {
  S.fileViews.forEach((fv, j) => {
    fv.tab.setAttribute('aria-selected', i === j ? 'true' : 'false');
    fv.div.hidden = i !== j;
  });
  drawFile(S.fileViews[i]);
  S.activeFile = i;
}

function gutterHead() {
  if (S.report.memory) return '<div class="gh"><span>line</span><span>instructions</span><span>share</span><span>allocated</span><span>source</span></div>';
  return S.counts
    ? '<div class="gh"><span>line</span><span>instructions</span><span>share</span><span>source</span></div>'
    : '<div class="gh"><span>line</span><span>instructions</span><span>time</span><span>share</span><span>source</span></div>';
}

// One row: its number, gutter and text; an executed line can be opened.
function rowHtml(fv, n, l, text) {
  const m = fv.m;
  const mem = !!S.report.memory;
  if (!l) {
    return `<div class="row"><span class="n">${n}</span><span class="g"></span>${S.counts && !mem ? '' : '<span class="g"></span>'}<span class="g"></span><code>${esc(text)}</code></div>`;
  }
  const v = lineValue(l);
  const share = S.denom > 0 ? v / S.denom : 0;
  const executed = l.instructions > 0;
  const heat = executed ? 'h' + heatLevel(share) : '';
  const attrs = executed ? ` tabindex="0" role="button" aria-expanded="false" data-m="${m.index}" data-f="${l.file}" data-l="${l.line}"` : '';
  const cells = S.counts
    ? `<span class="g c-count">${fmtInt(l.instructions)}</span><span class="g">${executed ? fmtPct(share) : ''}</span>` + (mem ? `<span class="g">${l.mem ? fmtBytes(l.mem.bytes) : ''}</span>` : '')
    : `<span class="g c-count">${fmtInt(l.instructions)}</span><span class="g">${executed ? fmtNs(l.total_ns) : ''}</span><span class="g">${executed ? fmtPct(share) : ''}</span>`;
  // A line not reproducible from run to run (--repeat) is marked '!'.
  const mark = l.reproducible === false ? '<b class="unrep" title="not reproducible from run to run">!</b>' : '';
  return `<div class="row ${executed ? 'x' : 'c'}"${attrs}><span class="n">${mark}${n}</span>${cells}<code class="${heat}">${esc(text)}</code></div>`;
}

// The first rows at once, the rest a few blocks at a time after, so a
// large file shows (and answers) at once; finishFile draws what is left.
function drawFile(fv) {
  if (fv.drawn) return;
  fv.drawn = true;
  const m = fv.m;
  const lines = m.lines.filter((l) => l.file === fv.f);
  const items = [];
  if (fv.f < 0) {
    for (const l of lines) items.push(['pc ' + l.line, l, l.ops && l.ops[0] ? l.ops[0].op : '']);
  } else {
    for (const l of lines) if (l.line < 1) items.push(['?', l, l.text || '']);
    let last = fv.text.length;
    for (const l of lines) last = Math.max(last, l.line);
    for (let n = 1; n <= last; n++) {
      const l = m.byKey.get(fv.f + ':' + n);
      const text = n <= fv.text.length ? fv.text[n - 1] : l ? l.text || '' : '';
      items.push([n, l, text]);
    }
  }
  fv.items = items;
  fv.next = 0;
  fv.div.innerHTML = `<h3 class="fname">${esc(m.name)}: ${esc(fv.name)}</h3>` + gutterHead();
  appendChunks(fv, 3);
  const more = () => {
    if (fv.next >= fv.items.length) return;
    appendChunks(fv, 4);
    setTimeout(more, 0);
  };
  setTimeout(more, 0);
}

function appendChunks(fv, n) {
  let h = '';
  for (; n > 0 && fv.next < fv.items.length; n--) {
    const end = Math.min(fv.items.length, fv.next + CHUNK);
    h += chunkOpen(end - fv.next);
    for (let i = fv.next; i < end; i++) h += rowHtml(fv, ...fv.items[i]);
    h += '</div>';
    fv.next = end;
  }
  if (h) fv.div.insertAdjacentHTML('beforeend', h);
}

function chunkOpen(rows) {
  return `<div class="chunk" style="--rows:${rows}">`;
}

function finishFile(fv) {
  drawFile(fv);
  appendChunks(fv, Infinity);
}

// Whether every file drawn so far is drawn whole.
function sourceComplete() {
  return (S.fileViews || []).every((fv) => !fv.drawn || fv.next >= fv.items.length);
}

function onSourceKey(ev) {
  const row = ev.target.closest('.row.x');
  if (!row) return;
  if (ev.key === 'Enter' || ev.key === ' ') {
    ev.preventDefault();
    toggleOps(row);
  } else if (ev.key === 'ArrowDown' || ev.key === 'ArrowUp') {
    ev.preventDefault();
    const all = [...row.closest('.file').querySelectorAll('.row.x')];
    const next = all[all.indexOf(row) + (ev.key === 'ArrowDown' ? 1 : -1)];
    if (next) next.focus();
  }
}

function lineOfRow(row) {
  const m = S.report.modules[+row.dataset.m];
  return m.byKey.get(row.dataset.f + ':' + row.dataset.l);
}

function toggleOps(row) {
  toggleBelow(row, () => {
    const l = lineOfRow(row);
    const box = el('div', { class: 'opsbox', role: 'region', 'aria-label': `instructions of line ${l.line}` });
    box.appendChild(opsTable(l));
    return box;
  });
}

// Opens make()'s box below an expandable row, or closes the open one.
function toggleBelow(row, make) {
  const next = row.nextElementSibling;
  if (next && next.classList.contains('opsbox')) {
    next.remove();
    row.setAttribute('aria-expanded', 'false');
    return;
  }
  row.after(make());
  row.setAttribute('aria-expanded', 'true');
}

const OP_KNOWN = ['op', 'pc', 'count', 'timed', 'sampled', 'total_ns', 'mean_ns', 'min_ns', 'max_ns', 'std_ns', 'median_ns', 'p99_ns'];
const LINE_KNOWN = ['file', 'line', 'text', 'instructions', 'total_ns', 'run_ns', 'ops', 'module', 'run_cv', 'reproducible', 'mem'];

// A line's instructions: op, pc, count, mean, min, max, std, median, p99
// (what else the report has per instruction follows as further columns).
function opsTable(l) {
  const ops = l.ops || [];
  const wrap = el('div');
  let cap = `${esc(l.module.name)} line ${l.line}: ${fmtInt(l.instructions)} instructions executed`;
  if (!S.counts) cap += `, ${fmtNs(l.total_ns)}`;
  if (l.run_ns && l.run_ns.length > 1) cap += '; ' + runSpread(l.run_ns);
  if (l.reproducible === false) cap += '; <b>not reproducible</b> from run to run at the chosen confidence';
  if (l.mem) cap += '; allocated ' + memSummary(l.mem);
  for (const k of Object.keys(l)) if (!LINE_KNOWN.includes(k)) cap += `; ${esc(k)} ${genericHtml(l[k])}`;
  wrap.appendChild(el('div', { class: 'cap' }, cap));
  const extra = [];
  for (const op of ops) for (const k of Object.keys(op)) if (!OP_KNOWN.includes(k) && !extra.includes(k)) extra.push(k);
  const sampled = ops.some((o) => o.sampled);
  const cols = [
    { key: 'op', label: 'op', left: true, fmt: (o) => `<b>${esc(o.op)}</b>` },
    { key: 'pc', label: 'pc' },
    { key: 'count', label: 'count', fmt: (o) => fmtInt(o.count) },
  ];
  if (!S.counts) {
    if (sampled) cols.push({ key: 'timed', label: 'timed', fmt: (o) => fmtInt(o.timed) });
    for (const [k, label] of [['mean_ns', 'mean'], ['min_ns', 'min'], ['max_ns', 'max'], ['std_ns', 'std'], ['median_ns', 'median'], ['p99_ns', 'p99'], ['total_ns', 'total']])
      cols.push({ key: k, label, fmt: (o) => (o.timed ? fmtNs(o[k]) : '') });
  }
  for (const k of extra) cols.push({ key: k, label: k, fmt: (o) => genericHtml(o[k]) });
  if (!S.counts && S.data.hist) cols.push({ key: 'h', label: '', fmt: (o) => (o.timed ? `<button class="link hist" data-pc="${o.pc}">histogram</button>` : '') });
  const t = makeTable(cols, ops, { limit: 1000 });
  t.addEventListener('click', (ev) => {
    const b = ev.target.closest('button.hist');
    if (b) showHistogram({ kind: 'pc', module: l.module.index, pc: +b.dataset.pc });
  });
  wrap.appendChild(t);
  return wrap;
}

function runSpread(runs) {
  const n = runs.length;
  const mean = runs.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(runs.reduce((a, b) => a + (b - mean) * (b - mean), 0) / (n - 1));
  return `runs ${n}: mean ${fmtNs(mean)}, std ${fmtNs(sd)} (${fmtPct(mean > 0 ? sd / mean : 0)})`;
}

// Shows the source at (module index, file, line), opening its table.
function goToLine(mi, file, line, open) {
  showView('source');
  const i = S.fileViews.findIndex((fv) => fv.m.index === mi && fv.f === file);
  if (i < 0) return;
  showFile(i);
  finishFile(S.fileViews[i]);
  const row = S.fileViews[i].div.querySelector(`.row.x[data-l="${line}"][data-f="${file}"]`);
  if (!row) return;
  if (open && row.getAttribute('aria-expanded') !== 'true') toggleOps(row);
  centerRow(row);
  row.focus({ preventScroll: true });
  row.classList.remove('flash');
  void row.offsetWidth;
  row.classList.add('flash');
}

// Scrolls the page to put the row in the middle of the window. Firefox's
// scrollIntoView does nothing for a row of a view just shown, while the
// row's box (laid out on demand) is right in every browser.
function centerRow(row) {
  const r = row.getBoundingClientRect();
  window.scrollTo(0, window.scrollY + r.top - (window.innerHeight - r.height) / 2);
}

// The line holding a pc's instruction, or the first executed one after it
// (a function's entry).
function lineAtPc(m, pc, end) {
  const ix = pcIndex(m);
  for (let p = Math.max(0, pc); p < ix.n && (end === undefined || p < end); p++) if (ix.line[p]) return ix.line[p];
  return null;
}
