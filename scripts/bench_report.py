#!/usr/bin/env python3
"""The table and plot of a bench result folder (make bench, bench-host, bench-compare).

    bench_report.py DIR
        DIR/console-bench-KERNEL-RUN.log (the guest's '# BENCH' lines; bench-host
        writes the same lines) and DIR/static-KERNEL.txt -> DIR/runs.tsv,
        DIR/table.md, DIR/plot.svg
    bench_report.py --compare DIR_A DIR_B OUTDIR
        the runs.tsv of two folders (e.g. base and patched, each from
        bench-host on an LPAR) -> the same table and plot in OUTDIR; a kernel
        name found in both gets the folder's name as a suffix.

The first kernel (base) is the reference. A change is 'no significant change'
when the min-max spreads of the two kernels overlap.
"""
import glob
import os
import re
import statistics
import subprocess
import sys

BENCH = re.compile(r'guest: # BENCH (count|load)=(\S+) rep=(\d+) value=(\S+)(.*)$')
EXTRA = re.compile(r'(\w+)=(\S+)')
ORDER = ['base', 'patched', 'extra']


def parse_dir(d):
    rows = []   # kernel, run, kind, metric, rep, value
    for log in sorted(glob.glob(os.path.join(d, 'console-bench-*-*.log'))):
        m = re.match(r'console-bench-(.+)-(\d+)\.log$', os.path.basename(log))
        kernel, run = m.group(1), int(m.group(2))
        for line in open(log, errors='replace'):
            b = BENCH.search(line.rstrip('\r\n'))
            if not b:
                continue
            kind, metric, rep, value, rest = b.groups()
            rows.append((kernel, run, kind, metric, int(rep), float(value)))
            for k, v in EXTRA.findall(rest):
                if k == 'instr_per_msg':
                    rows.append((kernel, run, 'count', 'hb-' + metric[len('hackbench-'):], int(rep), float(v)))
    # make bench's counts from QEMU's log (scripts/bench_trace.py): the '(...)' totals of each loop.
    for tsv in sorted(glob.glob(os.path.join(d, 'trace-*', 'functions-*.tsv'))):
        kernel = os.path.basename(os.path.dirname(tsv))[len('trace-'):]
        loop = os.path.basename(tsv)[len('functions-'):-len('.tsv')]
        for line in open(tsv):
            f = line.rstrip('\n').split('\t')
            if f[0] in ('(kernel)', '(user)', '(pmu-model)'):
                rows.append((kernel, 0, 'exact', f'{loop}:{f[0][1:-1]}', 0, float(f[1])))
    for st in sorted(glob.glob(os.path.join(d, 'static-*.txt'))):
        for line in open(st):
            f = line.split()
            if not f or f[0] != 'STATIC':
                continue
            kernel = f[1]
            if len(f) == 4:
                rows.append((kernel, 0, 'static', f[2], 0, float(f[3])))
            elif len(f) > 4:
                kv = dict(zip(f[3::2], f[4::2]))
                for k in ('disable', 'nested', 'zero', 'current_loads', 'zero_loads', 'nested_loads'):
                    if kv.get(k, '-') != '-':
                        rows.append((kernel, 0, 'static', f'{f[2]}:{k}', 0, float(kv[k])))
                if kv.get('flags_load') in ('yes', 'no'):
                    rows.append((kernel, 0, 'static', f'{f[2]}:flags_load', 0, 1.0 if kv['flags_load'] == 'yes' else 0.0))
    return rows


def cmdlines(d):
    seen = []
    for log in sorted(glob.glob(os.path.join(d, 'console-bench-*-*.log'))):
        for line in open(log, errors='replace'):
            m = re.search(r'Kernel command line: (.*)$', line.rstrip('\r\n'))
            if m:
                c = re.sub(r'guest\.run=\S+ ?', '', m.group(1)).strip()
                if c not in seen:
                    seen.append(c)
                break
    return seen


def write_tsv(d, rows):
    with open(os.path.join(d, 'runs.tsv'), 'w') as f:
        f.write('kernel\trun\tkind\tmetric\trep\tvalue\n')
        for r in rows:
            f.write('\t'.join(str(x) for x in r) + '\n')


def read_tsv(d):
    rows = []
    with open(os.path.join(d, 'runs.tsv')) as f:
        next(f)
        for line in f:
            k, run, kind, metric, rep, v = line.rstrip('\n').split('\t')
            rows.append((k, int(run), kind, metric, int(rep), float(v)))
    return rows


def kernels_of(rows):
    ks = sorted({r[0] for r in rows}, key=lambda k: (ORDER.index(k) if k in ORDER else 9, k))
    return ks


def values(rows, kernel, kind, metric, run=None):
    return [r[5] for r in rows if r[0] == kernel and r[2] == kind and r[3] == metric and (run is None or r[1] == run)]


def fmt(x):
    return f'{x:,.0f}' if abs(x) >= 1000 else f'{x:.2f}' if abs(x) < 10 else f'{x:.1f}'


def cell(v):
    if not v:
        return 'n/a'
    if len(v) == 1:
        return fmt(v[0])
    return f'{fmt(statistics.median(v))} ({fmt(min(v))}-{fmt(max(v))})'


def change(ref, v, lower_better=True):
    if not ref or not v:
        return 'n/a', None
    a, b = statistics.median(ref), statistics.median(v)
    pct = (b - a) / a * 100 if a else 0.0
    if len(ref) > 1 and len(v) > 1 and not (max(v) < min(ref) or min(v) > max(ref)):
        return f'no significant change ({pct:+.1f}%)', pct
    better = (pct < 0) == lower_better
    return f'{pct:+.1f}% ({"better" if better else "worse"})' if pct else '0', pct


def agreement(rows, kernel, metric):
    """The spread of one count over both boots, in % of the median."""
    v = values(rows, kernel, 'count', metric)
    runs = sorted({r[1] for r in rows if r[0] == kernel and r[2] == 'count' and r[3] == metric})
    if len(v) < 2:
        return ''
    return f'{(max(v) - min(v)) / statistics.median(v) * 100:.2f}% over {len(runs)} boot(s) x {len(v) // max(len(runs), 1)}'


COUNTS = [('kill', 'instructions per kill() call (SIGUSR1 ignored, tight loop)'),
          ('kill-syscall', 'the same minus the calibration loop (kernel side)'),
          ('msg-socket', 'instructions per 100-byte message, AF_UNIX socket, same task'),
          ('msg-pipe', 'instructions per 100-byte message, pipe, same task')]


def table(rows, title):
    ks = kernels_of(rows)
    ref = ks[0]
    plot = []
    out = [f'### {title}', '']
    hdr = '| figure | ' + ' | '.join(ks) + ' | ' + ' | '.join(f'{k} vs {ref}' for k in ks[1:]) + ' |'
    sep = '|---' * (1 + 2 * len(ks) - 1) + '|'

    if any(r[2] == 'exact' for r in rows):
        out += ['#### Counted: instructions executed per loop, from QEMU\'s execution log (1 vCPU, -icount)', '',
                hdr, sep]
        for m, label in COUNTS:
            if m == 'kill-syscall':
                continue
            for side in ('kernel', 'user', 'pmu-model'):
                v = [values(rows, k, 'exact', f'{m}:{side}') for k in ks]
                if not v[0]:
                    continue
                cs = [(x[0] - v[0][0]) / v[0][0] * 100 if x and v[0][0] else None for x in v[1:]]
                what = {'kernel': 'kernel instructions', 'user': 'user instructions',
                        'pmu-model': 'instructions the PMU sees (model, kernel and user)'}[side]
                out.append(f'| {label.replace("instructions", what)} | ' +
                           ' | '.join(fmt(x[0]) if x else 'n/a' for x in v) + ' | ' +
                           ' | '.join(f'{x[0] - v[0][0]:+.1f} ({c:+.1f}%)' if x and c is not None else 'n/a'
                                      for x, c in zip(v[1:], cs)) + ' |')
                if side == 'kernel':
                    plot.append(('instr:exact-' + m, cs))
        out += ['', 'Every translation block QEMU ran, with its instructions: windows of N and 2N loops, '
                'difference / N (scripts/bench_trace.py). Where they go by function: trace.md. '
                'The model counts, of the same blocks, only those that leave by a direct jump to a block '
                'on their own page: it reproduces the differences of the PMU figures below within a few '
                'instructions (README, "What the PMU counts").', '']
    out += ['#### Deterministic: instructions counted by the guest PMU (1 vCPU), median (min-max)', '',
            'QEMU\'s TCG PMU counts only part of the instructions the guest runs (README, '
            '"What the PMU counts"): stable, but not an instruction count.', '', hdr, sep]
    for m, label in COUNTS + [(h, f'instructions per hackbench message, {h[3:]} (whole process tree)')
                              for h in sorted({r[3] for r in rows if r[3].startswith('hb-')})]:
        if not any(values(rows, k, 'count', m) for k in ks):
            continue
        cs = [change(values(rows, ref, 'count', m), values(rows, k, 'count', m)) for k in ks[1:]]
        out.append(f'| {label} | ' + ' | '.join(cell(values(rows, k, 'count', m)) for k in ks) + ' | ' +
                   ' | '.join(c[0] for c in cs) + ' |')
        if m in ('kill', 'msg-socket', 'msg-pipe') or m.endswith('-g1'):
            plot.append(('instr:' + m.replace('hb-', 'hackbench-'), [c[1] for c in cs]))
    agr = [f'{k}: {agreement(rows, k, "kill")}' for k in ks if agreement(rows, k, 'kill')]
    if agr:
        out += ['', 'Repeatability of instructions per kill() (max-min over median): ' + '; '.join(agr) + '.']

    st = [r for r in rows if r[2] == 'static']
    if st:
        out += ['', '#### Static: from the vmlinux images', '', hdr, sep]
        names = [('text_bytes', 'text size (bytes)'), ('paca_sites', 'preempt-count sites, r13-relative (PACA)'),
                 ('current_sites', 'preempt-count sites through current'),
                 ('current_loads', 'loads of current (ld rX,PACACURRENT(r13))')]
        fns = []
        for r in st:
            if ':' in r[3] and r[3].split(':')[0] not in fns:
                fns.append(r[3].split(':')[0])
        for fn in fns:
            names += [(f'{fn}:disable', f'`{fn}` preempt_disable() instructions'),
                      (f'{fn}:nested', f'`{fn}` nested preempt_enable() instructions'),
                      (f'{fn}:zero', f'`{fn}` preempt_enable() to zero, instructions'),
                      (f'{fn}:zero_loads', f'`{fn}` loads on the way to zero'),
                      (f'{fn}:current_loads', f'`{fn}` loads of current')]
        for m, label in names:
            v = [values(rows, k, 'static', m) for k in ks]
            if not any(v):
                continue
            out.append(f'| {label} | ' + ' | '.join(f'{x[0]:,.0f}' if x else '-' for x in v) + ' | ' +
                       ' | '.join((f'{x[0] - v[0][0]:+.0f}' if x and v[0] else '-') for x in v[1:]) + ' |')

    loads = sorted({r[3] for r in rows if r[2] == 'load'},
                   key=lambda m: (not m.startswith('stress'), m.split('-g')[0], int(m.split('-g')[1]) if '-g' in m else 0))
    if loads:
        out += ['', '#### Workloads: timings (emulated under QEMU TCG on the bench guest: not POWER10 figures), '
                'median (min-max)', '', hdr, sep]
        for m in loads:
            hib = m.startswith('stress')
            label = 'stress-ng --kill 1: bogo-ops/s (higher is better)' if hib else \
                f'hackbench {m[len("hackbench-"):].replace("-g", ", groups ").replace("-", " ")}: s (lower is better)'
            cs = [change(values(rows, ref, 'load', m), values(rows, k, 'load', m), lower_better=not hib) for k in ks[1:]]
            out.append(f'| {label} | ' + ' | '.join(cell(values(rows, k, 'load', m)) for k in ks) + ' | ' +
                       ' | '.join(c[0] for c in cs) + ' |')
            if hib or m.endswith('-g1'):
                plot.append(('time:' + m, [(-c[1] if hib and c[1] is not None else c[1]) for c in cs]))
    return '\n'.join(out) + '\n', ks, plot


def draw(d, ks, plot):
    """Two panels: the deterministic counts, and the emulated timings (far noisier)."""
    panels = []
    for kind, title in (('instr:', 'instructions (deterministic), % vs ' + ks[0]),
                        ('time:', 'emulated time, % vs ' + ks[0] + ' (stress-ng: -bogo-ops/s)')):
        rows = [(m[len(kind):], cs) for m, cs in plot if m.startswith(kind)]
        if not rows:
            continue
        data = os.path.join(d, 'plot-' + kind[:-1] + '.dat')
        with open(data, 'w') as f:
            f.write('metric ' + ' '.join(ks[1:]) + '\n')
            for m, cs in rows:
                f.write(m.replace('hackbench-', 'hb-').replace('stress-ng-', 'sng-') + ' ' +
                        ' '.join('0' if c is None else f'{c:.3f}' for c in cs) + '\n')
        cols = ', '.join(f"'{data}' using {i + 2}:xtic(1) title columnhead" for i in range(len(ks) - 1))
        panels.append(f"set title '{title}'\nplot {cols}\n")
    gp = f"""set terminal svg size 1100,440 font 'sans,11'
set output '{os.path.join(d, 'plot.svg')}'
set multiplot layout 1,{len(panels)} title 'Change against {ks[0]}: negative is better'
set style data histogram
set style histogram clustered
set style fill solid 0.8
set grid ytics
set xtics rotate by -35 font ',9'
set key below
""" + ''.join(panels) + 'unset multiplot\n'
    subprocess.run(['gnuplot'], input=gp, text=True, check=True)


def main(argv):
    if argv[:1] == ['--compare']:
        if len(argv) != 4:
            sys.exit(__doc__)
        a, b, outdir = argv[1:]
        ra, rb = read_tsv(a), read_tsv(b)
        both = {r[0] for r in ra} & {r[0] for r in rb}
        tag = lambda rows, d: [((r[0] + '-' + os.path.basename(d.rstrip('/'))) if r[0] in both else r[0],) + r[1:] for r in rows]
        rows = tag(ra, a) + tag(rb, b)
        os.makedirs(outdir, exist_ok=True)
        title = f'compare {a} and {b}'
        d = outdir
        write_tsv(d, rows)
    else:
        if len(argv) != 1:
            sys.exit(__doc__)
        d = argv[0]
        rows = parse_dir(d)
        if not any(r[2] == 'count' for r in rows):
            sys.exit(f'bench_report: no BENCH lines in {d}/console-bench-*.log: did the guest run?')
        write_tsv(d, rows)
        title = f'make bench, {os.path.basename(os.path.abspath(d))}'
    if len(kernels_of(rows)) < 2:
        print(f'bench_report: {d}/runs.tsv holds one kernel ({kernels_of(rows)[0]}): '
              'compare two folders with scripts/bench-compare.sh')
        return 0
    md, ks, plot = table(rows, title)
    for c in ([] if argv[:1] == ['--compare'] else cmdlines(d)):
        md += f'\nGuest kernel command line: `{c}`\n'
    open(os.path.join(d, 'table.md'), 'w').write(md)
    draw(d, ks, plot)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
