#!/usr/bin/env python3
"""The user profile's report (issue 58, parts 3, 5, 6 and 7), from a bench folder.

    bench_user.py DIR    (Markdown on stdout; bench.sh writes it to DIR/user.md)

DIR holds what scripts/bench/bench.sh writes for BENCH_PROFILE=user: trace-KERNEL/
(functions-LOOP.tsv of scripts/bench/bench_trace.py count, windows.tsv) and
console-trace-KERNEL.log (the traced boot, with guest/trace.c's '# BENCH
stress=LOOP procs=P sleepers=S ops=N' lines and stress-ng's version).

- stress-ng --kill 1 per bogo-op: kernel and user instructions, kernel loads,
  at each process count; Shrikanth's split (reference -> rcu-only: PREEMPT_RCU
  alone; rcu-only -> base: the preemption mode) beside the reporter's 55/45;
  what each series wins back of base's overhead over the reference, drawn
  in DIR/user.png (and .svg; the data in DIR/user-plot.dat); the
  same bogo-op under audit=1 with no rule where DIR has audit1-KERNEL/.
- The report's perf table: each function as a share of the kernel
  instructions of a bogo-op, beside the report's 6.15 and 6.16 percentages,
  with every other function above 2% in any kernel.
- Per loop and kernel, the instructions POWER pays most for (bench_trace's
  '(insn:CLASS)' counts): sync/hwsync, lwsync, isync, eieio, mtmsrd, mtspr and
  mfspr by SPR, larx and stcx.
- Per loop and kernel, the instructions spent in what PREEMPT_DYNAMIC switches
  with static keys: its dynamic_*() wrappers and the key sites outside them
  ('(key:...)'): the most HAVE_PREEMPT_DYNAMIC_CALL could save; beside them
  what the keys lead to and PREEMPT_RCU's read side, which no call touches.
"""
import glob
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_trace  # noqa: E402

ORDER = ['reference', 'rcu-only', 'base', 'patched', 'rcu']
STRESS = re.compile(r'# BENCH stress=(\S+) procs=(\d+) sleepers=(\d+) ops=(\d+)(?: sched=(\S+))?')
VERSION = re.compile(r'# stress-ng: (stress-ng, version \S+)')
# The report's perf table (seed 000): 6.15 (no PREEMPT_RCU) and 6.16, % of cycles.
REPORT = [('avc_lookup', 15.23, 24.79), ('__rcu_read_lock', 0.0, 4.52), ('__rcu_read_unlock', 0.0, 4.17),
          ('selinux_task_kill', 6.23, 7.35), ('audit_signal_info*', 0.94, 3.59)]
# What PREEMPT_DYNAMIC switches by a key: the wrappers a static call would
# replace (each holds its key's site), and what they lead to when on.
WRAPPERS = ('dynamic_cond_resched', 'dynamic_might_resched', 'dynamic_preempt_schedule',
            'dynamic_preempt_schedule_notrace', 'dynamic_irqentry_exit_cond_resched')
TARGETS = ('__cond_resched', 'preempt_schedule', 'preempt_schedule_notrace', 'preempt_schedule_common',
           'preempt_schedule_irq', 'raw_irqentry_exit_cond_resched')
RCU_READ = ('__rcu_read_lock', '__rcu_read_unlock', 'rcu_read_unlock_special')
# The classes of part 6, in this order; mtspr:/mfspr: by SPR after them.
CLASSES = ('hwsync', 'lwsync', 'ptesync', 'sync', 'isync', 'eieio', 'mtmsrd', 'mtmsr', 'mfmsr', 'larx', 'stcx',
           'rfid', 'hrfid', 'rfscv', 'sc')


def kernels(d):
    ks = [os.path.basename(p)[len('trace-'):] for p in glob.glob(os.path.join(d, 'trace-*')) if os.path.isdir(p)]
    return [k for k in ORDER if k in ks] + sorted(k for k in ks if k not in ORDER)


def loops(d, k):
    p = os.path.join(d, f'trace-{k}', 'windows.tsv')
    return list(dict.fromkeys(l.split()[0] for l in open(p))) if os.path.exists(p) else []


def fn_sum(fns, name):
    """A function's count; NAME ending in '*': every function so named."""
    if name.endswith('*'):
        return sum(v for f, v in fns.items() if f.startswith(name[:-1]) and not f.startswith('('))
    return fns.get(name, 0.0)


def stress_info(d, k):
    """{loop: (procs, sleepers, ops)} and stress-ng's version, from the traced boot's console."""
    info, ver = {}, None
    p = os.path.join(d, f'console-trace-{k}.log')
    for line in open(p, errors='replace') if os.path.exists(p) else []:
        m = STRESS.search(line)
        if m:
            info[m[1]] = (int(m[2]), int(m[3]), int(m[4]), m[5] or '?')
        v = VERSION.search(line)
        if v and not ver:
            ver = v[1]
    return info, ver


def draw(d, data, sloops, ks):
    """DIR/user.png and user.svg: per stress loop, each kernel's kernel
    instructions and loads per bogo-op over the reference's, in % of it."""
    bars = [k for k in ks if k != 'reference']
    if not bars:
        return False
    rows, tics, labels = ['loop kernel x pct'], [], []
    x = 0
    for l in sloops:
        for what, name in (('(kernel)', 'instructions'), ('(kernel-loads)', 'loads')):
            ref = data['reference'].get(l, {}).get(what)
            if not ref:
                continue
            tics.append(f'"{l}\\n{name}\\nreference {ref:,.0f}" {x + (len(bars) - 1) / 2}')
            for i, k in enumerate(bars):
                v = data[k].get(l, {}).get(what)
                if v is not None:
                    c = (v - ref) / ref * 100
                    rows.append(f'{l} {k} {x + i} {c:.2f}')
                    labels.append(f'set label "{c:+.1f}%" at {x + i},{max(c, 0)} left rotate by 90 offset 0,0.5 font \',9\'')
            x += len(bars) + 1
    if not tics:
        return False
    ys = [float(r.split()[3]) for r in rows[1:]] + [0.0]
    lo, hi = min(ys), max(ys)
    lo, hi = lo - (hi - lo) * 0.05, hi + (hi - lo) * 0.3 + 0.1
    dat = os.path.join(d, 'user-plot.dat')
    open(dat, 'w').write('\n'.join(rows) + '\n')
    colours = ['#9467bd', '#1f77b4', '#d62728', '#2ca02c', '#8c564b', '#ff7f0e']
    plots = [f"'{dat}' using (strcol(2) eq '{k}' ? $3 : NaN):4 with boxes fc rgb '{colours[i % len(colours)]}' title '{k}'"
             for i, k in enumerate(bars)]
    gp = ("set title \"stress-ng --kill 1 on the user's kernel: kernel work per bogo-op over the pre-7.0 reference "
          "(QEMU execution log)\" font ',12'\n"
          "set style fill solid 0.85 border lc rgb '#000000'\nset boxwidth 0.8\nset grid ytics\n"
          "set xzeroaxis lt -1\nset key outside right top\nset ylabel '% over the reference'\n"
          f"set xtics ({', '.join(tics)}) font ',9'\nset xrange [-1:{x}]\nset yrange [{lo:.2f}:{hi:.2f}]\nset bmargin 5\n"
          + '\n'.join(labels) + f"\nplot {', '.join(plots)}\n")
    for term, out in (("svg size 1100,600 font 'sans,11' background rgb 'white'", 'user.svg'),
                      ("pngcairo size 1100,600 font 'sans,11'", 'user.png')):
        subprocess.run(['gnuplot'], input=f"set terminal {term}\nset output '{os.path.join(d, out)}'\n" + gp,
                       text=True, check=True)
    return True


def pct(x, base):
    return f'{100.0 * x / base:.1f}%' if base else 'n/a'


def main(d):
    ks = kernels(d)
    if not ks:
        sys.exit(f'bench_user: no trace-KERNEL folder in {d}')
    data = {k: {l: bench_trace.load(os.path.join(d, f'trace-{k}'), l) for l in loops(d, k)} for k in ks}
    info = {k: stress_info(d, k) for k in ks}
    out = ['# The user profile (issue 58)', '']
    vers = sorted({v for _, v in info.values() if v})
    out.append(f'Kernels: {", ".join(ks)}. stress-ng: {", ".join(vers) or "version not printed"}. '
               'Instructions per loop (per bogo-op for stress-ng) from QEMU\'s execution log '
               '(scripts/bench/bench_trace.py: windows of N and 2N, difference / N).')
    out.append('')
    sloops = [l for l in dict.fromkeys(l for k in ks for l in data[k]) if l.startswith('stress-kill')]

    # ---- part 3: stress-ng per bogo-op.
    out += ['## stress-ng --kill 1, per bogo-op', '',
            '| loop | kernel | processes (sleepers) | bogo-ops N | policy | kernel | kernel steady | user | kernel loads |',
            '|---|---|---:|---:|---|---:|---:|---:|---:|']
    for l in sloops:
        for k in ks:
            if l not in data[k]:
                continue
            f = data[k][l]
            p, s, n, pol = info[k][0].get(l, ('?', '?', '?', '?'))
            out.append(f'| {l} | {k} | {p} ({s}) | {n} | {pol} | {f["(kernel)"]:.1f} | {bench_trace.steady(f):.1f} | '
                       f'{f.get("(user)", 0):.1f} | {f.get("(kernel-loads)", 0):.1f} |')
        procs = {info[k][0].get(l, (None,))[0] for k in ks if l in data[k]}
        if len(procs) > 1:
            out.append(f'| {l} | **the kernels ran at different process counts: {sorted(procs, key=str)}** ||||||||')
    out.append('')
    # Shrikanth's split and what the series win back, per stress loop, kernel instructions and loads.
    if 'reference' in ks and 'base' in ks:
        out += ['### The split and what the series win back', '',
                'Of base\'s overhead over the reference (kernel instructions, kernel loads per bogo-op): '
                'reference -> rcu-only is PREEMPT_RCU alone (the voluntary mode kept), rcu-only -> base the '
                'preemption mode (voluntary -> lazy); the reporter estimated 55% mode, 45% PREEMPT_RCU '
                '(bogo-ops/s, seed 002). "Removed" is (base - kernel) / (base - reference).', '',
                '| loop | figure | base - reference | PREEMPT_RCU alone | preemption mode | removed by patched | removed by rcu |',
                '|---|---|---:|---:|---:|---:|---:|']
        for l in sloops:
            for what in ('(kernel)', '(kernel-loads)'):
                v = {k: data[k][l][what] for k in ks if l in data[k] and what in data[k][l]}
                if 'reference' not in v or 'base' not in v:
                    continue
                over = v['base'] - v['reference']
                cells = [f'{over:+.1f}']
                cells.append(f'{v["rcu-only"] - v["reference"]:+.1f} ({pct(v["rcu-only"] - v["reference"], over)})'
                             if 'rcu-only' in v else 'n/a')
                cells.append(f'{v["base"] - v["rcu-only"]:+.1f} ({pct(v["base"] - v["rcu-only"], over)})'
                             if 'rcu-only' in v else 'n/a')
                for k in ('patched', 'rcu'):
                    cells.append(f'{v["base"] - v[k]:+.1f} ({pct(v["base"] - v[k], over)})' if k in v else 'n/a')
                out.append(f'| {l} | {what[1:-1]} | ' + ' | '.join(cells) + ' |')
        out.append('')

    # Audit's second state (bench.sh: audit1-KERNEL/, stress-ng under audit=1, no rule).
    a1 = {k: {l: bench_trace.load(os.path.join(d, f'audit1-{k}'), l) for l in sloops
              if os.path.exists(os.path.join(d, f'audit1-{k}', f'functions-{l}.tsv'))} for k in ks}
    a1 = {k: v for k, v in a1.items() if v}
    if a1:
        out += ['### Audit\'s second state: audit=1, no rule', '',
                'The same bogo-op with audit on from boot and no rule, so every task has an audit context and '
                'every syscall goes through audit\'s entry and exit (Fedora\'s default is the task,never rule '
                'above). Kernel instructions per bogo-op.', '',
                '| loop | kernel | task,never | audit=1, no rule | audit\'s cost | `audit_signal_info*` |',
                '|---|---|---:|---:|---:|---:|']
        for l in sloops:
            for k in a1:
                if l not in a1[k] or l not in data[k]:
                    continue
                t, a = data[k][l]['(kernel)'], a1[k][l]['(kernel)']
                out.append(f'| {l} | {k} | {t:.1f} | {a:.1f} | {a - t:+.1f} | {fn_sum(a1[k][l], "audit_signal_info*"):.1f} |')
            if 'base' in a1 and 'rcu' in a1 and l in a1['base'] and l in a1['rcu']:
                b, r = a1['base'][l]['(kernel)'], a1['rcu'][l]['(kernel)']
                out.append(f'| {l} | rcu - base | | {r - b:+.1f} ({pct(r - b, b)}) | | |')
        out.append('')

    # ---- part 5: the report's functions as shares of the kernel instructions.
    for l in sloops:
        have = [k for k in ks if l in data[k]]
        names = [n for n, _, _ in REPORT]
        for k in have:
            f = data[k][l]
            for fn, v in sorted(f.items(), key=lambda x: -x[1]):
                if not fn.startswith('(') and f['(kernel)'] and v / f['(kernel)'] >= 0.02 and fn not in names \
                        and not (fn.startswith('audit_signal_info')):
                    names.append(fn)
        out += [f'## The report\'s profile, {l}: % of the kernel instructions of a bogo-op', '',
                'The report\'s columns are perf cycles on POWER10 (seed 000); these are instructions executed '
                'under QEMU. Functions below the report\'s five: above 2% in some kernel here.', '',
                '| function | report 6.15 | report 6.16 | ' + ' | '.join(have) + ' |',
                '|---|---:|---:|' + '---:|' * len(have)]
        rep = {n: (a, b) for n, a, b in REPORT}
        for n in names:
            a, b = rep.get(n, (None, None))
            cells = [f'{a:.2f}%' if a is not None else '', f'{b:.2f}%' if b is not None else '']
            cells += [pct(fn_sum(data[k][l], n), data[k][l]['(kernel)']) for k in have]
            out.append(f'| `{n}` | ' + ' | '.join(cells) + ' |')
        out.append('')

    # ---- part 6: the costly instructions, per loop and kernel.
    out += ['## The instructions POWER pays most for, per loop', '',
            'Kernel instructions only, counted from each executed block\'s instruction words '
            '(bench_trace.insn_class()); mtspr/mfspr by SPR (LR and CTR are the compiler\'s '
            'mflr/mtlr/mtctr); larx and stcx. counted apart (a larx without its stcx. is a failed '
            'compare). Classes under 0.05 per loop in every kernel are left out.', '']
    for l in dict.fromkeys(l for k in ks for l in data[k]):
        have = [k for k in ks if l in data[k]]
        cls = {f[len('(insn:'):-1] for k in have for f, v in data[k][l].items() if f.startswith('(insn:') and abs(v) >= 0.05}
        order = [c for c in CLASSES if c in cls] + sorted(c for c in cls if c not in CLASSES)
        out += [f'### {l}', '', '| instruction | ' + ' | '.join(have) + ' |', '|---|' + '---:|' * len(have)]
        for c in order:
            out.append(f'| {c} | ' + ' | '.join(f'{data[k][l].get(f"(insn:{c})", 0):.2f}' for k in have) + ' |')
        out.append('')

    # ---- part 7: what PREEMPT_DYNAMIC switches by keys.
    out += ['## What PREEMPT_DYNAMIC switches with static keys, per loop', '',
            '"Switch": the instructions of the dynamic_*() wrappers (' + ', '.join(f'`{w}`' for w in WRAPPERS) +
            ') and the executions of the sk_dynamic_* key sites outside them (inline: the lazy key\'s in the '
            'scheduler, the wrappers GCC inlined): what a static call (HAVE_PREEMPT_DYNAMIC_CALL) would replace, '
            'so the most it could save (the call into a wrapper, in its caller, is not counted). "Leads to": '
            'the functions the keys call when on, the work itself, which a static call calls too. '
            '"PREEMPT_RCU read side": what PREEMPT_DYNAMIC only selects, which no static call touches '
            '(inline in the rcu kernel: not counted there by function).', '',
            '| loop | kernel | switch | of which key sites | leads to | PREEMPT_RCU read side | kernel |',
            '|---|---|---:|---:|---:|---:|---:|']
    for l in dict.fromkeys(l for k in ks for l in data[k]):
        for k in ks:
            if l not in data[k]:
                continue
            f = data[k][l]
            keys = sum(v for fn, v in f.items() if fn.startswith('(key:'))
            sw = sum(f.get(w, 0) for w in WRAPPERS) + keys
            out.append(f'| {l} | {k} | {sw:.2f} | {keys:.2f} | {sum(f.get(t, 0) for t in TARGETS):.2f} | '
                       f'{sum(f.get(r, 0) for r in RCU_READ):.2f} | {f["(kernel)"]:.1f} |')
    out.append('')
    if 'reference' in ks and draw(d, data, sloops, ks):
        out += ['![stress-ng --kill 1 per bogo-op over the reference](user.png)', '']
    print('\n'.join(out))


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
