'use strict';
// The header facts: the run's outcome, timer, base, totals, environment,
// the accuracy check, and the warnings drawn from them.

function kv(pairs) {
  let h = '<dl class="kv">';
  for (const [k, v] of pairs) if (v !== undefined && v !== null && v !== '') h += `<dt>${esc(k)}</dt><dd>${v}</dd>`;
  return h + '</dl>';
}

function factSection(title, body) {
  return `<section><h3>${esc(title)}</h3>${body}</section>`;
}

// [{level: 'error' | 'warn' | 'info', text}] (text is HTML).
function warnings(R) {
  const w = [];
  const o = S.outcome || {};
  const t = R.totals || {};
  if (o.status) w.push({ level: 'error', text: `The program failed (status ${o.status})${o.message ? ': ' + esc(o.message) : ''}${o.where ? ' at ' + esc(o.where) : ''}. The figures cover what ran until then.` });
  if (R.timer && R.timer.fallback_reason) w.push({ level: 'warn', text: `The timer is not the TSC: ${esc(R.timer.fallback_reason)}.` });
  if (R.timer && R.timer.calibration_spread > 0.01) w.push({ level: 'warn', text: `The timer's calibration rounds spread by ${fmtPct(R.timer.calibration_spread)}.` });
  for (const x of (R.quality || {}).warnings || []) w.push({ level: 'warn', text: esc(x.charAt(0).toUpperCase() + x.slice(1)) + '.' });
  if (R.sample_every) w.push({ level: 'info', text: `Timings are sampled: about 1 in ${fmtInt(R.sample_every)} executions was timed; counts are exact, totals are estimates.` });
  let preempted = 0;
  for (const b of R.buckets || []) if (b.name === 'preempted') preempted = b.total_ns || 0;
  if (preempted > 0 && t.attributed_ns > 0 && preempted / t.attributed_ns > 0.01)
    w.push({ level: 'warn', text: `Host preemption: ${fmtNs(preempted)} (${fmtPct(preempted / t.attributed_ns)} of the attributed time) was found inside instruction intervals and moved to the bucket preempted; the heat leaves it out.` });
  if (t.overlap_ns > 0) w.push({ level: 'info', text: `${fmtNs(t.overlap_ns)} of the attributed time is counted twice (recorded while a thread waited in a blocking builtin, whose mcall holds the wait).` });
  if (!S.counts && R.runs === 1) w.push({ level: 'info', text: 'One run: the host\u2019s drift from run to run is not in these figures (cost --repeat N merges runs and shows each line\u2019s spread).' });
  const a = R.accuracy;
  if (a && a.plain_ns > 0 && Math.abs(a.ratio - 1) > 0.1)
    w.push({ level: 'warn', text: `The attributed time is ${a.ratio.toFixed(3)} times the plain run's wall time (accuracy check, base ${esc(a.base)}).` });
  for (const line of (S.data.accuracy_text || '').split('\n')) if (/warning/.test(line)) w.push({ level: 'warn', text: esc(line.replace(/^accuracy: warning: /, '')) });
  return w;
}

function renderOverview(sec) {
  const R = S.report;
  const o = S.outcome || {};
  const w = warnings(R);
  if (w.length) sec.appendChild(el('ul', { class: 'warnings' }, w.map((x) => `<li class="${x.level}">${x.text}</li>`).join('')));
  const t = R.totals || {};
  let where = esc(o.where || '');
  const m = /^(.*):(\d+)$/.exec(o.where || '');
  const parts = [];
  parts.push(factSection('Run', kv([
    ['program', esc(R.program)],
    ['outcome', o.status ? `<span class="badge fail">${o.state === 'interrupted' ? 'interrupted' : 'failed'}</span> status ${o.status}` : '<span class="badge ok">success</span>'],
    ['error', esc(o.message || '')],
    ['where', m ? `<button class="link" id="where-link">${where}</button>` : where],
    ['mode', S.counts ? 'counts only (no clock read)' : 'every execution timed' + (R.sample_every ? ` \u2014 sampled, about 1 in ${fmtInt(R.sample_every)}` : '')],
    ['runs', R.runs > 1 ? `${R.runs}, merged` : '1'],
    ['instructions', fmtInt(R.total_instructions)],
    ['modules', R.modules.map((x) => esc(x.name)).join(', ')],
  ])));
  if (R.timer) {
    const tm = R.timer;
    parts.push(factSection('Timer', kv([
      ['timer', esc(tm.name) + (tm.tsc ? ' (TSC)' : '')],
      ['rate', `${(+tm.ticks_per_ns).toFixed(4)} ticks/ns`],
      ['one read', `${(+tm.read_min_ns).toFixed(1)} ns min (${tm.read_min_ticks} ticks), ${(+tm.read_median_ns).toFixed(1)} ns median`],
      ['calibration', tm.calibration_rounds ? `${tm.calibration_rounds} rounds in ${(+tm.calibration_ms).toFixed(0)} ms, spread ${fmtPct(tm.calibration_spread)}` : 'none'],
      ['no TSC because', esc(tm.fallback_reason || '')],
    ])));
  }
  if (R.base) {
    const b = R.base;
    const pairs = [
      ['policy', esc(b.policy) + (b.policy === 'stream' ? ' (what the probe adds per instruction on synthetic streams)' : ` of ${fmtInt(b.samples)} empty instructions through the probe`)],
      ['subtracted', `${fmtNs(b.ns)} per execution (${b.ticks} ticks)`],
      ['empty instruction', `min ${b.min_ticks}, median ${b.median_ticks}, mean ${b.mean_ticks} ticks`],
    ];
    if (b.stream_ticks !== undefined) {
      pairs.push(['stream base', `${(+b.stream_ticks).toFixed(2)} ticks (${fmtNs(b.stream_ns)}) per instruction; ${b.stream_rounds} rounds, spread ${(+b.stream_spread_ticks).toFixed(2)} ticks, standard error ${(+b.stream_se_ticks).toFixed(2)}`]);
      if (b.stream_class_ticks) pairs.push(['per class', Object.entries(b.stream_class_ticks).map(([k, v]) => `${esc(k)} ${(+v).toFixed(2)}`).join(', ') + ' ticks']);
    }
    parts.push(factSection('Base', kv(pairs)));
  }
  if (R.quality) parts.push(factSection('Error bars', kv(errorBars(R.quality))));
  const tot = [['instructions', fmtInt(t.instructions)]];
  if (!S.counts) {
    tot.push(['attributed', fmtNs(t.attributed_ns)], ['in instructions', fmtNs(t.instruction_ns)], ['outside instructions', fmtNs(t.outside_ns)],
      ['inside builtins', fmtNs(t.builtin_ns) + ' (part of the instructions\u2019)'], ['probe bookkeeping', fmtNs(t.probe_ns) + ' (not attributed)'],
      ['wall', t.wall_ns ? fmtNs(t.wall_ns) : 'unknown'], ['counted twice', t.overlap_ns ? fmtNs(t.overlap_ns) : '']);
  }
  parts.push(factSection('Totals', kv(tot)));
  if (R.environment) {
    const e = R.environment;
    parts.push(factSection('Environment', kv([
      ['cpu', esc(e.cpu) + ` (${e.cpus} CPUs)`], ['TSC', e.tsc_hz ? `${(e.tsc_hz / 1e9).toFixed(3)} GHz` : 'not the timer'],
      ['timer', esc(e.timer)], ['hypervisor', esc(e.hypervisor || 'none (bare metal)')], ['kernel', esc(e.kernel)],
      ['build', esc(e.build_type) + ', ' + esc(e.compiler)], ['version', esc(e.version)], ['date', esc(e.date)],
      ['command', `<code>${esc(e.command)}</code>`],
    ])));
  }
  if (R.accuracy) {
    const a = R.accuracy;
    const pairs = [
      ['plain run', `${fmtNs(a.plain_ns)} wall, ${fmtNs(a.plain_cpu_ns)} CPU (medians of ${a.plain_runs})`],
      ['attributed', `${fmtNs(a.attributed_ns)} per run: ratio ${(+a.ratio).toFixed(3)} to the wall time, ${(+a.cpu_ratio).toFixed(3)} to the CPU time`],
      ['bias', `${(+a.bias_ns_per_instruction).toFixed(2)} ns per instruction`],
      ['host preemption', `${fmtNs(a.preempted_ns)} per run`],
      ['host drift', a.host_drift ? (+a.host_drift).toFixed(3) : 'not gauged'],
    ];
    for (const p of a.policies || []) pairs.push([`base ${p.base}`, `ratio ${(+p.ratio).toFixed(3)}, CPU ratio ${(+p.cpu_ratio).toFixed(3)}, bias ${(+p.bias_ns_per_instruction).toFixed(2)} ns`]);
    parts.push(factSection('Accuracy (plain runs beside the costed one)', kv(pairs)));
  } else if (!S.counts) {
    parts.push(factSection('Accuracy', '<p class="muted">Not measured: cost --accuracy also runs the program without probes and compares.</p>'));
  }
  const facts = el('div', { class: 'facts' }, parts.join(''));
  sec.appendChild(facts);
  if (S.data.accuracy_text) {
    sec.appendChild(el('h3', {}, 'Accuracy, as the text report has it'));
    sec.appendChild(el('pre', { class: 'text' }, esc(S.data.accuracy_text.trim())));
  }
  const wl = sec.querySelector('#where-link');
  if (wl && m) wl.onclick = () => goToWhere(m[1], +m[2]);
}

// The report's statement of its own accuracy (cost_quality.h).
function errorBars(q) {
  const r = q.resolution || {};
  const a = q.accuracy || {};
  const pairs = [
    ['timer resolution', r.stepped
      ? `steps of ${(+r.step_ticks).toFixed(1)} ticks (${fmtNs(r.step_ns)}): of ${fmtInt(r.samples)} reads repeated until the value changed, ${fmtPct(r.step_share)} moved one step` +
        (r.artefact_share > 0 ? `, ${fmtPct(r.artefact_share)} at most ${r.artefact_ticks} tick (an artefact of the clock, never a base)` : '')
      : '1 tick: the counter moves by every tick'],
    ['commonest changes', (r.common || []).map((c) => `${fmtInt(c.ticks)} ticks ${fmtPct(c.share)}`).join(', ')],
    ['base per instruction', `${(+q.base_ns).toFixed(2)} ns on average (${(+q.base_min_ns).toFixed(2)}\u2013${(+q.base_max_ns).toFixed(2)} ns by instruction), \u00b1 ${(+q.base_spread_ns).toFixed(2)} ns`],
    ['below one timer step', `${fmtPct(q.below_resolution)} of the executed instructions`],
    ['accuracy estimate', a.estimated
      ? `the program\u2019s own time ${fmtNs(q.own_ns)} within <b>\u00b1 ${fmtPct(a.share)}</b>: the base\u2019s calibration ${fmtPct(a.calibration)}, the streams\u2019 misfit ${fmtPct(a.model)}, sampling ${fmtPct(a.sampling)}, host preemption left inside ${fmtPct(a.host)}`
      : 'none for this base (it rests on empty measurements alone; --base stream calibrates on real instructions)'],
    ['host', `${fmtPct(q.host_share)} of the run\u2019s wall time preempted`],
  ];
  const rel = q.reliability;
  if (rel) pairs.push(['reliability', `${rel.runs} runs: the hottest line varies by ${fmtPct(rel.hottest_cv)}; ${fmtInt(rel.unreproducible_lines)} of ${fmtInt(rel.timed_lines)} lines vary by more than ${fmtPct(rel.tolerance_cv)} at ${rel.confidence}% confidence (marked !)`]);
  return pairs;
}

// "file:line" of the failure: the module whose source file that is.
function goToWhere(file, line) {
  for (const mod of S.report.modules) {
    const f = (mod.source_files || []).indexOf(file);
    if (f >= 0) return goToLine(mod.index, f, line, true);
  }
  return null;
}
