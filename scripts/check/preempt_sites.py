#!/usr/bin/env python3
"""Find preempt-count accesses in a powerpc64 vmlinux disassembly.

Reads `objdump -d --no-show-raw-insn` output and reports, per function:
  - PACA sites: loads/stores of the preempt word addressed from r13;
  - copied-r13 sites: the same word reached through a register that holds
    a copy of r13 (mr rX,r13 or addi rX,r13,N) -- wrong after a migration;
  - current sites: the old generic count, a load/add/store at offset 0 of
    the task loaded from PACACURRENT(r13).

The PACA offset of the word is found from the code itself: the offset most
often used by an r13-relative lwz/addi 1/stw triple (preempt_disable()),
rounded down to the 8-byte aligned word that holds it.

--word NAME:OFFSET adds another PACA word to the same rule (the second
series' RCU nesting word): it must be reached from r13, never from a copy.

Usage: preempt_sites.py check OBJDUMP_OUTPUT PACACURRENT [--expect paca|current]
                              [--word NAME:OFFSET]...
"""
import collections
import re
import sys

FUNC = re.compile(r'^[0-9a-f]+ <([^>]+)>:$')
INSN = re.compile(r'^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$')
MEM = re.compile(r'^(r\d+),(-?\d+)\((r\d+)\)$')
LOADS = {'lwz', 'ld', 'lbz', 'lhz', 'lwa'}
STORES = {'stw', 'std', 'stb', 'sth'}


def functions(path):
    name, body = None, []
    with open(path, errors='replace') as f:
        for line in f:
            m = FUNC.match(line)
            if m:
                if name:
                    yield name, body
                name, body = m.group(1), []
                continue
            m = INSN.match(line)
            if m and name:
                body.append((m.group(2), m.group(3).split('#')[0].strip()))
    if name:
        yield name, body


def mem(ops):
    m = MEM.match(ops.replace(' ', ''))
    return (m.group(1), int(m.group(2)), m.group(3)) if m else None


def dest(op, ops):
    """Register written by an instruction (None for stores and branches)."""
    if op in STORES or op.startswith(('b', 'cmp', 'st', 'mt', 'tw', 'td')):
        return None
    first = ops.split(',')[0].strip()
    return first if re.fullmatch(r'r\d+', first) else None


LOCKS = re.compile(r'^_raw_(spin|read|write)_(un)?lock')


def find_offset(path):
    """The preempt word's offset. The votes of the spinlock functions, which
    disable preemption and take no RCU read lock, win: an inlined
    rcu_read_lock() is the same lwz/addi/stw triple on another PACA word."""
    votes, lock_votes = collections.Counter(), collections.Counter()
    for fname, body in functions(path):
        for i, (op, ops) in enumerate(body):
            m = mem(ops)
            if op != 'lwz' or not m or m[2] != 'r13':
                continue
            reg, off = m[0], m[1]
            for op2, ops2 in body[i + 1:i + 4]:
                m2 = mem(ops2)
                if op2 == 'stw' and m2 and m2[1:] == (off, 'r13') and \
                        any(o == 'addi' and a.replace(' ', '').startswith(f'{reg},{reg},1')
                            for o, a in body[i + 1:i + 4]):
                    votes[off] += 1
                    if LOCKS.match(fname):
                        lock_votes[off] += 1
                    break
    if lock_votes:
        votes = lock_votes
    if not votes:
        return None
    # The count is the low half of the 8-byte aligned word: offset 0 of it on
    # little-endian, 4 on big-endian. The word is the aligned 8 bytes around it
    # (on big-endian, the bytes after the count are the next PACA fields).
    return votes.most_common(1)[0][0] & ~7


def scan(body, off, current, extra=None):
    """Yield (kind, insn) for each preempt-count access in one function;
    kind is NAME-paca or NAME-copied-r13 for the words of extra {NAME: offset}."""
    words = {'': off, **{n + '-': o for n, o in (extra or {}).items()}}    # kind prefix -> offset

    def word(d):
        return next((n for n, o in words.items() if o <= d < o + 8), None)
    copies = {}     # reg -> displacement from r13
    tasks = set()   # regs holding current
    for i, (op, ops) in enumerate(body):
        m = mem(ops)
        if m and (op in LOADS or op in STORES):
            reg, disp, base = m
            if base == 'r13' and word(disp) is not None:
                yield word(disp) + 'paca', f'{op} {ops}'
            elif base in copies and word(copies[base] + disp) is not None:
                yield word(copies[base] + disp) + 'copied-r13', f'{op} {ops}'
            elif base in tasks and disp == 0 and op == 'lwz':
                nxt = body[i + 1:i + 4]
                if any(o == 'addi' for o, _ in nxt) and \
                        any(o == 'stw' and mem(a) and mem(a)[1:] == (0, base) for o, a in nxt):
                    yield 'current', f'{op} {ops}'
        d = dest(op, ops)
        if op == 'mr' and ops.replace(' ', '').endswith(',r13'):
            copies[d] = 0
        elif op == 'addi' and re.fullmatch(r'r\d+,r13,-?\d+', ops.replace(' ', '')):
            copies[d] = int(ops.split(',')[2])
        elif m and op == 'ld' and m[2] == 'r13' and m[1] == current:
            tasks.add(m[0])
        elif d:
            copies.pop(d, None)
            tasks.discard(d)
        if op.startswith('b') and not op.startswith('bl'):
            continue
        if op.startswith('bl'):         # a call clobbers volatile registers
            for r in [r for r in copies if int(r[1:]) <= 12]:
                copies.pop(r)
            tasks -= {r for r in tasks if int(r[1:]) <= 12}


def check(path, current, expect, extra=None):
    extra = extra or {}
    off = find_offset(path) if expect == 'paca' else None
    totals = collections.Counter()
    bad = []
    for name, body in functions(path):
        for kind, insn in scan(body, off if off is not None else -100, current, extra):
            totals[kind] += 1
            if kind.endswith('copied-r13') or (expect == 'paca' and kind == 'current'):
                bad.append(f'{name}: {kind}: {insn}')
    print(f'preempt word PACA offset: {off}')
    for kind in ('paca', 'copied-r13', 'current'):
        print(f'{kind} sites: {totals[kind]}')
    for w, o in extra.items():
        if off is not None and abs(o - off) < 8:
            print(f'BAD the {w} word (offset {o}) overlaps the preempt word')
            return 1
        print(f'{w} word PACA offset: {o}')
        for kind in ('paca', 'copied-r13'):
            print(f'{w} {kind} sites: {totals[w + "-" + kind]}')
        if totals[w + '-paca'] == 0:
            bad.append(f'no r13-relative access to the {w} word found')
    for b in bad[:50]:
        print('BAD', b)
    if expect == 'paca' and totals['paca'] == 0:
        print('BAD no r13-relative preempt count access found')
        return 1
    if expect == 'current' and totals['current'] == 0:
        print('BAD no preempt count access through current found')
        return 1
    return 1 if bad else 0


if __name__ == '__main__':
    if len(sys.argv) < 4 or sys.argv[1] not in ('check',):
        sys.exit(__doc__)
    expect = 'paca'
    if '--expect' in sys.argv:
        expect = sys.argv[sys.argv.index('--expect') + 1]
    extra = {}
    for i, a in enumerate(sys.argv):
        if a == '--word':
            n, o = sys.argv[i + 1].split(':')
            extra[n] = int(o)
    sys.exit(check(sys.argv[2], int(sys.argv[3]), expect, extra))
