'use strict';
// cost --mem (cost_mem.h): what each line and function allocated, by kind,
// what reference counting and the collector freed, what was live at exit,
// checked against the heap's own counters, and the collector's cycles.

function fmtBytes(b) {
  if (!(b > 0)) return '0 B';
  if (b < 1024) return fmtInt(b) + ' B';
  if (b < 1024 * 1024) return (b / 1024).toFixed(1) + ' KiB';
  if (b < 1024 * 1024 * 1024) return (b / (1024 * 1024)).toFixed(1) + ' MiB';
  return (b / (1024 * 1024 * 1024)).toFixed(2) + ' GiB';
}

// "adt 5,120 (120.0 KiB), string 4 (192 B)"
function memKinds(m) {
  return Object.entries(m.by_kind || {}).map(([k, v]) => `${esc(k)} ${fmtInt(v.allocs)} (${fmtBytes(v.bytes)})`).join(', ') || 'none';
}

// What a site allocated and what became of it, in one line.
function memSummary(m) {
  return `${fmtInt(m.allocs)} allocations, ${fmtBytes(m.bytes)}: ${memKinds(m)}; freed by reference counting ${fmtBytes(m.freed_refcount_bytes)}, by the collector ${fmtBytes(m.freed_collector_bytes)}; live at exit ${fmtBytes(m.live_bytes)}`;
}

// The columns of a table of sites (rows carry their site in .mem).
function memColumns(first, total) {
  const b = (r) => r.mem.bytes;
  return first.concat([
    { key: 'allocs', label: 'allocations', fmt: (r) => fmtInt(r.mem.allocs), sort: (r) => r.mem.allocs },
    { key: 'bytes', label: 'bytes', fmt: (r) => fmtBytes(b(r)), sort: b },
    { key: 'share', label: '%', fmt: (r) => fmtPct(total ? b(r) / total : 0), sort: b },
    { key: 'rc', label: 'freed by counts', fmt: (r) => fmtBytes(r.mem.freed_refcount_bytes), sort: (r) => r.mem.freed_refcount_bytes },
    { key: 'gc', label: 'freed by the collector', fmt: (r) => fmtBytes(r.mem.freed_collector_bytes), sort: (r) => r.mem.freed_collector_bytes },
    { key: 'live', label: 'live at exit', fmt: (r) => fmtBytes(r.mem.live_bytes), sort: (r) => r.mem.live_bytes },
    { key: 'kinds', label: 'by kind', left: true, fmt: (r) => memKinds(r.mem), sort: (r) => Object.keys(r.mem.by_kind || {}).join() },
    { key: 'bar', label: 'share of the bytes', cls: 'bar', fmt: (r) => bar(total ? b(r) / total : 0), sort: b },
  ]);
}

function memFacts(M) {
  const t = M.total, h = M.heap, c = M.collector;
  const agree = t.allocs === h.allocs && t.bytes === h.bytes && t.freed_refcount === h.freed_refcount && t.freed_collector === h.freed_collector;
  const parts = [];
  parts.push(factSection('Allocations', kv([
    ['allocated', `${fmtInt(t.allocs)} objects, ${fmtBytes(t.bytes)} (whole blocks, headers included)`],
    ['by kind', memKinds(t)],
    ['freed by reference counting', `${fmtInt(t.freed_refcount)} (${fmtBytes(t.freed_refcount_bytes)})`],
    ['freed by the collector', `${fmtInt(t.freed_collector)} (${fmtBytes(t.freed_collector_bytes)})`],
    ['live at exit', `${fmtInt(t.live)} (${fmtBytes(t.live_bytes)})`],
    ['outside any instruction', `${fmtInt(M.runtime.allocs)} (${fmtBytes(M.runtime.bytes)}): the runtime`],
  ])));
  parts.push(factSection('The heap\u2019s own counters', kv([
    ['verdict', agree ? '<span class="badge ok">agree</span> with the sum of the sites' : '<span class="badge fail">differ</span> from the sum of the sites'],
    ['allocations', `${fmtInt(h.allocs)}, ${fmtBytes(h.bytes)}`],
    ['freed', `${fmtInt(h.freed_refcount)} by reference counting, ${fmtInt(h.freed_collector)} by the collector`],
  ])));
  const n = c.cycles;
  parts.push(factSection('Collector', kv([
    ['cycles', n ? `${fmtInt(n)} in ${fmtInt(c.steps)} steps, ${fmtNs(c.ns)}` : 'none completed'],
    ['per cycle', n ? `${fmtNs(c.ns_per_cycle)} (min ${fmtNs(c.min_cycle_ns)}, max ${fmtNs(c.max_cycle_ns)}), ${(c.steps / n).toFixed(1)} steps` : ''],
    ['after the last cycle', c.unfinished && c.unfinished.steps ? `${fmtInt(c.unfinished.steps)} steps, ${fmtNs(c.unfinished.ns)}` : ''],
  ])));
  return parts.join('');
}

function renderMemory(sec) {
  const R = S.report;
  const M = R.memory;
  sec.appendChild(el('div', { class: 'facts' }, memFacts(M)));
  const total = M.total.bytes;
  const lines = [];
  for (const m of R.modules) for (const l of m.lines) if (l.mem) lines.push(l);
  sec.appendChild(el('h3', {}, 'Lines that allocated'));
  sec.appendChild(el('p', { class: 'muted' }, 'Each heap object is charged to the instruction that allocated it; what became of it (freed by its reference count, by the collector, or still allocated when the run ended) is charged there too. Click a line for its source.'));
  const lineCols = memColumns([
    { key: 'module', label: 'module', left: true, fmt: (l) => esc(l.module.name), sort: (l) => l.module.name },
    { key: 'line', label: 'line', fmt: (l) => `<button class="link">${esc(fileName(l))}:${l.line}</button>`, sort: (l) => l.line },
    { key: 'text', label: 'source', left: true, cls: 'code l', fmt: (l) => esc(lineText(l).trim()) },
  ], total);
  sec.appendChild(makeTable(lineCols, lines, { sortKey: 'bytes', onRow: (l) => goToLine(l.module.index, l.file, l.line, true) }));
  const fns = [];
  for (const m of R.modules) for (const f of m.functions || []) if (f.mem) fns.push(Object.assign({ module: m }, f));
  if (M.runtime.allocs) fns.push({ module: { name: '' }, name: '<runtime>', mem: M.runtime });
  sec.appendChild(el('h3', {}, 'Functions (their own instructions) and the runtime'));
  sec.appendChild(makeTable(memColumns([
    { key: 'module', label: 'module', left: true, fmt: (f) => esc(f.module.name), sort: (f) => f.module.name },
    { key: 'name', label: 'function', left: true },
  ], total), fns, { sortKey: 'bytes' }));
  const cycles = M.collector.per_cycle || [];
  if (cycles.length) {
    sec.appendChild(el('h3', {}, 'The collector\u2019s cycles'));
    const shown = cycles.slice(0, 200);
    const all = M.collector.ns || 1;
    sec.appendChild(barChart(shown.map((g, i) => ({
      label: `cycle ${i + 1}: ${fmtInt(g.steps)} steps, ${fmtInt(g.freed)} freed`,
      value: g.ns,
      pct: (100 * g.ns) / all,
    })), false));
    if (cycles.length > shown.length) sec.appendChild(el('p', { class: 'muted' }, `${fmtInt(cycles.length - shown.length)} more cycles not drawn`));
  }
}
