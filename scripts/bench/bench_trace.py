#!/usr/bin/env python3
"""Exact instructions per loop of bench-count, by kernel function, from QEMU.

The guest PMU under TCG counts only part of the instructions a guest runs
(see README), so make bench also counts them from QEMU's own execution log.

run:     boots a kernel whose guest runs 'bench-trace' (guest/trace.c). At
         each '# BENCH trace-start=LOOP loops=N' console line it points the
         log at OUT/exec-LOOP-N.log and turns on 'exec,nochain,in_asm'
         through the monitor: every translation block executed is logged,
         and every block translated is logged with its instructions (the
         change of flags makes QEMU translate afresh); at 'trace-stop' off.
         Each time it then sends a line to the guest, which waits for it.
count:   instructions per block from the 'in_asm' lists, times the blocks
         executed, summed by function (symbols from the vmlinux); each loop
         ran in two windows, N and 2N times, and their difference divided
         by N is one loop without the windows' fixed costs (the return from
         the wait, the stop marker's write). The kernel's loads and stores
         are counted the same way, from the listed mnemonics (MEMORY), and
         the kernel's instructions that POWER pays most for, from each listed
         instruction word (insn_class(): '(insn:lwsync)', '(insn:mtspr:SRR0)',
         '(insn:larx)'...), and the executions of the static-key sites of
         PREEMPT_DYNAMIC's keys (sk_dynamic_*, from the vmlinux's
         __jump_table: '(key:sk_dynamic_preempt_lazy)'...) outside the
         dynamic_*() functions (whose instructions are theirs).
         Writes OUT/functions-LOOP.tsv.
         The loop's steady count (steady()) leaves out what the two
         windows do not share.
         Each single loop (between two runs of the guest's loop mark) is
         also filed by the scheduler paths it ran (PATH_MARKERS): the
         fair server's accounting and the delayed-dequeue requeue, which
         boot state picks: OUT/paths-LOOP.tsv.
compare: the Markdown table of two such folders, largest differences first.
paths:   LOOP's single loops of two kernels, over one or more boots each, by
         path: each kernel's mix, and the difference on matched paths only.

Usage: bench_trace.py run OUT QEMU-COMMAND...   (under a timeout: scripts/boot/boot.sh)
       bench_trace.py count OUT NM VMLINUX
       bench_trace.py compare NAME-A DIR-A NAME-B DIR-B [TOP]
       bench_trace.py paths LOOP NAME-A DIR-A[,DIR...] NAME-B DIR-B[,DIR...]   (matched paths, over boots)
       bench_trace.py where MONITOR-SOCKET NM VMLINUX REGS   (a hung guest: scripts/boot/boot.sh)
       bench_trace.py send MONITOR-SOCKET COMMAND   (one monitor command: scripts/boot/boot.sh MONITOR_AT=)
"""
import bisect
import functools
import collections
import os
import re
import socket
import struct
import subprocess
import sys

START = re.compile(r'# BENCH trace-start=(\S+) loops=(\d+)(?: mark=0x([0-9a-f]+))?')
STOP = re.compile(r'# BENCH trace-stop=(\S+)')
TRACE = re.compile(r'^Trace \d+: (\S+) \[[0-9a-f]+/([0-9a-f]+)/')
# QEMU logs a block before it runs it; these lines say the last one did not
# run after all (an exit request at its start) or was rolled back (icount I/O).
UNDONE = re.compile(r'^(Stopped execution of TB chain before|cpu_io_recompile: rewound)')
INSN = re.compile(r'^0x([0-9a-f]+):\s+([0-9a-f]{8})\s+(?:[0-9a-f]{8}\s+)?(\S+)')
INDIRECT = re.compile(r'^b\S*(lr|ctr)l?[+-]?$')	# blr, bctrl, beqlr+, ...
KERNEL = 0xc000000000000000
# Loads and stores by mnemonic: l* and st*, prefixed (POWER10 p*) too, without
# the l* and st* that do not touch memory. Cache-block ops (dcb*) are neither.
NOT_MEMORY = {'li', 'lis', 'lwsync', 'lvsl', 'lvsr', 'stop'}
LOAD = re.compile(r'^p?l[a-z0-9]*\.?$')
STORE = re.compile(r'^p?st[a-z0-9]*\.?$')


# SPRs by number (Power ISA 3.1), for '(insn:mtspr:NAME)'; others by number.
SPR = {1: 'XER', 3: 'DSCR(user)', 8: 'LR', 9: 'CTR', 13: 'AMR(user)', 17: 'DSCR', 18: 'DSISR', 19: 'DAR',
       22: 'DEC', 26: 'SRR0', 27: 'SRR1', 28: 'CFAR', 29: 'AMR', 48: 'PIDR', 61: 'IAMR', 136: 'CTRL(read)',
       152: 'CTRL', 153: 'FSCR', 157: 'UAMOR', 190: 'HFSCR', 256: 'VRSAVE', 259: 'SPRG3(user)', 268: 'TB',
       269: 'TBU', 272: 'SPRG0', 273: 'SPRG1', 274: 'SPRG2', 275: 'SPRG3', 304: 'HSPRG0', 305: 'HSPRG1',
       314: 'HSRR0', 315: 'HSRR1', 336: 'HMER', 349: 'AMOR', 784: 'SIER', 785: 'MMCR2', 786: 'MMCRA',
       795: 'MMCR0', 796: 'SIAR', 797: 'SDAR', 798: 'MMCR1', 804: 'EBBHR', 805: 'EBBRR', 806: 'BESCR',
       815: 'TAR', 896: 'PPR', 898: 'PPR32', 1023: 'PIR'}
LARX = {20, 52, 84, 116, 276}		# lwarx lbarx ldarx lharx lqarx
STCX = {150, 182, 214, 694, 726}	# stwcx. stqcx. stdcx. stbcx. sthcx.
# The scheduler's paths a single loop can take by boot state, not by kernel:
# the fair server's deadline accounting (active or not) and the requeue of a
# delayed-dequeue entity. Each single loop is filed by which of them it ran.
PATH_MARKERS = ('update_curr_dl_se', 'requeue_delayed_entity')


def insn_class(word):
    """The class of one instruction word that POWER pays for, or None:
    hwsync, lwsync, ptesync, isync, eieio, mtmsrd, mtmsr, mfmsr, mtspr:SPR,
    mfspr:SPR, mftb, larx, stcx, rfid, hrfid, rfscv, sc. From the encoding, not
    the listed mnemonic: the extended ones (mtlr, mtsrr0...) are mtspr."""
    op, xo = word >> 26, (word >> 1) & 0x3ff
    if op == 31:
        if xo in (467, 339):
            n = ((word >> 16) & 0x1f) | (((word >> 11) & 0x1f) << 5)
            return f"{'mtspr' if xo == 467 else 'mfspr'}:{SPR.get(n, n)}"
        if xo == 598:
            return {0: 'hwsync', 1: 'lwsync', 2: 'ptesync'}.get((word >> 21) & 3, 'sync')
        return {854: 'eieio', 178: 'mtmsrd', 146: 'mtmsr', 83: 'mfmsr', 371: 'mftb'}.get(
            xo, 'larx' if xo in LARX else 'stcx' if xo in STCX else None)
    if op == 19:
        return {150: 'isync', 18: 'rfid', 274: 'hrfid', 82: 'rfscv'}.get(xo)
    return 'sc' if op == 17 else None


def jump_sites(nm, vmlinux, prefix='sk_dynamic_'):
    """{code address: key} of the static-key sites whose key's name starts with
    PREFIX, from the vmlinux's __jump_table (relative entries: s32 code, s32
    target, s64 key, each from its own address; the key's low bits are flags).
    {} for a file that is no ELF or has no such table."""
    at, name_at = {}, {}
    for line in nm_output(nm, vmlinux).splitlines():
        f = line.split()
        if len(f) == 3:
            at[f[2]] = int(f[0], 16)
            name_at.setdefault(int(f[0], 16), f[2])
    lo, hi = at.get('__start___jump_table'), at.get('__stop___jump_table')
    if lo is None or hi is None or hi <= lo:
        return {}
    with open(vmlinux, 'rb') as fh:
        data = fh.read()
    if data[:4] != b'\x7fELF' or data[4] != 2:
        return {}
    e = '<' if data[5] == 1 else '>'
    shoff, = struct.unpack_from(e + 'Q', data, 0x28)
    shentsize, shnum = struct.unpack_from(e + 'HH', data, 0x3a)
    raw = None
    for i in range(shnum):
        _, typ, _, addr, off, size = struct.unpack_from(e + 'IIQQQQ', data, shoff + i * shentsize)
        if typ != 8 and addr <= lo and hi <= addr + size:	# 8: SHT_NOBITS
            raw = data[off + lo - addr:off + hi - addr]
    sites = {}
    for i in range(0, len(raw or b'') - 15, 16):
        code, _, key = struct.unpack_from(e + 'iiq', raw, i)
        name = name_at.get((lo + i + 8 + key) & ~3)
        if name and name.startswith(prefix):
            sites[lo + i + code] = name
    return sites


def steady(per_fn):
    """A loop's kernel instructions without what its two windows do not share:
    the functions that run at least once every two loops. One-time work in
    the N-loop window (a page fault, a timer) comes out of the difference as
    negative or fractional counts of functions outside the loop; this leaves
    them out. It repeats from run to run where the raw total moves by ten."""
    return sum(v for f, v in per_fn.items() if not f.startswith('(') and v >= 0.5)


def memory(mnemonic):
    """(1, 0) for a load, (0, 1) for a store, (0, 0) for anything else."""
    if mnemonic in NOT_MEMORY or mnemonic in ('pli', 'pla'):
        return 0, 0
    if STORE.match(mnemonic):
        return 0, 1
    return (1, 0) if LOAD.match(mnemonic) else (0, 0)


def die(msg):
    sys.exit(f'bench_trace: {msg}')


def hmp(path, cmd):
    """One monitor command; returns once QEMU has answered with its prompt."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(30)
        s.connect(path)
        for c in (None, cmd):
            if c:
                s.sendall(c.encode() + b'\n')
            buf = b''
            while b'(qemu)' not in buf:
                d = s.recv(4096)
                if not d:
                    die(f'the monitor closed during "{cmd}"')
                buf += d
        # Without the terminal's escapes and the echoed command, its first line.
        reply = re.sub(r'\x1b\[[0-9;]*[A-Za-z]', '', buf.decode(errors='replace'))
        reply = reply.split('\n', 1)[1] if '\n' in reply else ''
        if re.search(r'[Ee]rror|[Ii]nvalid|[Uu]nknown', reply):
            die(f'the monitor refused "{cmd}": {reply.strip()}')
        return reply


def ready(p):
    """Tells the guest, waiting on hvc0, that the log is switched."""
    p.stdin.write(b'go\n')
    p.stdin.flush()


def run(out, qemu):
    os.makedirs(out, exist_ok=True)
    for f in os.listdir(out):	# nothing of an earlier run may be counted
        os.unlink(os.path.join(out, f))
    mon = os.path.join(out, 'monitor.sock')
    cmd = qemu + ['-monitor', f'unix:{mon},server=on,wait=off', '-serial', 'stdio',
                  '-D', os.path.join(out, 'qemu.log')]
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    windows = []
    try:
        with open(os.path.join(out, 'console.log'), 'wb') as con:
            for raw in p.stdout:
                con.write(raw)
                con.flush()
                line = raw.decode(errors='replace')
                m = START.search(line)
                if m:
                    windows.append((m[1], m[2], m[3] or '-'))
                    hmp(mon, f'logfile {os.path.join(out, f"exec-{m[1]}-{m[2]}.log")}')
                    hmp(mon, 'log exec,nochain,in_asm')
                    ready(p)
                elif STOP.search(line):
                    hmp(mon, 'log none')
                    ready(p)
        p.wait()
    finally:	# whatever stopped the loop, QEMU does not outlive it
        if p.poll() is None:
            p.kill()
            p.wait()
    with open(os.path.join(out, 'windows.tsv'), 'w') as f:
        f.writelines('\t'.join(w) + '\n' for w in windows)
    if not windows:
        die(f'no trace marker on the console ({out}/console.log)')
    if 'GUEST-DONE' not in open(os.path.join(out, 'console.log'), errors='replace').read():
        die(f'the guest did not finish ({out}/console.log)')


@functools.lru_cache(maxsize=None)
def nm_output(nm, vmlinux):
    """nm -n of the vmlinux, read once per run."""
    return subprocess.run([nm, '-n', vmlinux], check=True, capture_output=True, text=True).stdout


def symbols(nm, vmlinux):
    """Sorted text addresses and names of the vmlinux."""
    out = nm_output(nm, vmlinux)
    addrs, names = [], []
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in 'tTwW':
            addrs.append(int(f[0], 16))
            names.append(f[2])
    if not addrs:
        die(f'no text symbols in {vmlinux}')
    return addrs, names


def count(out, nm, vmlinux):
    addrs, names = symbols(nm, vmlinux)
    # PREEMPT_DYNAMIC's key sites, but those of its dynamic_*() wrappers,
    # whose instructions are counted as theirs already.
    sites = {a: k for a, k in (jump_sites(nm, vmlinux) if os.path.exists(vmlinux) else {}).items()
             if not names[max(bisect.bisect_right(addrs, a) - 1, 0)].startswith('dynamic_')}
    windows = [line.split() for line in open(os.path.join(out, 'windows.tsv'))]
    # A block is known by its host code address: QEMU lists its instructions
    # ('in_asm') when it translates it, normally right before the block's
    # first 'Trace' line. A guest address may have several blocks (one cut
    # short for icount has its own), so the guest address is only the
    # fallback: for a block translated just before the log was switched off,
    # whose list and first run fall into different windows. Blocks
    # translated in one window run again in later ones: one pass, in order.
    blocks_of, by_pc, per, single = {}, {}, {}, collections.defaultdict(list)
    paths = collections.defaultdict(list)	# beside single: the PATH_MARKERS each loop ran
    for loop, n, *mk in windows:
        # Each loop alone: the kernel instructions between two runs of the
        # guest's loop_mark() (its address in the start marker).
        mark = int(mk[0], 16) if mk and mk[0] != '-' else None
        seg = seg_undo = reopen = None
        segm, segm_undo = None, None
        marks = 0
        c = collections.Counter()
        blocks = unknown = pending = loads = stores = 0
        extra = collections.Counter()	# the listed block's classes and key sites
        first = last = undo = None
        prev = None	# the block before, and its guest address
        with open(os.path.join(out, f'exec-{loop}-{n}.log'), errors='replace') as f:
            for line in f:
                i = INSN.match(line)
                if i:
                    if not pending:
                        first = int(i[1], 16)
                        loads = stores = 0
                        extra = collections.Counter()
                    pending += 1
                    last = i[3]
                    cls = insn_class(int(i[2], 16))
                    if cls:
                        extra[f'(insn:{cls})'] += 1
                    if int(i[1], 16) in sites:
                        extra[f'(key:{sites[int(i[1], 16)]})'] += 1
                    ld, st = memory(last)
                    loads, stores = loads + ld, stores + st
                    continue
                if line.startswith('----') or line.startswith('IN:'):
                    if pending:	# a listing whose block never ran here
                        by_pc[first] = (pending, not INDIRECT.match(last), loads, stores, dict(extra))
                        pending = 0
                    continue
                if line.startswith('Disassembler disagrees'):
                    die(f'{out}/exec-{loop}-{n}.log: QEMU could not list a block: {line.strip()}')
                if UNDONE.match(line):	# the block just logged did not run, or was rolled back
                    if undo:
                        for k, v in undo.items():
                            c[k] -= v
                        undo = None
                    if reopen is not None:	# the mark itself did not run: its loop goes on
                        marks -= 1
                        seg = single[loop].pop() if reopen else None
                        segm = set(paths[loop].pop()) if reopen else None
                    elif seg is not None:
                        seg = seg - (seg_undo or 0)
                        if segm_undo:
                            segm.discard(segm_undo)
                    seg_undo, reopen, segm_undo = 0, None, None
                    prev = None
                    continue
                m = TRACE.match(line)
                if not m:
                    continue
                pc = int(m[2], 16)
                if pending:
                    by_pc[first] = (pending, not INDIRECT.match(last), loads, stores, dict(extra))
                    if first == pc:
                        blocks_of[m[1]] = by_pc[first]
                    pending = 0
                blocks += 1
                reopen = None
                if pc == mark:
                    marks += 1
                    # Whether an undone mark gives back a loop it closed.
                    reopen = seg is not None
                    if seg is not None:
                        single[loop].append(seg)
                        paths[loop].append(frozenset(segm))
                    seg = seg_undo = 0
                    segm, segm_undo = set(), None
                blk = blocks_of.get(m[1]) or by_pc.get(pc)
                if not blk:
                    unknown += 1
                    prev = undo = None
                    seg_undo, segm_undo = 0, None
                    continue
                blocks_of[m[1]] = blk
                i = bisect.bisect_right(addrs, pc) - 1
                fn = '(user)' if pc < KERNEL else names[i] if i >= 0 else '(no symbol)'
                undo = {fn: blk[0]}
                if pc >= KERNEL:
                    undo.update({'(kernel-loads)': blk[2], '(kernel-stores)': blk[3]})
                    undo.update(blk[4])
                if seg is not None:
                    seg_undo = blk[0] if pc >= KERNEL else 0
                    seg += seg_undo
                    segm_undo = fn if fn in PATH_MARKERS and fn not in segm else None
                    if segm_undo:
                        segm.add(fn)
                # The PMU model (README): a block counts when it left by a
                # direct jump (or fell through) to a block on its own page.
                if prev and prev[0][1] and prev[1] >> 12 == pc >> 12:
                    undo['(pmu-model)'] = prev[0][0]
                for k, v in undo.items():
                    c[k] += v
                prev = (blk, pc)
        if pending:	# listed as the log went off: it runs in a later window
            by_pc[first] = (pending, not INDIRECT.match(last), loads, stores, dict(extra))
        if not blocks:
            die(f'{out}/exec-{loop}-{n}.log: no block logged: did the monitor switch the log?')
        if unknown > blocks / 1000:
            die(f'{out}/exec-{loop}-{n}.log: {unknown} of {blocks} blocks ran without their instructions logged')
        if mark is not None and marks != int(n):
            die(f'{out}/exec-{loop}-{n}.log: the guest\'s loop mark ran {marks} times in {n} loops')
        per[loop, int(n)] = c
    for loop in dict.fromkeys(w[0] for w in windows):
        ns = sorted(n for k, n in per if k == loop)
        if len(ns) != 2 or ns[1] != 2 * ns[0]:
            die(f'{out}: loop {loop}: windows of {ns} loops, not N and 2N')
        a, b, n = per[loop, ns[0]], per[loop, ns[1]], ns[0]
        d = {f: (b[f] - a[f]) / n for f in set(a) | set(b)}
        kern = sum(v for f, v in d.items() if not f.startswith('('))
        with open(os.path.join(out, f'functions-{loop}.tsv'), 'w') as f:
            f.write(f'# {loop}: instructions per loop, ({ns[1]}-loop window - {n}-loop window) / {n}\n')
            f.write(f'(kernel)\t{kern:.2f}\n')
            for k, v in single_stats(single[loop]).items():
                f.write(f'({k})\t{v:.2f}\n')
            for fn, v in sorted(d.items(), key=lambda x: -abs(x[1])):
                if abs(v) >= 0.005 or fn.startswith('('):
                    f.write(f'{fn}\t{v:.2f}\n')
        if single[loop]:
            with open(os.path.join(out, f'single-{loop}.tsv'), 'w') as f:
                f.write(f'# {loop}: kernel instructions of single loops, the 20 most common counts: count, loops\n')
                for v, k in collections.Counter(single[loop]).most_common(20):
                    f.write(f'{v}\t{k}\n')
            with open(os.path.join(out, f'paths-{loop}.tsv'), 'w') as f:
                f.write(f'# {loop}: single loops by path (which of {", ".join(PATH_MARKERS)} ran in the loop; '
                        '- for none): path, kernel instructions, loops; every count of each path, most common first\n')
                by = collections.defaultdict(collections.Counter)
                for v, m in zip(single[loop], paths[loop]):
                    by[path_name(m)][v] += 1
                for name in sorted(by, key=lambda x: -sum(by[x].values())):
                    for v, k in by[name].most_common():
                        f.write(f'{name}\t{v}\t{k}\n')


def path_name(markers):
    return '+'.join(m for m in PATH_MARKERS if m in markers) or '-'


def load_paths(dirs, loop):
    """{path: Counter(count: loops)} summed over the folders (boots) given."""
    by = collections.defaultdict(collections.Counter)
    for d in dirs:
        p = os.path.join(d, f'paths-{loop}.tsv')
        if not os.path.exists(p):
            die(f'{p}: no such file (a trace counted before paths were kept?)')
        for line in open(p):
            if not line.startswith('#'):
                name, v, k = line.split('\t')
                by[name][int(v)] += int(k)
    return by


def paths_report(loop, na, dirs_a, nb, dirs_b, floor=5.0):
    """Markdown: LOOP's single loops by path, each kernel's mix (every boot)
    and the most common count of each path; the difference B - A on each path
    both kernels take in at least FLOOR % of their loops: matched paths."""
    print(f'### {loop} on matched paths: {na} vs {nb}\n')
    print(f'Single loops filed by the scheduler paths they ran ({", ".join(f"`{m}`" for m in PATH_MARKERS)}; '
          '"-": neither), over all boots; each path\'s most common count. The difference is taken only on '
          f'a path both kernels ran in at least {floor:g}% of their loops.\n')
    mix = {}
    for n, dirs in ((na, dirs_a), (nb, dirs_b)):
        for d in dirs:
            by = load_paths([d], loop)
            tot = sum(sum(c.values()) for c in by.values())
            mix[n, d] = {p: 100.0 * sum(c.values()) / tot for p, c in by.items()} if tot else {}
    a, b = load_paths(dirs_a, loop), load_paths(dirs_b, loop)
    ta, tb = sum(sum(c.values()) for c in a.values()), sum(sum(c.values()) for c in b.values())
    print(f'| path | {na}: share of loops | {na}: mode | {nb}: share of loops | {nb}: mode | {nb} - {na} |')
    print('|---|---:|---:|---:|---:|---:|')
    for p in sorted(set(a) | set(b), key=lambda x: -(sum(a[x].values()) / max(ta, 1) + sum(b[x].values()) / max(tb, 1))):
        sa, sb = 100.0 * sum(a[p].values()) / max(ta, 1), 100.0 * sum(b[p].values()) / max(tb, 1)
        ma = a[p].most_common(1)[0][0] if a[p] else None
        mb = b[p].most_common(1)[0][0] if b[p] else None
        d = f'{mb - ma:+d}' if ma is not None and mb is not None and sa >= floor and sb >= floor else 'not matched'
        print(f'| `{p}` | {sa:.1f}% | {ma if ma is not None else ""} | {sb:.1f}% | {mb if mb is not None else ""} | {d} |')
    print()
    print('Each boot\'s mix (share of its loops on each path):\n')
    for (n, d), m in mix.items():
        print(f'- {n}, `{os.path.basename(d)}`: ' + ', '.join(f'`{p}` {v:.1f}%' for p, v in sorted(m.items(), key=lambda x: -x[1])))
    print()


def single_stats(xs):
    """The kernel instructions of single loops (both windows): their median,
    the lowest, and the most common count with its share of the loops.
    Where the fair scheduler's state picks one of several paths per loop, the
    windows' average moves with the mix from run to run; these do not."""
    if len(xs) < 10:
        return {}
    xs = sorted(xs)
    mode, k = collections.Counter(xs).most_common(1)[0]
    return {'single-median': xs[len(xs) // 2], 'single-min': xs[0], 'single-mode': mode,
            'single-mode-share': 100.0 * k / len(xs), 'single-loops': len(xs)}


def load(d, loop):
    res = {}
    with open(os.path.join(d, f'functions-{loop}.tsv')) as f:
        for line in f:
            if not line.startswith('#'):
                fn, v = line.rstrip('\n').split('\t')
                res[fn] = float(v)
    return res


def compare(na, da, nb, db, top=12):
    loops = dict.fromkeys(line.split()[0] for line in open(os.path.join(da, 'windows.tsv')))
    print('## Where the instructions go (QEMU execution log)\n')
    print(f'Instructions executed per loop of bench-count, {na} vs {nb}, from every translation block')
    print('QEMU ran (scripts/bench/bench_trace.py: windows of N and 2N loops, difference / N). Kernel')
    print('functions with the largest differences first.\n')
    for loop in loops:
        a, b = load(da, loop), load(db, loop)
        sa, sb = steady(a), steady(b)
        print(f'### {loop}: kernel {a["(kernel)"]:.1f} -> {b["(kernel)"]:.1f} '
              f'({b["(kernel)"] - a["(kernel)"]:+.1f}; steady {sa:.1f} -> {sb:.1f}, {sb - sa:+.1f}), '
              f'user {a.get("(user)", 0):.1f} -> {b.get("(user)", 0):.1f}\n')
        print(f'| function | {na} | {nb} | difference |')
        print('|---|---:|---:|---:|')
        fns = sorted({f for f in set(a) | set(b) if not f.startswith('(')}, key=lambda f: -abs(b.get(f, 0) - a.get(f, 0)))
        for f in fns[:top]:
            x, y = a.get(f, 0), b.get(f, 0)
            if abs(y - x) >= 0.05:
                print(f'| `{f}` | {x:.1f} | {y:.1f} | {y - x:+.1f} |')
        print()


KERNELBASE = 0xc000000000000000
MSR_PR, MSR_IR = 0x4000, 0x20


def text_ranges(nm, vmlinux):
    """The kernel's text, [_stext, _etext) and [_sinittext, _einittext)."""
    out = nm_output(nm, vmlinux)
    at = {f[2]: int(f[0], 16) for f in (l.split() for l in out.splitlines()) if len(f) == 3}
    return [(at[lo], at[hi]) for lo, hi in (('_stext', '_etext'), ('_sinittext', '_einittext'))
            if lo in at and hi in at]


def symbolize(addrs, names, ranges, a, real=False):
    """symbol+offset of a kernel text address A ('' outside RANGES). REAL: run
    with translation off, at its physical address (the kernel is at 0 up):
    named as the kernel's, '(real mode)'."""
    if real and a < KERNELBASE:
        got = symbolize(addrs, names, ranges, a | KERNELBASE)
        return got + ' (real mode)' if got else ''
    i = bisect.bisect_right(addrs, a) - 1
    if i < 0 or not any(lo <= a < hi for lo, hi in ranges):
        return ''
    return f'{names[i]}+{a - addrs[i]:#x}'


def where_lines(lines, addrs, names, ranges):
    """'# boot: CPU#N NIP x sym LR y sym' for each vCPU of QEMU's 'info
    registers -a': user mode (MSR_PR) is named '(user)', translation off
    (no MSR_IR) as the kernel in real mode."""
    cpus = []
    for line in lines:
        f = line.split()
        if len(f) == 1 and f[0].startswith('CPU#'):
            cpus.append({'cpu': f[0]})
        elif cpus and len(f) >= 4 and f[0] == 'NIP' and f[2] == 'LR':
            cpus[-1].update(nip=f[1], lr=f[3])
        elif cpus and len(f) >= 2 and f[0] == 'MSR':
            cpus[-1]['msr'] = int(f[1], 16)
    out = []
    for c in cpus:
        if 'nip' not in c:
            continue
        msr = c.get('msr', MSR_IR)

        def name(x):
            if msr & MSR_PR:
                return '(user)'
            return symbolize(addrs, names, ranges, int(x, 16), real=not msr & MSR_IR)
        out.append(f"# boot: {c['cpu']} NIP {c['nip']} {name(c['nip'])} LR {c['lr']} {name(c['lr'])}")
    return out


def where(mon, nm, vmlinux, regs):
    """A hung guest (scripts/boot/boot.sh on a timeout): every vCPU's registers
    into REGS, and each vCPU's NIP and LR as symbol+offset on stdout."""
    reply = hmp(mon, 'info registers -a').replace('\r', '')
    lines = [l for l in reply.split('\n') if not l.startswith('(qemu)')]
    with open(regs, 'w') as f:
        f.write('\n'.join(lines).strip('\n') + '\n')
    addrs, names = symbols(nm, vmlinux)
    print('\n'.join(where_lines(lines, addrs, names, text_ranges(nm, vmlinux))))


def main():
    cmd, args = (sys.argv[1], sys.argv[2:]) if len(sys.argv) > 1 else ('', [])
    if cmd == 'run' and len(args) >= 2:
        run(args[0], args[1:])
    elif cmd == 'count' and len(args) == 3:
        count(*args)
    elif cmd == 'where' and len(args) == 4:
        where(*args)
    elif cmd == 'send' and len(args) == 2:
        print(hmp(*args).strip())
    elif cmd == 'paths' and len(args) == 5:
        paths_report(args[0], args[1], args[2].split(','), args[3], args[4].split(','))
    elif cmd == 'compare' and len(args) in (4, 5):
        compare(*args[:4], *(int(x) for x in args[4:]))
    else:
        die('usage:\n' + __doc__.split('Usage: ')[1])


if __name__ == '__main__':
    main()
