#!/usr/bin/env python3
"""The static figures of one bench vmlinux (make bench).

Prints: text size, preempt-count access sites (r13-relative PACA ones and
ones through `current`, found by preempt_sites.py), loads of `current`
(ld rX,PACACURRENT(r13)) in the whole image and in the hot functions, and for
each hot function the instruction count of its preempt_disable() and
preempt_enable() fast paths, sliced out of the code by data flow:
  disable: [ld current] lwz count; addi +1; stw
  enable, nested: [ld current] lwz; addi -1; stw; the test of the new value;
      its branch
  enable, to zero: nested + the path on to the branch that decides whether to
      call the scheduler (its loads, tests and branch)
Limits (issue 5): disable = 3, nested enable <= 5 with one load, enable to
zero <= 8 with two loads and no load through current (the thread flags).
A function that misses a limit is shown with its instructions.

Then one line per read-side section in named callers (issue 30): the
instructions of rcu_read_lock() and rcu_read_unlock() (nested, and outermost
with the path to the decision to call out of line) and of any inline
preempt_disable()/preempt_enable(), against the limits lock = load, add,
store (3) and unlock = load, subtract, store, branch (4); then the stack
frame a caller that would otherwise be frameless keeps on its fast path for
the out-of-line call. Each instruction above a limit is listed with why.
--rcu-offset N gives the RCU word's PACA offset (the second series); without
it, a kernel whose readers are calls counts the call and the callee's
straight-line path.
Machine-readable lines start with 'STATIC '.

Usage: bench_static.py [--cross PREFIX] [--name NAME] [--rcu-offset N]
                       [--callers F,F,...] OUTDIR [FUNC...]
"""
import os
import re
import subprocess
import sys

# preempt_sites.py is the disassembly check's (scripts/check/).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'check'))
import preempt_sites as ps  # noqa: E402

HOT = ['_raw_spin_lock', '_raw_spin_unlock', '_raw_spin_lock_irqsave', '_raw_spin_unlock_irqrestore',
       '_raw_read_lock', '_raw_read_unlock', '__rcu_read_lock', '__rcu_read_unlock']
LIMITS = {'disable': 3, 'nested': 5, 'zero': 8}
BASELINE = {'disable': 4, 'nested': 6, 'zero': 9}
CALLERS = ['__task_pid_nr_ns', 'kill_pid_info_type', 'fdget_pos', 'do_send_sig_info', 'sys_kill',
           'arch_local_irq_restore']
SECTION_LIMITS = {'lock': 3, 'unlock': 4}
# Calls that only the sections' slow paths make: a caller making no other is a
# leaf but for them, and its stack frame is theirs.
SLOW_CALLS = {'__rcu_read_unlock_special', 'preempt_schedule', 'preempt_schedule_notrace',
              'dynamic_preempt_schedule', 'dynamic_preempt_schedule_notrace',
              '__rcu_read_lock', '__rcu_read_unlock'}
WHY = {
    'test': 'compare of the new value apart from the subtract (a recording form, addic., would set cr0 itself)',
    'flag': 'the flag half, loaded after the store: a load of the whole word before it misses a flag '
            'that an interrupt sets between that load and the store (asm/rcu_preempt.h, asm/preempt.h)',
    'frame': 'stack frame of a leaf kept on the fast path for the out-of-line call: values live across '
             'that call are kept in saved non-volatile registers',
    'call': 'out of line: the call, and the callee up to its first return',
}
CALLEE = re.compile(r'<([^>+]+)(?:\+0x[0-9a-f]+)?>')
CONDBR = re.compile(r'^b(eq|ne|lt|le|gt|ge|so|ns)(lr|ctr)?[-+]?$')
TARGET = re.compile(r'^([0-9a-f]+)\b')


def disasm(out, cross):
    vmlinux = os.path.join(out, 'vmlinux')
    dis = os.path.join(out, 'vmlinux.dis')
    if not os.path.exists(dis) or os.path.getmtime(dis) < os.path.getmtime(vmlinux):
        with open(dis + '.tmp', 'w') as f:
            subprocess.run([cross + 'objdump', '-d', '--no-show-raw-insn', vmlinux], stdout=f, check=True)
        os.rename(dis + '.tmp', dis)
    return dis


def functions_addr(path):
    """Like preempt_sites.functions(), with addresses: name -> [(addr, op, ops)]."""
    funcs, name = {}, None
    with open(path, errors='replace') as f:
        for line in f:
            m = ps.FUNC.match(line)
            if m:
                name = m.group(1)
                funcs[name] = []
                continue
            m = ps.INSN.match(line)
            if m and name:
                funcs[name].append((int(m.group(1), 16), m.group(2), m.group(3).split('#')[0].strip()))
    return funcs


def reads(ops, reg):
    return reg in [o.strip() for o in ops.split(',')[1:]] or bool(re.search(r'\(%s\)' % reg, ops))


def slices(body, off, current):
    """Yield (kind, [instruction indexes], zero-path indexes) per count update."""
    ins = [(op, ops) for _, op, ops in body]
    for i, (op, ops) in enumerate(ins):
        m = ps.mem(ops)
        if op not in ('lwz', 'ld') or not m:
            continue
        reg, disp, base = m
        chain = []
        if base == 'r13' and off is not None and off <= disp < off + 8:
            pass
        elif base != 'r13' and disp == 0:   # through current?
            for j in range(i - 1, -1, -1):
                if ps.dest(*ins[j]) == base or (ins[j][0] == 'ld' and ins[j][1].startswith(base + ',')):
                    mm = ps.mem(ins[j][1])
                    if ins[j][0] == 'ld' and mm and mm[2] == 'r13' and mm[1] == current:
                        chain = [j]
                    break
            if not chain:
                continue
        else:
            continue
        # the add and the store of the same word
        add = st = None
        for j in range(i + 1, min(i + 6, len(ins))):
            o, a = ins[j]
            if add is None and o in ('addi', 'addic', 'addic.') and a.replace(' ', '').startswith(f'{reg},{reg},'):
                add = j
            mm = ps.mem(a)
            if add is not None and o in ('stw', 'std') and mm and mm[0] == reg and mm[1:] == (disp, base):
                st = j
                break
        if add is None or st is None:
            continue
        delta = int(ins[add][1].split(',')[2])
        chain += [i, add, st]
        if delta > 0:
            yield 'disable', chain, []
            continue
        # enable: the test of the new value and its branch
        test = add if ins[add][0].endswith('.') else None     # addic. tests its result itself
        br = None
        for j in range(add + 1, min(add + 8, len(ins))):
            o, a = ins[j]
            if test is None and (o.startswith('cmp') or o.endswith('.')) and reads(' ,' + a, reg):
                test = j
            elif test is not None and CONDBR.match(o):
                br = j
                break
        if test is None or br is None:
            continue
        chain += [br] if test == add else [test, br]
        # the zero path: fall through after bne, or the target of beq
        o, a = ins[br]
        k = br + 1
        if o.startswith('beq') and not o.startswith('beqlr'):
            t = TARGET.match(a)
            k = next((n for n, b in enumerate(body) if t and b[0] == int(t.group(1), 16)), None)
        path = []
        while k is not None and k < len(ins) and len(path) < 12:
            o, a = ins[k]
            if o.startswith('bl') and not CONDBR.match(o):
                break
            path.append(k)
            if CONDBR.match(o):
                break
            if o == 'b':
                t = TARGET.match(a)
                k = next((n for n, b in enumerate(body) if t and b[0] == int(t.group(1), 16)), None)
                continue
            k += 1
        # only what the decision needs: loads and the instructions that use them
        live, keep = set(), []
        for n in path:
            o, a = ins[n]
            mm = ps.mem(a)
            if o in ps.LOADS and mm:
                keep.append(n)
                live.add(mm[0])
            elif any(reads(' ,' + a, r) for r in live) or CONDBR.match(o):
                keep.append(n)
                d = ps.dest(o, a)
                if d:
                    live.add(d)
        yield 'enable', sorted(chain), keep


def roles(ins, chain, path):
    """Name each instruction of an enable/unlock slice: load, add, store, test, branch, flag."""
    out = []
    for k in chain:
        o, a = ins[k]
        role = 'load' if o in ps.LOADS else 'add' if o.startswith('addi') else 'store' if o in ps.STORES else \
            'branch' if CONDBR.match(o) else 'test'
        out.append((k, role))
    out += [(k, 'flag') for k in path]
    return out


RETURN = re.compile(r'^b(eq|ne|lt|le|gt|ge|so|ns)?lr[-+]?$')     # blr, bnelr, ...


def straight(body):
    """Instructions from a function's local entry to its first return (a
    conditional one taken), falling through the other conditional branches: the
    fast path, as far as a static count goes, of a function whose slow paths
    branch away. Calls within the kernel enter past the global entry's TOC
    set-up (addis r2,r12 / addi r2,r2: the +0x8 of 'bl f+0x8')."""
    n = 0
    if len(body) > 2 and body[0][1] == 'addis' and body[0][2].replace(' ', '').startswith('r2,r12,'):
        body = body[2:]
    for _, op, _ops in body:
        n += 1
        if RETURN.match(op) or op == 'b' or n > 64:
            break
    return n


def frame(body):
    """The stack-frame instructions a frameless leaf would not have, on the path from
    the entry to the first return: the prologue up to the first branch, and the block
    that ends at the first blr."""
    ins = [(op, ops) for _, op, ops in body]

    def is_frame(op, ops):
        m = ps.mem(ops)
        if op in ('mflr', 'mtlr') or (op == 'stdu' and ops.replace(' ', '').startswith('r1,')):
            return True
        if op == 'addi' and ops.replace(' ', '').startswith('r1,r1,'):
            return True
        return bool(m and m[2] == 'r1' and op in ('std', 'ld') and (m[0] == 'r0' or int(m[0][1:]) >= 14))
    picked = []
    for k, (op, ops) in enumerate(ins):
        if op.startswith('b'):
            break
        if is_frame(op, ops):
            picked.append(k)
    end = next((k for k, (op, _) in enumerate(ins) if RETURN.match(op)), None)
    if end is not None:
        k = end - 1
        while k >= 0 and not ins[k][0].startswith('b'):
            if is_frame(*ins[k]) and k not in picked:
                picked.append(k)
            k -= 1
    return sorted(picked)


def sections(name, fn, body, funcs, words, current):
    """The section line of one caller, and the '#' lines of what is above a limit."""
    ins = [(op, ops) for _, op, ops in body]
    # Calls: bl, and tail calls (a b to another function); an indirect call
    # (bctrl) makes the function no leaf whatever it calls.
    calls = {m.group(1) for op, ops in ins if op in ('bl', 'b') for m in [CALLEE.search(ops)] if m}
    calls.discard(fn)
    if any(op == 'bctrl' for op, _ in ins):
        calls.add('(indirect)')
    kv, notes = {}, []
    for word, off in words.items():
        locks, unlocks = [], []
        if off is None and word == 'rcu':   # the base's preempt count is through current
            continue
        for kind, chain, path in slices(body, off, current):
            (locks if kind == 'disable' else unlocks).append((chain, path))
        if not locks and not unlocks:
            continue
        lk = max(len(c) for c, _ in locks) if locks else None
        nested = max(len(c) for c, _ in unlocks) if unlocks else None
        zero = max(unlocks, key=lambda cp: len(cp[0]) + len(cp[1])) if unlocks else None
        kv[f'{word}_lock'] = lk
        kv[f'{word}_unlock'] = nested
        kv[f'{word}_unlock_zero'] = len(zero[0]) + len(zero[1]) if zero else None
        if lk and zero:
            kv[f'{word}_pair'] = lk + kv[f'{word}_unlock_zero']
        kv[f'{word}_limit'] = SECTION_LIMITS['lock'] + SECTION_LIMITS['unlock']
        if zero and kv[f'{word}_unlock_zero'] > SECTION_LIMITS['unlock']:
            what = 'rcu_read_unlock()' if word == 'rcu' else 'preempt_enable()'
            notes.append(f'# {fn}: outermost {what}: {kv[f"{word}_unlock_zero"]} instructions, '
                         f'limit {SECTION_LIMITS["unlock"]} (load, subtract, store, branch); above it:')
            for k, role in roles(ins, *zero):
                if role in ('test', 'flag'):
                    notes.append(f'#   {body[k][0]:x}: {ins[k][0]} {ins[k][1]}  [{role}]')
        if lk and lk > SECTION_LIMITS['lock']:
            notes.append(f'# {fn}: {word} lock {lk} instructions, limit {SECTION_LIMITS["lock"]}')
    if kv.get('rcu_lock') is None and kv.get('rcu_unlock') is None:
        out_of_line = {'rcu_lock': '__rcu_read_lock', 'rcu_unlock': '__rcu_read_unlock'}
        for key, callee in out_of_line.items():
            if callee in calls and callee in funcs:
                kv[key] = 1 + straight(funcs[callee])
                notes.append(f'# {fn}: {callee}: {kv[key]} instructions [call]')
        if kv.get('rcu_lock') and kv.get('rcu_unlock'):
            kv['rcu_pair'] = kv['rcu_lock'] + kv['rcu_unlock']
    if not kv:
        return None, []
    if calls <= SLOW_CALLS and calls:
        fr = frame(body)
        kv['frame'] = len(fr)
        if fr:
            notes.append(f'# {fn}: a leaf but for {", ".join(sorted(calls))}; frame on the fast path:')
            notes += [f'#   {body[k][0]:x}: {ins[k][0]} {ins[k][1]}  [frame]' for k in fr]
    line = f'STATIC {name} section:{fn} ' + ' '.join(f'{k} {"-" if v is None else v}' for k, v in kv.items())
    return line, notes


def main(argv):
    cross, name, rcu_off, callers = 'powerpc64le-linux-gnu-', None, None, CALLERS
    while argv and argv[0].startswith('--'):
        if argv[0] == '--cross':
            cross = argv[1]
        elif argv[0] == '--name':
            name = argv[1]
        elif argv[0] == '--rcu-offset':
            rcu_off = int(argv[1])
        elif argv[0] == '--callers':
            callers = [c for c in argv[1].split(',') if c]
        argv = argv[2:]
    if not argv:
        sys.exit(__doc__)
    out, hot = argv[0], argv[1:] or HOT
    name = name or os.path.basename(out.rstrip('/'))
    offsets = open(os.path.join(out, 'include/generated/asm-offsets.h')).read()
    m = re.search(r'#define PACACURRENT (\d+)', offsets)
    if not m:
        sys.exit(f'bench_static: PACACURRENT not in {out}/include/generated/asm-offsets.h')
    current = int(m.group(1))
    dis = disasm(out, cross)
    size = subprocess.run([cross + 'size', os.path.join(out, 'vmlinux')], capture_output=True,
                          text=True, check=True).stdout.split('\n')[1].split()
    off = ps.find_offset(dis)
    funcs = functions_addr(dis)
    if off is not None:     # the base has no PACA count: a stray triple is not one
        n = sum(1 for b in funcs.values() for k, _ in ps.scan([(o, a) for _, o, a in b], off, current)
                if k == 'paca')
        off = off if n >= 10 else None
    sites = {'paca': 0, 'current': 0, 'copied-r13': 0}
    cur_loads = 0
    for fname, body in funcs.items():
        b2 = [(op, ops) for _, op, ops in body]
        for kind, _ in ps.scan(b2, off if off is not None else -100, current):
            sites[kind] += 1
        cur_loads += sum(1 for op, ops in b2 if op == 'ld' and (ps.mem(ops) or (0, 0, 0))[1:] == (current, 'r13'))
    print(f'# Static figures of the {name} kernel ({out}/vmlinux)')
    print(f'STATIC {name} text_bytes {size[0]}')
    print(f'STATIC {name} paca_sites {sites["paca"]}')
    print(f'STATIC {name} current_sites {sites["current"]}')
    print(f'STATIC {name} current_loads {cur_loads}')
    print(f'# PACA offset of the preempt word: {off}; PACACURRENT: {current}')
    misses, hot_found = 0, {}
    for fn in hot:
        body = funcs.get(fn)
        if body is None:
            print(f'STATIC {name} {fn} absent')
            continue
        ins = [(op, ops) for _, op, ops in body]
        cl = sum(1 for op, ops in ins if op == 'ld' and (ps.mem(ops) or (0, 0, 0))[1:] == (current, 'r13'))
        found = {'disable': None, 'nested': None, 'zero': None}
        detail = []
        for kind, chain, path in slices(body, off, current):
            if kind == 'disable':
                n = len(chain)
                found['disable'] = max(found['disable'] or 0, n)
                detail.append(('disable', chain))
            else:
                loads_n = sum(1 for k in chain if ins[k][0] in ps.LOADS)
                loads_z = loads_n + sum(1 for k in path if ins[k][0] in ps.LOADS)
                flags = any(ins[k][0] in ps.LOADS and cl and ps.mem(ins[k][1])[2] != 'r13' for k in path)
                found['nested'] = max(found['nested'] or (0, 0), (len(chain), loads_n))
                found['zero'] = max(found['zero'] or (0, 0, False), (len(chain) + len(path), loads_z, flags))
                detail.append(('enable', chain + path))
        hot_found[fn] = found
        d, n, z = found['disable'], found['nested'], found['zero']
        print(f'STATIC {name} {fn} instructions {len(ins)} current_loads {cl} '
              f'disable {d if d else "-"} nested {n[0] if n else "-"} nested_loads {n[1] if n else "-"} '
              f'zero {z[0] if z else "-"} zero_loads {z[1] if z else "-"} '
              f'flags_load {("yes" if z[2] else "no") if z else "-"}')
        miss = []
        if d and d > LIMITS['disable']:
            miss.append(f'preempt_disable() {d} > {LIMITS["disable"]}')
        if n and (n[0] > LIMITS['nested'] or n[1] > 1):
            miss.append(f'nested preempt_enable() {n[0]} instructions, {n[1]} loads (limit 5, 1)')
        if z and (z[0] > LIMITS['zero'] or z[1] > 2 or z[2]):
            miss.append(f'preempt_enable() to zero {z[0]} instructions, {z[1]} loads'
                        f'{", loads the thread flags" if z[2] else ""} (limit 8, 2, none)')
        if miss:
            misses += 1
            print(f'# {fn}: misses the limits: ' + '; '.join(miss))
            marked = {k for _, c in detail for k in c}
            for k, (addr, op, ops) in enumerate(body):
                print(f'#   {"*" if k in marked else " "} {addr:x}: {op} {ops}')
    print(f'STATIC {name} functions_missing_limits {misses}')
    print(f'# Read-side sections in named callers (limits: lock {SECTION_LIMITS["lock"]}, '
          f'unlock {SECTION_LIMITS["unlock"]}); RCU word offset: {rcu_off}')
    for role, why in WHY.items():
        print(f'# [{role}]: {why}')
    # One preempt_disable()/preempt_enable() pair as the kill() loop runs it: the
    # spinlock's, taken and released out of line.
    lock, unlock = hot_found.get('_raw_spin_lock_irqsave'), hot_found.get('_raw_spin_unlock_irqrestore')
    if lock and unlock and lock['disable'] and unlock['zero']:
        lim = SECTION_LIMITS['lock'] + SECTION_LIMITS['unlock']
        print(f'STATIC {name} section:spin_lock_irqsave+spin_unlock_irqrestore preempt_lock {lock["disable"]} '
              f'preempt_unlock {unlock["nested"][0]} preempt_unlock_zero {unlock["zero"][0]} '
              f'preempt_pair {lock["disable"] + unlock["zero"][0]} preempt_limit {lim}')
    # The fast path of the irq restore every spin_unlock_irqrestore() calls.
    if 'arch_local_irq_restore' in funcs:
        print(f'STATIC {name} fast_path:arch_local_irq_restore {straight(funcs["arch_local_irq_restore"])}')
    for fn in callers:
        body = funcs.get(fn)
        if body is None:
            print(f'STATIC {name} section:{fn} absent')
            continue
        line, notes = sections(name, fn, body, funcs, {'rcu': rcu_off, 'preempt': off}, current)
        print(line or f'STATIC {name} section:{fn} none')
        for n in notes:
            print(n)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
