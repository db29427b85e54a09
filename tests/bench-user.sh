#!/bin/bash
# Self-test of the user profile's counting (issue 58): scripts/bench/bench_trace.py
# count's instruction classes and PREEMPT_DYNAMIC key sites, and
# scripts/bench/bench_user.py's tables, on canned input.
# 1. A synthetic 'vmlinux' (an ELF with a __jump_table of two entries: a
#    sk_dynamic_preempt_lazy site in f, a sk_dynamic_cond_resched site in the
#    wrapper dynamic_cond_resched) and an execution log of windows of 1 and 2
#    loops, each loop f (hwsync, lwsync, isync, eieio, mtmsrd, mtsrr0, mfamr,
#    ldarx/stdcx., mflr, a second lwsync) and the wrapper; a user block with an
#    lwsync. Per loop: lwsync 2, one of each other class, mtspr:SRR0 1,
#    mfspr:AMR 1, mfspr:LR 1; the user's lwsync
#    not counted; the lazy key's site 1; the wrapper's site not counted as a
#    key site (its instructions are the wrapper's).
# 2. bench_user.py on four kernels' folders: the split (reference 1,000,
#    rcu-only 1,450, base 2,000, rcu 1,100 kernel instructions per bogo-op:
#    PREEMPT_RCU alone +450, 45.0%; the mode +550, 55.0%; rcu removes 900,
#    90.0%), a function's share (avc_lookup 250 of 2,000: 12.5%), the
#    audit_signal_info* sum, a function above 2% named, the switch of part 7
#    (wrapper 4 + key sites 2 = 6), a process count that differs between
#    kernels flagged; audit's second state (audit=1: base 2,600, rcu 1,500
#    per bogo-op) beside the task,never figures; the plot's data (each kernel
#    over the reference, in %) and user.png; a folder without traces refused.
. "$(dirname "$0")/../scripts/common.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
expect() {	# FILE LINE: the file has the line, whole
	if grep -qxF -- "$2" "$1" 2>/dev/null; then echo "ok: $2"; else echo "FAIL: no line '$2' in $1"; fail=1; fi
}
expect_in() {	# FILE TEXT: the file has the text in some line
	if grep -qF -- "$2" "$1" 2>/dev/null; then echo "ok: ... $2 ..."; else echo "FAIL: no '$2' in $1"; fail=1; fi
}
refute() {	# FILE PATTERN: no line matches
	if grep -qE -- "$2" "$1" 2>/dev/null; then echo "FAIL: a line matches /$2/ in $1"; fail=1; else echo "ok: no /$2/"; fi
}

# ---- 1. bench_trace.py count: classes and key sites.
cat >"$tmp/nm" <<'NM'
#!/bin/sh
cat <<'SYMS'
c000000000001000 T f
c000000000001040 T dynamic_cond_resched
c000000000001060 T h
c000000000002000 D __start___jump_table
c000000000002020 D __stop___jump_table
c000000000003000 D sk_dynamic_preempt_lazy
c000000000003010 D sk_dynamic_cond_resched
SYMS
NM
chmod +x "$tmp/nm"
python3 - "$tmp/vmlinux" <<'EOF'
import struct, sys
# ELF64 LE, one PROGBITS section at 0xc000000000002000 holding two relative
# jump entries (s32 code, s32 target, s64 key, each from its own address).
jt = 0xc000000000002000
ents = b''
for i, (code, key) in enumerate(((0xc000000000001008, 0xc000000000003000), (0xc000000000001044, 0xc000000000003010))):
    a = jt + 16 * i
    ents += struct.pack('<iiq', code - a, 0, (key | 1) - (a + 8))
shoff = 64 + len(ents)
hdr = b'\x7fELF' + bytes([2, 1, 1]) + bytes(9) + struct.pack('<HHIQQQIHHHHHH', 2, 21, 1, 0, 0, shoff, 0, 64, 0, 0, 64, 2, 0)
sh = bytes(64) + struct.pack('<IIQQQQIIQQ', 0, 1, 2, jt, 64, len(ents), 0, 0, 8, 0)
open(sys.argv[1], 'wb').write(hdr + ents + sh)
EOF
mkdir -p "$tmp/t"
printf 'loop\t1\nloop\t2\n' >"$tmp/t/windows.tsv"
F='Trace 0: 0x7f0000001000 [00000000/c000000000001000/24000015/ff002200] f'
W='Trace 0: 0x7f0000002000 [00000000/c000000000001040/24000015/ff002200] dynamic_cond_resched'
U='Trace 0: 0x7f0000003000 [00000000/0000000010000100/24000015/ff002200] u'
for n in 1 2; do
	{
		printf -- '----------------\nIN: f\n'
		printf '0xc000000000001000:  7c0802a6  mflr     r0\n'
		printf '0xc000000000001004:  7c0004ac  hwsync   \n'
		printf '0xc000000000001008:  60000000  nop\n'
		printf '0xc00000000000100c:  7c2004ac  lwsync   \n'
		printf '0xc000000000001010:  4c00012c  isync    \n'
		printf '0xc000000000001014:  7c0006ac  eieio    \n'
		printf '0xc000000000001018:  7d210164  mtmsrd   r9, 1\n'
		printf '0xc00000000000101c:  7c7a03a6  mtsrr0   r3\n'
		printf '0xc000000000001020:  7c7d02a6  mfspr    r3, 0x1d\n'
		printf '0xc000000000001024:  7d2018a8  ldarx    r9, 0, r3\n'
		printf '0xc000000000001028:  7d2019ad  stdcx.   r9, 0, r3\n'
		printf '0xc00000000000102c:  7c2004ac  lwsync   \n'
		printf '0xc000000000001030:  48000011  bl       0xc000000000001040\n\n%s\n' "$F"
		printf -- '----------------\nIN: dynamic_cond_resched\n'
		printf '0xc000000000001040:  38600000  li       r3, 0\n'
		printf '0xc000000000001044:  60000000  nop\n'
		printf '0xc000000000001048:  4e800020  blr\n\n%s\n' "$W"
		printf -- '----------------\nIN: u\n0x10000100:  7c2004ac  lwsync   \n0x10000104:  4e800020  blr\n\n%s\n' "$U"
		for ((i = 1; i < n; i++)); do printf '%s\n%s\n%s\n' "$F" "$W" "$U"; done
	} >"$tmp/t/exec-loop-$n.log"
done
python3 "$TOP/scripts/bench/bench_trace.py" count "$tmp/t" "$tmp/nm" "$tmp/vmlinux" || fail=1
cat "$tmp/t/functions-loop.tsv" 2>/dev/null
o=$tmp/t/functions-loop.tsv
expect "$o" $'(kernel)\t16.00'
expect "$o" $'(user)\t2.00'
expect "$o" $'(insn:lwsync)\t2.00'
for c in hwsync isync eieio mtmsrd mtspr:SRR0 mfspr:AMR mfspr:LR larx stcx; do
	expect "$o" "(insn:$c)"$'\t1.00'
done
expect "$o" $'(key:sk_dynamic_preempt_lazy)\t1.00'
refute "$o" '^\(key:sk_dynamic_cond_resched\)'
expect "$o" $'dynamic_cond_resched\t3.00'

# ---- 2. bench_user.py: the split, the shares, the switch.
mk() {	# KERNEL KERNEL-INSNS AVC PROCS [EXTRA-LINES]
	mkdir -p "$tmp/u/trace-$1"
	printf 'stress-kill\t10\nstress-kill\t20\n' >"$tmp/u/trace-$1/windows.tsv"
	{
		printf '# stress-kill: instructions per loop\n(kernel)\t%s\n(user)\t300.00\n(kernel-loads)\t%s\n' "$2" "$(($2 / 4))"
		printf 'avc_lookup\t%s\naudit_signal_info\t20.00\naudit_signal_info_syscall\t20.00\nsmall_fn\t1.00\n' "$3"
		printf 'dynamic_preempt_schedule\t4.00\n(key:sk_dynamic_preempt_lazy)\t2.00\n(insn:lwsync)\t3.00\n'
		printf '%s' "${5:-}"
	} >"$tmp/u/trace-$1/functions-stress-kill.tsv"
	printf 'guest: # stress-ng: stress-ng, version 0.22.01 (gcc)\nguest: # BENCH stress=stress-kill procs=%s sleepers=0 ops=10 sched=fifo\n' "$4" >"$tmp/u/console-trace-$1.log"
}
mk reference 1000 100 38
mk rcu-only 1450 150 38
mk base 2000 250 38 $'big_fn\t100.00\n'
mk rcu 1100 120 39
# Audit's second state: base 2,600 and rcu 1,500 per bogo-op under audit=1.
for kv in base:2600 rcu:1500; do
	mkdir -p "$tmp/u/audit1-${kv%%:*}"
	printf '(kernel)\t%s\naudit_signal_info\t30.00\naudit_signal_info_syscall\t30.00\n' "${kv#*:}" \
		>"$tmp/u/audit1-${kv%%:*}/functions-stress-kill.tsv"
done
python3 "$TOP/scripts/bench/bench_user.py" "$tmp/u" >"$tmp/u.md" || fail=1
cat "$tmp/u.md"
expect_in "$tmp/u.md" '| stress-kill | kernel | +1000.0 | +450.0 (45.0%) | +550.0 (55.0%) | n/a | +900.0 (90.0%) |'
expect_in "$tmp/u.md" '| stress-kill | kernel-loads | +250.0 | +112.0 (44.8%) | +138.0 (55.2%) | n/a | +225.0 (90.0%) |'
expect_in "$tmp/u.md" '| `avc_lookup` | 15.23% | 24.79% | 10.0% | 10.3% | 12.5% | 10.9% |'
expect_in "$tmp/u.md" '| `audit_signal_info*` | 0.94% | 3.59% | 4.0% |'
expect_in "$tmp/u.md" '| `big_fn` |  |  | 0.0% | 0.0% | 5.0% | 0.0% |'
refute "$tmp/u.md" 'small_fn'
expect_in "$tmp/u.md" '| stress-kill | base | 6.00 | 2.00 | 0.00 | 0.00 | 2000.0 |'
expect_in "$tmp/u.md" '| stress-kill | base | 38 (0) | 10 | fifo | 2000.0 | 395.0 | 300.0 | 500.0 |'
expect_in "$tmp/u.md" '| lwsync | 3.00 | 3.00 | 3.00 | 3.00 |'
expect_in "$tmp/u.md" 'the kernels ran at different process counts'
expect_in "$tmp/u.md" '| stress-kill | base | 2000.0 | 2600.0 | +600.0 | 60.0 |'
expect_in "$tmp/u.md" '| stress-kill | rcu | 1100.0 | 1500.0 | +400.0 | 60.0 |'
expect_in "$tmp/u.md" '| stress-kill | rcu - base | | -1100.0 (-42.3%) | | |'

# The plot: each kernel over the reference, in %, instructions then loads.
expect "$tmp/u/user-plot.dat" 'stress-kill rcu-only 0 45.00'
expect "$tmp/u/user-plot.dat" 'stress-kill base 1 100.00'
expect "$tmp/u/user-plot.dat" 'stress-kill rcu 2 10.00'
expect "$tmp/u/user-plot.dat" 'stress-kill rcu-only 4 44.80'
if [ -s "$tmp/u/user.png" ]; then echo "ok: user.png drawn"; else echo "FAIL: no user.png"; fail=1; fi
mkdir -p "$tmp/empty"
if python3 "$TOP/scripts/bench/bench_user.py" "$tmp/empty" >/dev/null 2>"$tmp/err"; then
	echo "FAIL: a folder without traces was reported"; fail=1
else
	echo "ok: refused: $(cat "$tmp/err")"
fi
exit $fail
