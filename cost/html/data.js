'use strict';
// Shared by every view: the page's state, the data restored from its JSON,
// number formats, and small DOM and SVG helpers. The script files are
// concatenated into one <script> (cost/html/embed.cmake) and start from
// boot() (main.js) once the document is parsed.

// S.data: the embedded document; S.report: the report (kind "report").
const S = { data: null, report: null, views: {}, current: null };

// Arrays of objects were stored as {"$cols", "$rows"}, nested tables as
// rows with their schema once in "$sub" (cost_report_html.h). A nested
// table is restored when first read (a line's instructions when the line
// is opened).
function decode(v) {
  if (Array.isArray(v)) return v.map(decode);
  if (v === null || typeof v !== 'object') return v;
  if (v.$cols && v.$rows) return decodeTable(v, v.$rows);
  const o = {};
  for (const k of Object.keys(v)) o[k] = decode(v[k]);
  return o;
}

function decodeTable(schema, rows) {
  const cols = schema.$cols, sub = schema.$sub || {};
  return rows.map((row) => {
    const o = {};
    for (let i = 0; i < cols.length; i++) {
      const x = row[i];
      if (x === null) continue;
      const k = cols[i];
      if (sub[k]) lazyRows(o, k, sub[k], x);
      else o[k] = decode(x);
    }
    return restoreDerived(o);
  });
}

function lazyRows(o, k, schema, raw) {
  Object.defineProperty(o, '$' + k, { value: { cols: schema.$cols, raw } });
  Object.defineProperty(o, k, {
    configurable: true,
    enumerable: true,
    get() {
      const v = decodeTable(schema, raw);
      Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
      return v;
    },
  });
}

// A nested table's rows as stored (arrays, keys in cols), without
// restoring them: for scans over every instruction.
function rawRows(o, k) {
  const r = o['$' + k];
  if (r) return r;
  const v = o[k] || [];
  const cols = [];
  for (const x of v) for (const c of Object.keys(x)) if (!cols.includes(c)) cols.push(c);
  return { cols, raw: v.map((x) => cols.map((c) => (x[c] === undefined ? null : x[c]))) };
}

// What the page left out of an instruction's statistics, recomputed (a
// record with a count, timed executions and a mean).
function restoreDerived(op) {
  if (op.timed !== undefined && op.count !== undefined) {
    if (op.sampled === undefined) op.sampled = op.timed < op.count;
    if (op.total_ns === undefined && op.mean_ns !== undefined) op.total_ns = op.mean_ns * op.count;
  }
  return op;
}

// The paper's units, as the text report has them (duration_format.h), with
// a decimal below 100 ns where an instruction's mean lives.
function fmtNs(ns) {
  if (!(ns > 0)) return '0 ns';
  if (ns < 99.95) return ns.toFixed(1) + ' ns';
  if (Math.round(ns) < 1000) return Math.round(ns) + ' ns';
  const us = ns / 1e3;
  if (Math.round(us * 100) < 100000) return us.toFixed(2) + ' \u00b5s';
  const ms = ns / 1e6;
  if (Math.round(ms * 100) < 100000) return ms.toFixed(2) + ' ms';
  return (ns / 1e9).toFixed(2) + ' s';
}

function fmtInt(n) {
  if (n === undefined || n === null) return '';
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function fmtPct(x) {
  if (!(x > 0)) return '0%';
  if (x < 0.001) return '<0.1%';
  return (100 * x).toFixed(1) + '%';
}

// Time mode: a duration; count mode (unit "instructions"): a count.
function fmtValue(v, counts) {
  return counts ? fmtInt(v) : fmtNs(v);
}

function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

function el(tag, attrs, html) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    e.setAttribute(k, v === true ? '' : v);
  }
  if (html !== undefined) e.innerHTML = html;
  return e;
}

const SVGNS = 'http://www.w3.org/2000/svg';
function svgEl(tag, attrs, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// Round axis ticks: about n of them between lo and hi.
function niceTicks(lo, hi, n) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / n;
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) || raw;
  const out = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) out.push(t);
  return out;
}

// A table: cols [{key, label, left, fmt(row), sort(row)}], rows of objects.
// Sortable by a click on a header; the first `limit` rows, then a button for
// the rest. onRow(row, tr) makes rows clickable.
function makeTable(cols, rows, opts) {
  opts = opts || {};
  const wrap = el('div');
  let sortCol = opts.sortKey ? cols.findIndex((c) => c.key === opts.sortKey) : -1;
  let desc = true;
  let limit = opts.limit || 500;
  const draw = () => {
    let rs = rows;
    if (sortCol >= 0) {
      const c = cols[sortCol];
      const f = c.sort || ((r) => r[c.key]);
      rs = rows.slice().sort((a, b) => {
        const x = f(a), y = f(b);
        const d = typeof x === 'string' || typeof y === 'string' ? String(x).localeCompare(String(y)) : (x || 0) - (y || 0);
        return desc ? -d : d;
      });
    }
    const shown = rs.slice(0, limit);
    let h = '<table class="t"><thead><tr>';
    cols.forEach((c, i) => {
      const sort = i === sortCol ? (desc ? 'descending' : 'ascending') : null;
      h += `<th data-sort="${i}" class="${c.left ? 'l' : ''}"${sort ? ` aria-sort="${sort}"` : ''} scope="col">${esc(c.label)}</th>`;
    });
    h += '</tr></thead><tbody>';
    shown.forEach((r, i) => {
      h += `<tr data-i="${i}"${opts.onRow ? ' class="click" tabindex="0"' : ''}>`;
      for (const c of cols) h += `<td class="${c.cls || (c.left ? 'l' : '')}">${c.fmt ? c.fmt(r) : esc(r[c.key] ?? '')}</td>`;
      h += '</tr>';
    });
    h += '</tbody></table>';
    if (rs.length > limit) h += `<p class="more"><button class="link" data-more="1">show all ${fmtInt(rs.length)} rows</button></p>`;
    wrap.innerHTML = h;
    wrap.onclick = (ev) => {
      const th = ev.target.closest('th[data-sort]');
      if (th) {
        const i = +th.dataset.sort;
        desc = i === sortCol ? !desc : true;
        sortCol = i;
        draw();
        return;
      }
      if (ev.target.closest('[data-more]')) {
        limit = Infinity;
        draw();
        return;
      }
      // A row's link button is the row: a click on it goes to the row's place.
      const tr = ev.target.closest('tr[data-i]');
      if (tr && opts.onRow) opts.onRow(shown[+tr.dataset.i], tr);
    };
    wrap.onkeydown = (ev) => {
      // Enter on a focused button becomes a click of its own (above).
      const tr = ev.target.closest('tr[data-i]');
      if (tr && opts.onRow && ev.key === 'Enter' && !ev.target.closest('button')) opts.onRow(shown[+tr.dataset.i], tr);
    };
  };
  draw();
  return wrap;
}

// Any JSON value as HTML: objects as key/value lists, arrays of objects as
// tables (the sections a later report adds, which no view knows).
function genericHtml(v, depth) {
  depth = depth || 0;
  if (v === null || v === undefined) return '<span class="muted">none</span>';
  if (typeof v === 'number') return Number.isInteger(v) ? fmtInt(v) : esc(String(+v.toPrecision(6)));
  if (typeof v !== 'object') return esc(String(v));
  if (Array.isArray(v)) {
    if (v.length === 0) return '<span class="muted">empty</span>';
    if (v.every((x) => x && typeof x === 'object' && !Array.isArray(x))) {
      const keys = [];
      for (const x of v) for (const k of Object.keys(x)) if (!keys.includes(k)) keys.push(k);
      let h = '<table class="t"><thead><tr>' + keys.map((k) => `<th>${esc(k)}</th>`).join('') + '</tr></thead><tbody>';
      for (const x of v.slice(0, 2000)) h += '<tr>' + keys.map((k) => `<td>${genericHtml(x[k], depth + 1)}</td>`).join('') + '</tr>';
      h += '</tbody></table>';
      if (v.length > 2000) h += `<p class="muted">${fmtInt(v.length - 2000)} more rows not shown</p>`;
      return h;
    }
    return v.slice(0, 200).map((x) => genericHtml(x, depth + 1)).join(', ') + (v.length > 200 ? ', \u2026' : '');
  }
  let h = '<dl class="kv">';
  for (const [k, x] of Object.entries(v)) h += `<dt>${esc(k)}</dt><dd>${genericHtml(x, depth + 1)}</dd>`;
  return h + '</dl>';
}
