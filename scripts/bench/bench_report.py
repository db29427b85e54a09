#!/usr/bin/env python3
"""The table and plot of a bench result folder (make bench, bench-host, bench-compare).

    bench_report.py DIR
        DIR/console-bench-KERNEL-RUN.log (the guest's '# BENCH' lines; bench-host
        writes the same lines) and DIR/static-KERNEL.txt -> DIR/runs.tsv,
        DIR/table.md, DIR/plot.svg, DIR/plot.png (and the plot's data, DIR/plot-*.dat)
    bench_report.py --compare DIR_A DIR_B OUTDIR
        the runs.tsv of two folders (e.g. base and patched, each from
        bench-host on an LPAR) -> the same table and plot in OUTDIR; a kernel
        name found in both gets the folder's name as a suffix.

The first kernel (base) is the one the others are compared with; a kernel named
'reference' (say, one before dynamic preemption) is the zero of the exact counts'
panel instead. A change is 'no significant change' when the min-max spreads of
the two kernels overlap (overlap()): the table says so, and the plot draws it
with no height.
"""
import glob
import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_trace  # noqa: E402

# The kernel instructions of single loops (bench_trace.single_stats()).
SINGLE = ('(single-median)', '(single-mode)', '(single-mode-share)', '(single-min)')
BENCH = re.compile(r'guest: # BENCH (count|load)=(\S+) rep=(\d+) value=(\S+)(.*)$')
EXTRA = re.compile(r'(\w+)=(\S+)')
ORDER = ['base', 'patched', 'rcu', 'extra', 'reference']


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
                elif k in ('instr_per_bogo', 'cycles_per_bogo'):	# bench-host's perf stat
                    rows.append((kernel, run, 'count', 'perf-' + k.replace('_', '-'), int(rep), float(v)))
    # make bench's counts from QEMU's log (scripts/bench/bench_trace.py): the '(...)' totals of each
    # loop, and its steady count (bench_trace.steady()) from the functions.
    for tsv in sorted(glob.glob(os.path.join(d, 'trace-*', 'functions-*.tsv'))):
        kernel = os.path.basename(os.path.dirname(tsv))[len('trace-'):]
        loop = os.path.basename(tsv)[len('functions-'):-len('.tsv')]
        fns = bench_trace.load(os.path.dirname(tsv), loop)
        for f in ('(kernel)', '(user)', '(pmu-model)', '(kernel-loads)', '(kernel-stores)') + SINGLE:
            if f in fns:
                rows.append((kernel, 0, 'exact', f'{loop}:{f[1:-1]}', 0, fns[f]))
        rows.append((kernel, 0, 'exact', f'{loop}:kernel-steady', 0, bench_trace.steady(fns)))
        # The same loop again in boots of its own (bench.sh: repeat-KERNEL-RUN/), run 1 being this one.
        reps = [r for r in glob.glob(os.path.join(d, f'repeat-{kernel}-*'))
                if re.fullmatch(rf'repeat-{re.escape(kernel)}-\d+', os.path.basename(r))]
        for rep in [os.path.dirname(tsv)] + sorted(reps):
            run = 1 if rep == os.path.dirname(tsv) else int(rep.rsplit('-', 1)[1])
            if not os.path.exists(os.path.join(rep, f'functions-{loop}.tsv')):
                continue
            rf = bench_trace.load(rep, loop)
            for f in ('(kernel)',) + SINGLE:
                if f in rf:
                    rows.append((kernel, run, 'repeat', f'{loop}:{f[1:-1]}', 0, rf[f]))
            rows.append((kernel, run, 'repeat', f'{loop}:kernel-steady', 0, bench_trace.steady(rf)))
    for st in sorted(glob.glob(os.path.join(d, 'static-*.txt'))):
        for line in open(st):
            f = line.split()
            if not f or f[0] != 'STATIC':
                continue
            kernel = f[1]
            if len(f) == 4:
                if f[3] not in ('absent', 'none'):	# absent: inlined (the reference's); none: no section
                    rows.append((kernel, 0, 'static', f[2], 0, float(f[3])))
            elif len(f) > 4:	# a hot function's fast paths, or a caller's read-side sections
                kv = dict(zip(f[3::2], f[4::2]))
                keys = ('rcu_pair', 'rcu_lock', 'rcu_unlock', 'rcu_unlock_zero', 'preempt_pair', 'frame') \
                    if f[2].startswith('section:') else \
                    ('disable', 'nested', 'zero', 'current_loads', 'zero_loads', 'nested_loads')
                for k in keys:
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


def overlap(ref, v):
    """The one rule of 'no significant change', for the table and the plot: both
    figures were repeated and their min-max spreads overlap."""
    return len(ref) > 1 and len(v) > 1 and not (max(v) < min(ref) or min(v) > max(ref))


def change(ref, v, lower_better=True):
    if not ref or not v:
        return 'n/a', None
    a, b = statistics.median(ref), statistics.median(v)
    pct = (b - a) / a * 100 if a else 0.0
    if overlap(ref, v):
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
          ('msg-pipe', 'instructions per 100-byte message, pipe, same task'),
          ('null', 'instructions per getppid() call (the null system call)'),
          ('read-zero', 'instructions per 1-byte read() of /dev/zero (fd lookup)'),
          ('ctxsw', 'instructions per round trip of a byte between two tasks over two pipes (two context switches)'),
          ('ctxsw-fifo', 'instructions per round trip of a byte between two SCHED_FIFO tasks over two pipes '
           '(two context switches, no fair scheduler)'),
          # The user profile's (make bench; the plot of these is user.png, bench_user.py).
          ('stress-kill', 'instructions per stress-ng --kill 1 bogo-op, the guest\'s own processes'),
          ('stress-kill-300', 'instructions per stress-ng --kill 1 bogo-op, 300 processes'),
          # make bench-host's perf stat of stress-ng --kill 1 (user and kernel, the whole process tree).
          ('perf-instr-per-bogo', 'perf stat: instructions per stress-ng --kill 1 bogo-op'),
          ('perf-cycles-per-bogo', 'perf stat: cycles per stress-ng --kill 1 bogo-op')]
SIDES = {'kernel': 'kernel instructions',
         'kernel-steady': 'steady kernel instructions',
         'single-median': 'median kernel instructions of single loops',
         'single-mode': 'most common kernel instructions of single loops',
         'user': 'user instructions',
         'pmu-model': 'instructions the PMU sees (model, kernel and user)',
         'kernel-loads': 'kernel loads', 'kernel-stores': 'kernel stores'}


def against_reference(rows, ks, m, label, side='kernel'):
    """Two rows for a loop when the bench has the reference kernel: each kernel's
    kernel instructions (or steady ones) over the reference, and the share of
    base's overhead that each other kernel removes."""
    ref, base = values(rows, 'reference', 'exact', f'{m}:{side}'), values(rows, ks[0], 'exact', f'{m}:{side}')
    if not ref or not base:
        return []
    over = {k: values(rows, k, 'exact', f'{m}:{side}')[0] - ref[0]
            for k in ks if values(rows, k, 'exact', f'{m}:{side}')}
    blank = ' | '.join('' for _ in ks[1:])
    first = label.split(' (')[0].replace('instructions', 'kernel instructions' if side == 'kernel' else 'steady kernel instructions')
    out = [f'| {first}: overhead over the reference | ' +
           ' | '.join(f'{over[k]:+.1f}' if k in over else 'n/a' for k in ks) + f' | {blank} |']
    b = over[ks[0]]
    share = []
    for k in ks:
        if k in (ks[0], 'reference') or k not in over:
            share.append('-')
        elif b <= 0:
            share.append(f'n/a ({ks[0]} is not above the reference)')
        else:
            share.append(f'{(b - over[k]) / b * 100:.0f}% ({b - over[k]:.1f} of {b:.1f})')
    out.append(f'| {first}: share of {ks[0]}\'s overhead removed | ' + ' | '.join(share) + f' | {blank} |')
    return out


def repeatability(rows, ks):
    """The loops traced again in boots of their own: each figure per boot, its
    spread, and each kernel against the first over all boots."""
    out = []
    loops = dict.fromkeys(r[3].split(':')[0] for r in rows if r[2] == 'repeat')
    for loop in loops:
        ksr = [k for k in ks if len({r[1] for r in rows if r[0] == k and r[2] == 'repeat' and r[3].startswith(loop + ':')}) > 1]
        if not ksr:
            continue
        label = dict(COUNTS).get(loop, loop)
        runs = sorted({r[1] for r in rows if r[2] == 'repeat'})
        out += [f'#### Repeatability: {label}, traced in {len(runs)} boots', '',
                '| kernel | figure | ' + ' | '.join(f'boot {i}' for i in runs) +
                f' | spread (max-min) | mean | vs {ksr[0]} |', '|---|---|' + '---|' * len(runs) + '---|---|---|']
        for side, name in (('kernel', 'kernel instructions (windows)'), ('kernel-steady', 'steady kernel instructions'),
                           ('single-median', 'median of single loops'), ('single-mode', 'most common single loop'),
                           ('single-mode-share', 'share of loops at the most common (%)')):
            for k in ksr:
                v = {run: values(rows, k, 'repeat', f'{loop}:{side}', run) for run in runs}
                got = [x[0] for x in v.values() if x]
                if not got:
                    continue
                mean = statistics.mean(got)
                b = [x[0] for x in (values(rows, ksr[0], 'repeat', f'{loop}:{side}', run) for run in runs) if x]
                vs = '' if k == ksr[0] or side.endswith('share') or not b else \
                    f'{mean - statistics.mean(b):+.1f} ({(mean - statistics.mean(b)) / statistics.mean(b) * 100:+.2f}%)'
                out.append(f'| {k} | {name} | ' + ' | '.join(fmt(v[run][0]) if v[run] else 'n/a' for run in runs) +
                           f' | {max(got) - min(got):.1f} | {fmt(mean)} | {vs} |')
        out += ['', 'Boot 1 is the trace of the table above; the others trace this loop alone '
                '(bench.trace_only=, scripts/bench/bench.sh). A single loop is the kernel instructions between '
                'two starts of the guest\'s loop (guest/trace.c\'s loop_mark()), both windows\' loops together '
                '(bench_trace.single_stats()): the windows\' average moves with how often the fair scheduler '
                'takes each of its paths, which differs by kernel (under -icount its instructions are its clock) '
                'and with what ran before in the boot; the median and the most common single loop, one path\'s '
                'count, do not.', '']
    return out


def table(rows, title, host=False):
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
            # The picture takes the steady count where there is one.
            steady = bool(values(rows, ks[0], 'exact', f'{m}:kernel-steady'))
            for side in SIDES:
                v = [values(rows, k, 'exact', f'{m}:{side}') for k in ks]
                if not v[0]:
                    continue
                cs = [(x[0] - v[0][0]) / v[0][0] * 100 if x and v[0][0] else None for x in v[1:]]
                out.append(f'| {label.replace("instructions", SIDES[side])} | ' +
                           ' | '.join(fmt(x[0]) if x else 'n/a' for x in v) + ' | ' +
                           ' | '.join(f'{x[0] - v[0][0]:+.1f} ({c:+.1f}%)' if x and c is not None else 'n/a'
                                      for x, c in zip(v[1:], cs)) + ' |')
                if side == ('kernel-steady' if steady else 'kernel') and not m.startswith('stress'):
                    plot.append(('exact', m, [x[0] if x else None for x in v], steady))
                if side in ('kernel', 'kernel-steady') and 'reference' in ks:
                    out += against_reference(rows, ks, m, label, side)
        out += ['', 'Every translation block QEMU ran, with its instructions: windows of N and 2N loops, '
                'difference / N (scripts/bench/bench_trace.py). Where they go by function: trace.md. '
                'The steady count sums only the functions that run at least once every two loops: '
                'one-time work in the first window (a page fault, a timer) drops out of it, so it '
                'repeats from run to run where the total can move by ten. '
                'The model counts, of the same blocks, only those that leave by a direct jump to a block '
                'on their own page: it reproduces the differences of the PMU figures below within a few '
                'instructions (README, "What the PMU counts").', '']
    out += repeatability(rows, ks)
    if host:
        out += ['#### Counted by the PMU of the machine the runs name (bench-host: the loops through '
                'perf_event_open, stress-ng under perf stat), median (min-max)', '',
                'Under QEMU\'s TCG the PMU counts only part of the instructions (README, "What the PMU '
                'counts"); on POWER hardware it counts every completed instruction.', '', hdr, sep]
    else:
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
            plot.append(('pmu', m, [values(rows, k, 'count', m) for k in ks]))
    agr = [f'{k}: {agreement(rows, k, "kill")}' for k in ks if agreement(rows, k, 'kill')]
    if agr:
        out += ['', 'Repeatability of instructions per kill() (max-min over median): ' + '; '.join(agr) + '.']

    st = [r for r in rows if r[2] == 'static']
    if st:
        out += ['', '#### Static: from the vmlinux images', '', hdr, sep]
        names = [('text_bytes', 'text size (bytes)'), ('paca_sites', 'preempt-count sites, r13-relative (PACA)'),
                 ('current_sites', 'preempt-count sites through current'),
                 ('current_loads', 'loads of current (ld rX,PACACURRENT(r13))')]
        fns, secs = [], []
        for r in st:
            if r[3].startswith('section:'):
                if r[3].split(':')[1] not in secs:
                    secs.append(r[3].split(':')[1])
            elif ':' in r[3] and r[3].split(':')[0] not in fns:
                fns.append(r[3].split(':')[0])
        for fn in fns:
            names += [(f'{fn}:disable', f'`{fn}` preempt_disable() instructions'),
                      (f'{fn}:nested', f'`{fn}` nested preempt_enable() instructions'),
                      (f'{fn}:zero', f'`{fn}` preempt_enable() to zero, instructions'),
                      (f'{fn}:zero_loads', f'`{fn}` loads on the way to zero'),
                      (f'{fn}:current_loads', f'`{fn}` loads of current')]
        names.append(('fast_path:arch_local_irq_restore',
                      '`arch_local_irq_restore` fast path: entry to its first return, instructions'))
        for fn in secs:
            names += [(f'section:{fn}:rcu_pair', f'`{fn}` rcu_read_lock() + outermost rcu_read_unlock() (limit 7)'),
                      (f'section:{fn}:preempt_pair', f'`{fn}` preempt_disable() + preempt_enable() to zero (limit 7)'),
                      (f'section:{fn}:frame', f'`{fn}` stack frame kept on the fast path for the out-of-line call')]
        for m, label in names:
            v = [values(rows, k, 'static', m) for k in ks]
            if not any(v):
                continue
            out.append(f'| {label} | ' + ' | '.join(f'{x[0]:,.0f}' if x else '-' for x in v) + ' | ' +
                       ' | '.join((f'{x[0] - v[0][0]:+.0f}' if x and v[0] else '-') for x in v[1:]) + ' |')

    loads = sorted({r[3] for r in rows if r[2] == 'load'},
                   key=lambda m: (not m.startswith('stress'), m.split('-g')[0], int(m.split('-g')[1]) if '-g' in m else 0))
    if loads:
        out += ['', '#### Workloads: timings on the machine the runs name, median (min-max)' if host else
                '#### Workloads: timings (emulated under QEMU TCG on the bench guest: not POWER10 figures), '
                'median (min-max)', '', hdr, sep]
        for m in loads:
            hib = m.startswith('stress')
            label = 'stress-ng --kill 1 under perf stat: bogo-ops/s (higher is better)' if m.endswith('-perf') else \
                'stress-ng --kill 1: bogo-ops/s (higher is better)' if hib else \
                f'hackbench {m[len("hackbench-"):].replace("-g", ", groups ").replace("-", " ")}: s (lower is better)'
            cs = [change(values(rows, ref, 'load', m), values(rows, k, 'load', m), lower_better=not hib) for k in ks[1:]]
            out.append(f'| {label} | ' + ' | '.join(cell(values(rows, k, 'load', m)) for k in ks) + ' | ' +
                       ' | '.join(c[0] for c in cs) + ' |')
    return '\n'.join(out) + '\n', ks, plot


# Colours by kernel position (base first); 'no change' is drawn in NOCHANGE, hollow.
COLOURS = ['#ff7f0e', '#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#8c564b']
NOCHANGE = '#a0a0a0'
FIGS = {'kill': 'kill()', 'msg-socket': 'AF_UNIX message', 'msg-pipe': 'pipe message', 'null': 'getppid()',
        'read-zero': 'read() /dev/zero', 'ctxsw': 'switch round trip', 'ctxsw-fifo': 'FIFO switch round trip'}


def figname(m):
    return FIGS.get(m) or 'hackbench ' + m[len('hb-'):].replace('-g1', '')


def draw(d, ks, plot, title):
    """plot.svg and plot.png. First and largest, the exact counts: kernel instructions
    per loop against base (against 'reference', when the bench has one). Then the PMU
    counts, % against base, median with min-max error bars over the repetitions; a
    figure whose spread overlaps the base's (overlap(), as in the table) is drawn as
    no change: a hollow grey mark at 0, no bar. Timings are not drawn (table.md)."""
    exact = [(p[1], p[2]) for p in plot if p[0] == 'exact']
    steady = any(p[3] for p in plot if p[0] == 'exact')
    pmu = [(p[1], p[2]) for p in plot if p[0] == 'pmu' and p[2][0]]
    colour = {k: COLOURS[i % len(COLOURS)] for i, k in enumerate(ks)}
    panels = []   # title, y label, xtics, plot clauses, labels (x, y, text, font, on end?), height, y values
    if exact:
        anchor = 'reference' if 'reference' in ks else ks[0]
        bars = [k for k in ks if k != anchor]
        rows, tics, labels = ['figure kernel x delta pct count'], [], []
        for j, (m, v) in enumerate(exact):
            a, x0 = v[ks.index(anchor)], j * (len(bars) + 1)
            if a is None:
                continue
            tics.append(f'"{figname(m)}\\n{anchor} {a:,.1f}" {x0 + (len(bars) - 1) / 2}')
            for i, k in enumerate(bars):
                c = v[ks.index(k)]
                if c is not None:
                    rows.append(f'{m} {k} {x0 + i} {c - a:.1f} {(c - a) / a * 100:.2f} {c:.1f}')
                    labels.append((x0 + i, c - a, f'{c - a:+.1f} ({(c - a) / a * 100:+.1f}%)', ',10', True))
        data = os.path.join(d, 'plot-exact.dat')
        open(data, 'w').write('\n'.join(rows) + '\n')
        what = 'over the reference kernel' if anchor == 'reference' else f'against {anchor}'
        plots = [f"'{data}' using (strcol(2) eq '{k}' ? $3 : NaN):4 with boxes fc rgb '{colour[k]}' title '{k}'"
                 for k in bars]
        count = 'Steady count' if steady else 'Exact count'
        panels.append((f'{count}, from QEMU\'s execution log: kernel instructions per loop, {what}',
                       'instructions per loop', tics, plots, labels, 0.55, [l[1] for l in labels]))
    if pmu:
        rows, tics, labels, ys, n = ['figure kernel x height pct lo hi state'], [], [], [], len(ks)
        for j, (m, v) in enumerate(pmu):
            med = statistics.median(v[0])
            name = figname(m).replace(' ', '\\n')
            tics.append(f'"{name}" {j * (n + 1) + (n - 1) / 2}')
            for i, (k, c) in enumerate(zip(ks, v)):
                if not c:
                    continue
                x, pct, lo, hi = (j * (n + 1) + i, (statistics.median(c) - med) / med * 100,
                                  (min(c) - med) / med * 100, (max(c) - med) / med * 100)
                state = 'base' if i == 0 else 'no-change' if overlap(v[0], c) else 'change'
                rows.append(f'{m} {k} {x} {pct if state == "change" else 0:.3f} {pct:.3f} {lo:.3f} {hi:.3f} {state}')
                ys += [lo, hi]
                if state == 'change':
                    labels.append((x, max(hi, 0) if pct >= 0 else min(lo, 0), f'{pct:+.1f}%', ',9', False))
        data = os.path.join(d, 'plot-pmu.dat')
        open(data, 'w').write('\n'.join(rows) + '\n')
        only = "(strcol(8) eq '{}' ? $3 : NaN)".format
        plots = [f"'{data}' using (strcol(8) eq 'change' && strcol(2) eq '{k}' ? $3 : NaN):4 with boxes "
                 f"fc rgb '{colour[k]}' title '{k}'" for k in ks[1:]]
        plots += [f"'{data}' using {only('change')}:5:6:7 with yerrorbars lc rgb '#000000' pt 7 ps 0.4 "
                  "title 'median, min-max'",
                  f"'{data}' using {only('base')}:5:6:7 with yerrorbars lc rgb '{NOCHANGE}' pt 1 ps 0.8 "
                  f"title '{ks[0]}: spread'",
                  f"'{data}' using {only('no-change')}:4:6:7 with yerrorbars lc rgb '{NOCHANGE}' pt 6 ps 0.8 "
                  f"title 'overlaps {ks[0]}: no change'"]
        panels.append((f'PMU count (partial under QEMU), % against {ks[0]}; hackbench: 1 group, whole process tree',
                       f'% against {ks[0]}', tics, plots, labels, 0.4, ys))
    if not panels:
        return
    gp = f"""set termoption noenhanced
set multiplot title "{title}: negative is fewer instructions (better)" font ',13'
set style fill solid 0.85 border lc rgb '#000000'
set boxwidth 0.8
set grid ytics
set xzeroaxis lt -1
set lmargin 10
set rmargin 30
set key outside right top font ',10'
set label 1 'Timings are not plotted (table.md): under make bench they are emulated, QEMU TCG on shared cores.' \\
    at screen 0.5,0.02 center font ',10' tc rgb '#505050'
"""
    top, scale = 0.94, 0.89 / sum(p[5] for p in panels)
    for t, yl, tics, plots, labels, h, ys in panels:
        top -= h * scale
        lo, hi = min(ys + [0]), max(ys + [0])
        pad = (hi - lo) * 0.2 or 1
        # The exact panel's labels stand on end above the bar, or above 0 for a bar
        # below it (bars are narrow): room for them at the top.
        ytop = hi + ((hi - lo) * 0.75 or 1) if labels and labels[0][4] else hi + pad if hi > 0 else pad / 4
        gp += (f"set origin 0,{top:.3f}\nset size 1,{h * scale:.3f}\nset title \"{t}\"\nset ylabel '{yl}'\n"
               f"set xtics ({', '.join(tics)}) font ',10'\nset xrange [-1:*]\nset offsets 0,1,0,0\n"
               f"set yrange [{lo - pad if lo < 0 else -pad / 4:.3f}:{ytop:.3f}]\n")
        # Labels as 'set label': gnuplot 5.4.4 crashes on 'with labels' when every point is filtered out.
        gp += ''.join(f"set label \"{text}\" at {x},{max(y, 0)} left rotate by 90 offset 0,0.5 font '{font}'\n"
                      if up else
                      f"set label \"{text}\" at {x},{y} center offset 0,{-0.8 if y < 0 else 0.8} font '{font}'\n"
                      for x, y, text, font, up in labels)
        gp += f"plot {', '.join(plots)}\nunset label\n"
    gp += 'unset multiplot\n'
    for term, out in (("svg size 1100,800 font 'sans,11' background rgb 'white'", 'plot.svg'),
                      ("pngcairo size 1100,800 font 'sans,11'", 'plot.png')):
        subprocess.run(['gnuplot'], input=f"set terminal {term}\nset output '{os.path.join(d, out)}'\n" + gp,
                       text=True, check=True)


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
        if not any(r[2] in ('count', 'load') for r in rows):
            sys.exit(f'bench_report: no BENCH lines in {d}/console-bench-*.log: did the guest run?')
        write_tsv(d, rows)
        title = f'make bench, {os.path.basename(os.path.abspath(d))}'
    if len(kernels_of(rows)) < 2:
        print(f'bench_report: {d}/runs.tsv holds one kernel ({kernels_of(rows)[0]}): '
              'compare two folders with scripts/bench/bench-compare.sh')
        return 0
    host = any(glob.glob(os.path.join(x, 'profile-*.txt')) for x in (argv[1:3] if argv[:1] == ['--compare'] else argv[:1]))
    md, ks, plot = table(rows, title, host)
    for c in ([] if argv[:1] == ['--compare'] else cmdlines(d)):
        md += f'\nGuest kernel command line: `{c}`\n'
    open(os.path.join(d, 'table.md'), 'w').write(md)
    draw(d, ks, plot, title)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
