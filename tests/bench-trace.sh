#!/bin/bash
# Self-test of scripts/bench/bench_trace.py count: a synthetic QEMU execution log of
# two windows (1 and 2 loops of f calling g) must give f = 5, g = 2 and
# 7 kernel instructions per loop, 2 loads and 1 store ('li' is no load), and
# a PMU model of 5 (f leaves by a direct 'bl' within its page and counts, g
# returns by 'blr' and does not), a block
# that QEMU logged but did not run uncounted; a log whose blocks ran without
# their instructions listed must be refused. Single loops (the guest's mark
# block M before each): loops of f+g (7) and, every third, f+g+g (9), with
# an undone block in one loop, must give a median and mode of 7, a minimum of 7,
# 12 loops of 7 and 4 of 9 (the last loop of a window has no mark after it),
# with a mark logged but not run (first and fourth loop) ending no loop; a
# window whose mark ran once too often must be refused. Each single loop is
# filed by the scheduler path it ran (paths-LOOP.tsv, 'paths'). And 'where' names an
# address run with translation off (real mode) as the kernel's.
. "$(dirname "$0")/../scripts/common.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
# The symbols of the 'vmlinux', from a stand-in for nm.
printf '#!/bin/sh\nprintf "c000000000001000 T f\\nc000000000001014 T g\\n"\n' >"$tmp/nm"
chmod +x "$tmp/nm"
F='Trace 0: 0x7f0000001000 [00000000/c000000000001000/24000015/ff002200] f'
G='Trace 0: 0x7f0000002000 [00000000/c000000000001014/24000015/ff002200] g'
log() {	# DIR LOOPS: the first call translates f and g, later ones reuse them
	{
		if [ "$2" = 1 ]; then
			printf -- '----------------\nIN: f\n0xc000000000001000:  7c0802a6  mflr     r0\n'
			printf '0xc000000000001004:  f8010010  std      r0, 0x10(r1)\n'
			printf '0xc000000000001008:  38600000  li       r3, 0\n'
			printf '0xc00000000000100c:  e92d0010  ld       r9, 0x10(r13)\n'
			printf '0xc000000000001010:  48000005  bl       0xc000000000001014\n\n%s\n' "$F"
			printf -- '----------------\nIN: g\n0xc000000000001014:  80830000  lwz      r4, 0(r3)\n'
			printf '0xc000000000001018:  4e800020  blr\n\n%s\n' "$G"
		else
			printf '%s\n%s\n' "$F" "$G"
		fi
		for ((i = 1; i < $2; i++)); do printf '%s\n%s\n' "$F" "$G"; done
		# In one window, a block logged but not run (an exit request at its
		# start): counted, it would add 5 to f, 1 load and 1 store.
		[ "$2" = 1 ] || printf '%s\nStopped execution of TB chain before 0x7f0000001000 [c000000000001000] f\n' "$F"
	} >"$1/exec-loop-$2.log"
}
mkdir -p "$tmp/good" "$tmp/bad"
printf 'loop\t1\nloop\t2\n' >"$tmp/good/windows.tsv"
log "$tmp/good" 1
log "$tmp/good" 2
python3 "$TOP/scripts/bench/bench_trace.py" count "$tmp/good" "$tmp/nm" /dev/null || fail=1
cat "$tmp/good/functions-loop.tsv" 2>/dev/null
expect() {	# FILE LINE
	if grep -qxF -- "$2" "$1" 2>/dev/null; then echo "ok: $2"; else echo "FAIL: no line '$2'"; fail=1; fi
}
expect "$tmp/good/functions-loop.tsv" $'(kernel)\t7.00'
expect "$tmp/good/functions-loop.tsv" $'f\t5.00'
expect "$tmp/good/functions-loop.tsv" $'g\t2.00'
expect "$tmp/good/functions-loop.tsv" $'(kernel-loads)\t2.00'
expect "$tmp/good/functions-loop.tsv" $'(kernel-stores)\t1.00'
expect "$tmp/good/functions-loop.tsv" $'(pmu-model)\t5.00'
# The same windows with no 'in_asm' listing: nothing can be counted.
printf 'loop\t1\nloop\t2\n' >"$tmp/bad/windows.tsv"
printf '%s\n%s\n' "$F" "$G" >"$tmp/bad/exec-loop-1.log"
printf '%s\n%s\n%s\n%s\n' "$F" "$G" "$F" "$G" >"$tmp/bad/exec-loop-2.log"
if python3 "$TOP/scripts/bench/bench_trace.py" count "$tmp/bad" "$tmp/nm" /dev/null 2>"$tmp/err"; then
	echo "FAIL: a log without instruction lists was counted"; fail=1
elif grep -q 'without their instructions logged' "$tmp/err"; then
	echo "ok: refused: $(cat "$tmp/err")"
else
	echo "FAIL: refused for another reason: $(cat "$tmp/err")"; fail=1
fi
# The instruction lists of a marked window's blocks: the mark m, f, and
# the function at 0xc000000000001014 named $1.
listings() {
	printf -- '----------------\nIN: m\n0x10000100:  4e800020  blr\n\n'
	printf -- '----------------\nIN: f\n0xc000000000001000:  7c0802a6  mflr     r0\n'
	printf '0xc000000000001004:  f8010010  std      r0, 0x10(r1)\n'
	printf '0xc000000000001008:  38600000  li       r3, 0\n'
	printf '0xc00000000000100c:  e92d0010  ld       r9, 0x10(r13)\n'
	printf '0xc000000000001010:  48000005  bl       0xc000000000001014\n\n'
	printf -- '----------------\nIN: %s\n0xc000000000001014:  80830000  lwz      r4, 0(r3)\n' "$1"
	printf '0xc000000000001018:  4e800020  blr\n\n'
}
# Single loops: windows of 6 and 12 loops, marked by the user block M.
mkdir -p "$tmp/single"
printf 'loop\t6\t10000100\nloop\t12\t10000100\n' >"$tmp/single/windows.tsv"
M='Trace 0: 0x7f0000003000 [00000000/0000000010000100/24000015/ff002200] m'
for n in 6 12; do
	{
		listings g
		for ((i = 0; i < n; i++)); do
			printf '%s\n%s\n%s\n' "$M" "$F" "$G"
			((i % 3 != 2)) || printf '%s\n' "$G"
			# Logged, not run: must not count in this loop.
			((i != 1)) || printf '%s\nStopped execution of TB chain before 0x7f0000001000 [c000000000001000] f\n' "$F"
			# A mark logged, not run: no loop ends there (and a first one starts none).
			((i != 3 && i != 0)) || printf '%s\nStopped execution of TB chain before 0x7f0000003000 [0000000010000100] m\n' "$M"
		done
	} >"$tmp/single/exec-loop-$n.log"
done
python3 "$TOP/scripts/bench/bench_trace.py" count "$tmp/single" "$tmp/nm" /dev/null || fail=1
expect "$tmp/single/functions-loop.tsv" $'(single-median)\t7.00'
expect "$tmp/single/functions-loop.tsv" $'(single-mode)\t7.00'
expect "$tmp/single/functions-loop.tsv" $'(single-min)\t7.00'
expect "$tmp/single/functions-loop.tsv" $'(single-loops)\t16.00'
expect "$tmp/single/single-loop.tsv" $'7\t12'
expect "$tmp/single/single-loop.tsv" $'9\t4'
# One mark more than loops (a stray run of loop_mark()): refused.
printf '%s\n' "$M" >>"$tmp/single/exec-loop-12.log"
if python3 "$TOP/scripts/bench/bench_trace.py" count "$tmp/single" "$tmp/nm" /dev/null 2>"$tmp/err"; then
	echo "FAIL: a window with 13 marks for 12 loops was counted"; fail=1
elif grep -q 'loop mark ran 13 times in 12 loops' "$tmp/err"; then
	echo "ok: refused: $(cat "$tmp/err")"
else
	echo "FAIL: refused for another reason: $(cat "$tmp/err")"; fail=1
fi
# Paths: loops of f (5), every third f + update_curr_dl_se (2): filed by
# path, '-' 12 loops of 5 and 'update_curr_dl_se' 4 of 7; a marker block
# logged but not run (loop 1) does not file its loop under the marker.
mkdir -p "$tmp/paths"
printf '#!/bin/sh\nprintf "c000000000001000 T f\\nc000000000001014 T update_curr_dl_se\\n"\n' >"$tmp/nm2"
chmod +x "$tmp/nm2"
printf 'loop\t6\t10000100\nloop\t12\t10000100\n' >"$tmp/paths/windows.tsv"
D='Trace 0: 0x7f0000002000 [00000000/c000000000001014/24000015/ff002200] update_curr_dl_se'
for n in 6 12; do
	{
		listings update_curr_dl_se
		for ((i = 0; i < n; i++)); do
			printf '%s\n%s\n' "$M" "$F"
			((i % 3 != 2)) || printf '%s\n' "$D"
			((i != 1)) || printf '%s\nStopped execution of TB chain before 0x7f0000002000 [c000000000001014] update_curr_dl_se\n' "$D"
		done
	} >"$tmp/paths/exec-loop-$n.log"
done
python3 "$TOP/scripts/bench/bench_trace.py" count "$tmp/paths" "$tmp/nm2" /dev/null || fail=1
expect "$tmp/paths/paths-loop.tsv" $'-\t5\t12'
expect "$tmp/paths/paths-loop.tsv" $'update_curr_dl_se\t7\t4'
python3 "$TOP/scripts/bench/bench_trace.py" paths loop A "$tmp/paths" B "$tmp/paths,$tmp/paths" >"$tmp/paths.md" || fail=1
cat "$tmp/paths.md"
expect "$tmp/paths.md" '| `-` | 75.0% | 5 | 75.0% | 5 | +0 |'
expect "$tmp/paths.md" '| `update_curr_dl_se` | 25.0% | 7 | 25.0% | 7 | +0 |'
# bench_trace.py where (a hung guest's vCPUs, for tests/known-hangs.txt):
# translation off (no MSR_IR) is the kernel at its physical address, user
# mode (MSR_PR) is named as such, an address outside the kernel's text is not.
got=$(PYTHONPATH=$TOP/scripts/bench python3 -c 'import bench_trace as b
a, n = [0xc000000000000000, 0xc000000000000380, 0xc000000000001e50], ["_stext", "exc_real_0x380_data_access_slb", "entry_flush_fallback"]
r = [(0xc000000000000000, 0xc000000000002000)]
dump = """CPU#0
NIP 0000000000001e50   LR 00000000000003b8 CTR 0 XER 0 CPU#0
MSR 8000000000001001 HID0 0
CPU#1
NIP c000000000001e58   LR c008000000001234 CTR 0 XER 0 CPU#1
MSR 8000000000001033 HID0 0
CPU#2
NIP 0000000000001e50   LR 0000000010001234 CTR 0 XER 0 CPU#2
MSR 800000000000f033 HID0 0""".split("\n")
print("\n".join(b.where_lines(dump, a, n, r)))')
want='# boot: CPU#0 NIP 0000000000001e50 entry_flush_fallback+0x0 (real mode) LR 00000000000003b8 exc_real_0x380_data_access_slb+0x38 (real mode)
# boot: CPU#1 NIP c000000000001e58 entry_flush_fallback+0x8 LR c008000000001234 
# boot: CPU#2 NIP 0000000000001e50 (user) LR 0000000010001234 (user)'
if [ "$got" = "$want" ]; then
	echo "ok: where names real-mode, kernel and user addresses"
else
	printf 'FAIL: where printed:\n%s\nnot:\n%s\n' "$got" "$want"; fail=1
fi
exit $fail
