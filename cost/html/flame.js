'use strict';
// The flame graph of the call tree: one frame per call path (a function
// reached through one chain of calls), as wide as the time spent from its
// entries to its returns (count mode: instructions); its children above
// the root's row, its own time the gap they leave. A click (or Enter) zooms
// to a frame; the trail above leads back.

const FLAME_ROW = 18, FLAME_W = 1200;

// Widths in time, or in instructions when the report has no inclusive time
// (count mode; the sampled view does not time calls).
function flameByCount() {
  return S.counts || !(S.paths || []).some((p) => p.ns > 0);
}

function flameTree() {
  if (S.flameRoot) return S.flameRoot;
  const key = flameByCount() ? 'instructions' : 'ns';
  const nodes = (S.paths || []).map((p, i) => ({ i, name: `${p.module}->${p.fn}`, p, value: p[key] || 0, kids: [], parent: null }));
  const root = { i: -1, name: 'all threads', value: 0, kids: [], parent: null, p: { calls: 0 } };
  for (const n of nodes) {
    const parent = n.p.parent >= 0 ? nodes[n.p.parent] : root;
    n.parent = parent;
    parent.kids.push(n);
  }
  for (const n of root.kids) root.value += n.value;
  const sortKids = (n) => {
    n.kids.sort((a, b) => b.value - a.value);
    n.kids.forEach(sortKids);
  };
  sortKids(root);
  S.flameRoot = root;
  S.flameNodes = nodes;
  return root;
}

function renderFlame(sec) {
  if (!S.paths || !S.paths.length) {
    sec.appendChild(el('p', { class: 'muted' }, 'This report has no call-path tree.'));
    return;
  }
  const note = flameByCount()
    ? 'instructions executed from entry to return' + (S.counts ? '' : ' (this view did not time calls)')
    : 'time from entry to return (the time outside instructions \u2014 collector, scheduler \u2014 is in Where the time went)';
  sec.appendChild(el('p', { class: 'muted' }, `Width: ${note}. Each frame is one call path; a click or Enter zooms in. Paths deeper than 256 calls end in their ancestor.`));
  const crumbs = el('div', { class: 'controls crumbs' });
  const box = el('div', { class: 'flame' });
  sec.appendChild(crumbs);
  sec.appendChild(box);
  S.flameZoom = flameTree();
  const draw = () => {
    const z = S.flameZoom;
    const trail = [];
    for (let n = z; n; n = n.parent) trail.unshift(n);
    crumbs.innerHTML = trail.map((n, i) => `<button class="link" data-c="${i}">${esc(n.name)}</button>`).join(' \u203a ') +
      ` <span class="muted">${fmtValue(z.value, flameByCount())}${z.p.calls ? `, ${fmtInt(z.p.calls)} calls` : ''}</span>`;
    crumbs.onclick = (ev) => {
      const b = ev.target.closest('button[data-c]');
      if (b) {
        S.flameZoom = trail[+b.dataset.c];
        draw();
      }
    };
    box.innerHTML = '';
    box.appendChild(flameSvg(z));
  };
  S.flameDraw = draw;
  box.addEventListener('click', (ev) => flameZoomTo(ev.target.closest('g.f')));
  box.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') flameZoomTo(ev.target.closest('g.f'));
  });
  draw();
}

function flameZoomTo(g) {
  if (!g) return;
  const i = +g.dataset.i;
  const n = i < 0 ? S.flameRoot : S.flameNodes[i];
  if (n && n !== S.flameZoom) {
    S.flameZoom = n;
    S.flameDraw();
  }
}

function flameColor(name) {
  let h = 0;
  for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
  return `hsl(${10 + (h % 45)}, ${70 + (h >> 8) % 25}%, ${58 + (h >> 16) % 14}%)`;
}

// Frames narrower than half a unit of the 1200-wide view are left out.
function flameSvg(zoom) {
  const total = zoom.value || 1;
  const frames = [];
  let depth = 0;
  const walk = (n, x, d) => {
    const w = (n.value / total) * FLAME_W;
    if (w < 0.5) return;
    frames.push({ n, x, w, d });
    depth = Math.max(depth, d);
    let cx = x;
    for (const k of n.kids) {
      walk(k, cx, d + 1);
      cx += (k.value / total) * FLAME_W;
    }
  };
  walk(zoom, 0, 0);
  const H = (depth + 1) * FLAME_ROW + 2;
  const svg = svgEl('svg', { class: 'flamegraph', viewBox: `0 0 ${FLAME_W} ${H}`, preserveAspectRatio: 'xMinYMin meet', role: 'img', 'aria-label': 'flame graph of the call tree' });
  const all = flameTree().value || 1;
  for (const f of frames) {
    const n = f.n;
    const self = Math.max(0, n.value - n.kids.reduce((a, k) => a + k.value, 0));
    const g = svgEl('g', { class: 'f', 'data-i': n.i });
    if (f.w >= 40) {
      g.setAttribute('tabindex', '0');
      g.setAttribute('role', 'button');
      g.setAttribute('aria-label', `${n.name}, ${fmtPct(n.value / all)}`);
    }
    const byCount = flameByCount();
    g.appendChild(svgEl('title', {}, `${n.name}\n${n.p.calls ? fmtInt(n.p.calls) + ' calls\n' : ''}${byCount ? 'instructions' : 'time'} ${fmtValue(n.value, byCount)} (${fmtPct(n.value / all)} of all)\nown ${fmtValue(self, byCount)}`));
    g.appendChild(svgEl('rect', { x: f.x, y: f.d * FLAME_ROW, width: Math.max(0.5, f.w - 0.5), height: FLAME_ROW - 1, fill: n.i < 0 ? '#c9c9c9' : flameColor(n.name), rx: 1.5 }));
    if (f.w >= 40) {
      const chars = Math.floor((f.w - 6) / 6.6);
      const label = `${n.name} ${fmtPct(n.value / all)}`;
      g.appendChild(svgEl('text', { x: f.x + 3, y: f.d * FLAME_ROW + 13 }, label.length > chars ? label.slice(0, Math.max(0, chars - 1)) + '\u2026' : label));
    }
    svg.appendChild(g);
  }
  return svg;
}
