'use strict';
// cost --diff a.json b.json --format html: the two runs side by side per
// source line, changed lines marked with their significance (the test and
// verdict are cost's own, cost_diff.h: compare_lines), and each line's
// instructions in both runs on a click.

function bootDiff() {
  const D = S.data;
  S.a = decode(D.a);
  S.b = decode(D.b);
  S.counts = !D.timed;
  S.sources = [];
  S.outcome = { status: 0 };
  indexModules(S.a);
  indexModules(S.b);
  S.diffLines = new Map();
  for (const d of decode(D.lines) || []) S.diffLines.set(`${d.module}:${d.file}:${d.line}`, d);
  renderDiffSummary();
  addView('side', 'Side by side', renderSideBySide);
  addView('changes', 'Changed lines', renderChanges);
  addView('runs', 'The two runs', renderRuns);
  showView('side');
}

function diffCounts() {
  const c = { compared: 0, sig: 0, cnt: 0, one: 0, untestable: 0 };
  for (const d of S.diffLines.values()) {
    if (d.in !== 'both') {
      c.one++;
      continue;
    }
    c.compared++;
    if (d.significant) c.sig++;
    if (d.testable === false) c.untestable++;
    if (d.a_instructions !== d.b_instructions) c.cnt++;
  }
  return c;
}

function renderDiffSummary() {
  const D = S.data;
  const c = diffCounts();
  const parts = [
    `<span>a = <b>${esc(D.a_name)}</b></span>`,
    `<span>b = <b>${esc(D.b_name)}</b></span>`,
    `<span><b>${fmtInt(c.compared)}</b> lines compared</span>`,
  ];
  if (D.timed) parts.push(`<span class="badge ${c.sig ? 'fail' : 'ok'}">${fmtInt(c.sig)} significantly different at ${D.confidence}%</span>`);
  parts.push(`<span>${fmtInt(c.cnt)} with different counts</span>`);
  if (c.one) parts.push(`<span>${fmtInt(c.one)} executed in one run only</span>`);
  if (c.untestable) parts.push(`<span>${fmtInt(c.untestable)} not testable</span>`);
  document.getElementById('summary').innerHTML = parts.join('');
}

function diffNote() {
  const D = S.data;
  if (!D.timed) return 'Counts only (a report is in count mode): lines whose instruction counts differ are marked #.';
  let s = `Per source line, the total time (count \u00d7 mean of its instructions). * marks a difference significant at ${D.confidence}% confidence `;
  s += D.runs_each ? "(Welch's t over the runs each report merged)" : "(normal test on the totals' standard errors)";
  s += '; # marks different instruction counts; a or b a line executed in one run only. Click a line for its instructions in both.';
  if (!D.runs_each) s += ' One run each: the host\u2019s drift from run to run is not in these standard errors (reports merged from cost --repeat N carry it).';
  return s;
}

function renderSideBySide(sec) {
  sec.appendChild(el('p', { class: 'muted' }, esc(diffNote())));
  const controls = el('div', { class: 'controls' }, '<label><input type="checkbox" id="only-changed"> only lines that changed</label>');
  sec.appendChild(controls);
  const names = [];
  for (const R of [S.a, S.b]) for (const m of R.modules) if (!names.includes(m.name)) names.push(m.name);
  const tabs = el('div', { class: 'tabs', role: 'tablist', 'aria-label': 'Modules' });
  const box = el('div', { class: 'src dsrc' + (S.counts ? ' count' : '') });
  sec.appendChild(tabs);
  sec.appendChild(box);
  S.diffViews = names.map((name, i) => {
    const t = el('button', { role: 'tab', 'aria-selected': 'false' }, esc(name));
    const div = el('div', { class: 'file', hidden: true, 'data-module': name });
    tabs.appendChild(t);
    box.appendChild(div);
    t.onclick = () => showDiffModule(i);
    return { name, tab: t, div, drawn: false };
  });
  controls.querySelector('input').onchange = (ev) => box.classList.toggle('changed-only', ev.target.checked);
  box.addEventListener('click', (ev) => {
    const row = ev.target.closest('.row.x');
    if (row) toggleDiffOps(row);
  });
  box.addEventListener('keydown', (ev) => {
    const row = ev.target.closest('.row.x');
    if (row && (ev.key === 'Enter' || ev.key === ' ')) {
      ev.preventDefault();
      toggleDiffOps(row);
    }
  });
  S.beforePrint = () => S.diffViews.forEach(drawDiffModule);
  if (names.length) showDiffModule(0);
}

function showDiffModule(i) {
  S.diffViews.forEach((v, j) => {
    v.tab.setAttribute('aria-selected', i === j ? 'true' : 'false');
    v.div.hidden = i !== j;
  });
  drawDiffModule(S.diffViews[i]);
}

function moduleOf(R, name) {
  return R.modules.find((m) => m.name === name);
}

function diffHead() {
  return S.counts
    ? '<div class="gh"><span>line</span><span>a instructions</span><span class="l">source</span><span>b instructions</span><span>change</span><span></span></div>'
    : '<div class="gh"><span>line</span><span>a instructions</span><span>a time</span><span class="l">source</span><span>b instructions</span><span>b time</span><span>change</span><span>p</span><span></span></div>';
}

function drawDiffModule(v) {
  if (v.drawn) return;
  v.drawn = true;
  const ma = moduleOf(S.a, v.name), mb = moduleOf(S.b, v.name);
  const keys = new Map();
  for (const m of [ma, mb]) if (m) for (const l of m.lines) keys.set(l.file + ':' + l.line, [l.file, l.line]);
  const order = [...keys.values()].sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  let h = `<h3 class="fname">${esc(v.name)}</h3>` + diffHead();
  let prev = null;
  const rows = [];
  for (const [f, n] of order) {
    if (prev && (prev[0] !== f || n > prev[1] + 1)) rows.push(`<div class="row gap"><span class="n">\u22ee</span></div>`);
    prev = [f, n];
    rows.push(diffRow(v.name, f, n, ma && ma.byKey.get(f + ':' + n), mb && mb.byKey.get(f + ':' + n)));
  }
  for (let i = 0; i < rows.length; i += CHUNK) {
    const part = rows.slice(i, i + CHUNK);
    h += chunkOpen(part.length) + part.join('') + '</div>';
  }
  v.div.innerHTML = h;
}

function diffRow(module, f, n, la, lb) {
  const d = S.diffLines.get(`${module}:${f}:${n}`);
  const text = (la && la.text) || (lb && lb.text) || '';
  const ai = la ? la.instructions : 0, bi = lb ? lb.instructions : 0;
  const cls = ['row'];
  let mark = '', change = '', p = '';
  if (d) {
    cls.push('x');
    if (d.in !== 'both') {
      cls.push('one');
      mark = d.in;
    } else {
      if (d.a_instructions !== d.b_instructions) {
        cls.push('cnt');
        mark = '#';
      }
      if (d.significant) {
        cls.push('sig');
        mark = '*' + (mark ? '#' : '');
      }
    }
    if (!S.counts && d.in === 'both') {
      const pct = d.a_ns ? (d.b_ns - d.a_ns) / d.a_ns : 0;
      change = (pct >= 0 ? '+' : '') + (100 * pct).toFixed(1) + '%';
      p = d.testable === false ? 'n/t' : (+d.p).toFixed(4);
      if (d.significant) cls.push(pct > 0 ? 'slower' : 'faster');
    } else if (S.counts && d.in === 'both' && ai !== bi) {
      change = (bi - ai > 0 ? '+' : '') + fmtInt(bi - ai);
    }
  }
  const attrs = d ? ` tabindex="0" role="button" aria-expanded="false" data-module="${esc(module)}" data-f="${f}" data-l="${n}"` : '';
  const heat = (l, R) => (l && l.instructions > 0 ? 'h' + heatLevel(S.counts ? l.instructions / (R.total_instructions || 1) : (l.total_ns || 0) / (R.ownNs || 1)) : '');
  const t = (l) => (l && l.instructions > 0 ? fmtNs(l.total_ns) : '');
  const cells = S.counts
    ? `<span class="g">${fmtInt(ai)}</span><code class="${heat(lb || la, lb ? S.b : S.a)}">${esc(text)}</code><span class="g">${fmtInt(bi)}</span><span class="g d">${change}</span><span class="g mk">${mark}</span>`
    : `<span class="g">${fmtInt(ai)}</span><span class="g ${heat(la, S.a)}">${t(la)}</span><code>${esc(text)}</code><span class="g">${fmtInt(bi)}</span><span class="g ${heat(lb, S.b)}">${t(lb)}</span><span class="g d">${change}</span><span class="g">${p}</span><span class="g mk">${mark}</span>`;
  return `<div class="${cls.join(' ')}"${attrs}><span class="n">${n}</span>${cells}</div>`;
}

function toggleDiffOps(row) {
  toggleBelow(row, () => {
    const key = row.dataset.f + ':' + row.dataset.l;
    const box = el('div', { class: 'opsbox side2' });
    for (const [R, name] of [[S.a, 'a'], [S.b, 'b']]) {
      const m = moduleOf(R, row.dataset.module);
      const l = m && m.byKey.get(key);
      const half = el('div', {}, `<div class="cap"><b>${name}</b></div>`);
      half.appendChild(l ? opsTable(l) : el('p', { class: 'muted' }, 'no instructions here'));
      box.appendChild(half);
    }
    return box;
  });
}

function renderChanges(sec) {
  sec.appendChild(el('p', { class: 'muted' }, esc(diffNote())));
  const rows = [...S.diffLines.values()].filter((d) => d.in !== 'both' || d.significant || d.a_instructions !== d.b_instructions);
  const text = (d) => {
    for (const R of [S.a, S.b]) {
      const m = moduleOf(R, d.module);
      const l = m && m.byKey.get(d.file + ':' + d.line);
      if (l && l.text) return l.text;
    }
    return '';
  };
  const cols = [
    { key: 'module', label: 'module', left: true },
    { key: 'line', label: 'line', fmt: (d) => `<button class="link">${d.line}</button>` },
    { key: 'text', label: 'source', left: true, cls: 'code l', fmt: (d) => esc(text(d).trim()) },
    { key: 'a_instructions', label: 'a instructions', fmt: (d) => fmtInt(d.a_instructions) },
    { key: 'b_instructions', label: 'b instructions', fmt: (d) => fmtInt(d.b_instructions) },
  ];
  if (!S.counts) {
    cols.push({ key: 'a_ns', label: 'a time', fmt: (d) => fmtNs(d.a_ns) });
    cols.push({ key: 'b_ns', label: 'b time', fmt: (d) => fmtNs(d.b_ns) });
    cols.push({ key: 'change', label: 'change', fmt: (d) => (d.a_ns ? ((d.b_ns >= d.a_ns ? '+' : '') + (100 * (d.b_ns - d.a_ns) / d.a_ns).toFixed(1) + '%') : ''), sort: (d) => (d.a_ns ? Math.abs(d.b_ns - d.a_ns) / d.a_ns : 0) });
    cols.push({ key: 'p', label: 'p', fmt: (d) => (d.in !== 'both' ? '' : d.testable === false ? 'not testable' : (+d.p).toFixed(4)), sort: (d) => (d.p === undefined ? 2 : -d.p) });
  }
  cols.push({ key: 'verdict', label: 'mark', left: true, fmt: (d) => (d.in !== 'both' ? `only in ${d.in}` : [d.significant ? '* significant' : '', d.a_instructions !== d.b_instructions ? '# counts' : ''].filter(Boolean).join(', ')) });
  sec.appendChild(makeTable(cols, rows, {
    sortKey: S.counts ? 'line' : 'p',
    onRow: (d) => {
      showView('side');
      const i = S.diffViews.findIndex((v) => v.name === d.module);
      if (i < 0) return;
      showDiffModule(i);
      const row = S.diffViews[i].div.querySelector(`.row.x[data-f="${d.file}"][data-l="${d.line}"]`);
      if (row) {
        centerRow(row);
        row.focus({ preventScroll: true });
      }
    },
  }));
}

function renderRuns(sec) {
  const rows = [
    ['program', (R) => esc(R.program)],
    ['mode', (R) => esc(R.mode) + (R.sample_every ? `, sampled 1 in ${R.sample_every}` : '')],
    ['runs', (R) => R.runs],
    ['instructions', (R) => fmtInt(R.total_instructions)],
    ['attributed', (R) => (R.totals && R.totals.attributed_ns !== undefined ? fmtNs(R.totals.attributed_ns) : '')],
    ['wall', (R) => (R.totals && R.totals.wall_ns ? fmtNs(R.totals.wall_ns) : '')],
    ['base', (R) => (R.base ? `${esc(R.base.policy)}, ${fmtNs(R.base.ns)}` : '')],
    ['timer', (R) => (R.timer ? `${esc(R.timer.name)}, ${(+R.timer.ticks_per_ns).toFixed(4)} ticks/ns, read ${(+R.timer.read_min_ns).toFixed(1)} ns` : '')],
    ['cpu', (R) => (R.environment ? esc(R.environment.cpu) : '')],
    ['hypervisor', (R) => (R.environment ? esc(R.environment.hypervisor || 'none') : '')],
    ['version', (R) => (R.environment ? esc(R.environment.version) : '')],
    ['date', (R) => (R.environment ? esc(R.environment.date) : '')],
    ['command', (R) => (R.environment ? `<code>${esc(R.environment.command)}</code>` : '')],
  ];
  let h = `<table class="t"><thead><tr><th class="l"></th><th class="l">a: ${esc(S.data.a_name)}</th><th class="l">b: ${esc(S.data.b_name)}</th></tr></thead><tbody>`;
  for (const [k, f] of rows) h += `<tr><td class="l">${esc(k)}</td><td class="l">${f(S.a)}</td><td class="l">${f(S.b)}</td></tr>`;
  h += '</tbody></table>';
  sec.appendChild(el('div', {}, h));
}
