#!/usr/bin/env python3
"""Where our limbo's code differs from Inferno's, function by function.

Compiles every corpus program Inferno's compiler accepts (as conformance.py
does, with -g), splits our module and Inferno's reference module into
functions by their .sbl tables, aligns each function's opcodes (difflib) and
counts the differing stretches by their opcodes ("ours | Inferno's"; "-" is
nothing). A pointer set to nil (ours: movp $-1 or an mp word holding -1;
Inferno's: its nil word in mp) is shown as "nilp". --show SIG prints the
first stretches of one bucket with context, to find the rule behind it.

  python3 perf/conformance_diff.py [--build build] [--only REGEX] [--top N]
  python3 perf/conformance_diff.py --show 'movp | -' [--limit N] [--ctx N]
"""
import argparse, atexit, collections, concurrent.futures, difflib, os, re, shutil, subprocess, tempfile
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORPUS = os.path.join(ROOT, '..', 'shared', 'corpus', 'inferno')
B = os.path.join(ROOT, 'build', 'bin')
OUT = tempfile.mkdtemp(prefix='conformance-diff-')
atexit.register(shutil.rmtree, OUT, True)
OPL = re.compile(r"^\t(\S+)(?:\t(.*))?\t# (\d+)$")
FNL = re.compile(r"^(?:[A-Za-z]+)?(\d+):([A-Za-z_][\w.]*)$")

NILW = re.compile(r"^\tword\t@mp\+(\d+),-1$")
def dump(dis, nils=None):
    r = subprocess.run([B + '/disdump', '--pc', dis], capture_output=True, text=True)
    ins = []
    for l in r.stdout.splitlines():
        m = NILW.match(l)
        if m and nils is not None: nils.add(m.group(1) + '(mp)')
        m = OPL.match(l)
        if m: ins.append((m.group(1), m.group(2) or ''))
    return ins

def fns(sbl):
    out = []
    try:
        for l in open(sbl):
            m = FNL.match(l.rstrip('\n'))
            if m: out.append((int(m.group(1)), m.group(2)))
    except OSError:
        return None
    return out

def split(ins, fl):
    fl = sorted(fl)
    res = collections.OrderedDict()
    for i, (pc, name) in enumerate(fl):
        end = fl[i + 1][0] if i + 1 < len(fl) else len(ins)
        res[name] = ins[pc:end]
    return res

def one(src):
    path = os.path.join(CORPUS, src)
    base = src.replace('/', '_')[:-2]
    out = os.path.join(OUT, base + '.dis')
    cmd = [B + '/limbo', '-g', '-I', CORPUS + '/module']
    if src.startswith('appl/collab/'):
        cmd += ['-I', CORPUS + '/appl/collab/lib', '-I', CORPUS + '/appl/collab']
    cmd += ['-o', out, os.path.basename(path)]
    r = subprocess.run(cmd, cwd=os.path.dirname(path), capture_output=True, text=True)
    if r.returncode != 0: return src, None
    ref = os.path.join(CORPUS, 'ref', src[len('appl/'):-2] + '.dis')
    ns = set(); a = dump(out, ns); a = nilify(a, '$-1', ns)
    b = dump(ref); b = nilify(b, inferno_nil(b), set())
    fa = fns(out[:-4] + '.sbl'); fb = fns(ref[:-4] + '.sbl')
    if fa is None or fb is None: return src, None
    return src, (split(a, fa), split(b, fb))

def norm(op):  # operands dropped; a pointer set to nil is "nilp"
    return op[0]

def nilify(ins, nilsrc, nils):
    out = []
    for op, a in ins:
        if op == 'movp' and (a.split(',')[0] == nilsrc or a.split(',')[0] in nils):
            op = 'nilp'
        out.append((op, a))
    return out

def inferno_nil(ins):
    written = set()
    for op, a in ins:
        parts = a.split(',')
        if len(parts) >= 2: written.add(parts[-1])
        if op == 'lea': written.add(parts[0])
    c = collections.Counter(a.split(',')[0] for op, a in ins if op == 'movp' and re.match(r'^\d+\(mp\),', a) and a.split(',')[0] not in written)
    return c.most_common(1)[0][0] if c else None

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--only'); ap.add_argument('--show'); ap.add_argument('--limit', type=int, default=5)
    ap.add_argument('--top', type=int, default=40); ap.add_argument('--ctx', type=int, default=3)
    ap.add_argument('--build', default=os.path.join(ROOT, 'build'))
    a = ap.parse_args()
    global B
    B = os.path.join(os.path.abspath(a.build), 'bin')
    if not os.path.exists(os.path.join(CORPUS, 'index.tsv')):
        print('no corpus at %s: nothing to compare' % CORPUS)
        return
    srcs = []
    with open(CORPUS + '/index.tsv') as f:
        h = f.readline().rstrip('\n').split('\t')
        for l in f:
            d = dict(zip(h, l.rstrip('\n').split('\t')))
            if d.get('inferno_limbo') == 'accepted' and (not a.only or re.search(a.only, d['source'])):
                srcs.append(d['source'])
    buckets = collections.Counter(); ex = collections.defaultdict(list)
    segs = 0; fsame = 0; fdiff = 0; missing = collections.Counter()
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        for src, res in pool.map(one, srcs):
            if res is None: continue
            ours, inf = res
            for name, bi in inf.items():
                if name not in ours:
                    missing['inferno-only fn'] += 1; continue
                oi = ours[name]
                ao = [norm(x) for x in oi]; ai = [norm(x) for x in bi]
                so = ['movp' if x == 'nilp' else x for x in ao]; si = ['movp' if x == 'nilp' else x for x in ai]
                if so == si: fsame += 1; continue
                fdiff += 1
                sm = difflib.SequenceMatcher(None, so, si, autojunk=False)
                for tag, i1, i2, j1, j2 in sm.get_opcodes():
                    if tag == 'equal': continue
                    sig = '%s | %s' % (' '.join(ao[i1:i2]) or '-', ' '.join(ai[j1:j2]) or '-')
                    if len(sig) > 120: sig = sig[:120] + '...'
                    segs += 1; buckets[sig] += 1
                    if len(ex[sig]) < 50: ex[sig].append((src, name, i1, i2, j1, j2, oi, bi))
            for name in ours:
                if name not in inf: missing['ours-only fn'] += 1
    print('functions same %d differ %d segments %d %s' % (fsame, fdiff, segs, dict(missing)))
    if a.show is not None:
        for (src, name, i1, i2, j1, j2, oi, bi) in ex.get(a.show, [])[:a.limit]:
            print('==== %s %s ours[%d:%d] inf[%d:%d]' % (src, name, i1, i2, j1, j2))
            c = a.ctx
            print('-- ours'); [print('  %s%4d %s %s' % ('*' if i1 <= k < i2 else ' ', k, *oi[k])) for k in range(max(0, i1 - c), min(len(oi), i2 + c))]
            print('-- inferno'); [print('  %s%4d %s %s' % ('*' if j1 <= k < j2 else ' ', k, *bi[k])) for k in range(max(0, j1 - c), min(len(bi), j2 + c))]
        return
    for sig, n in buckets.most_common(a.top):
        print('%5d  %s' % (n, sig))

main()
