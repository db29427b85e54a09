#!/bin/bash
# Self-test of scripts/bench/bench_report.py's picture: a runs.tsv of three kernels
# where patched's kill() spread overlaps base's (no change) and its pipe
# message's does not (a change) must draw only the pipe message as a change
# (plot-pmu.dat: state and bar height), agree with the table, put the exact
# count first (plot-exact.dat) and write plot.svg and plot.png. The same checks
# fed the inverse (kill() apart, pipe overlapping) must fail. With a
# 'reference' kernel, the table gets each kernel's overhead over it and the
# share of base's overhead removed, and the exact panel is against it. A loop
# traced again in boots of its own (repeat-KERNEL-RUN/) gets a repeatability
# table: each boot's median single loop, its spread, rcu against base.
. "$(dirname "$0")/../scripts/common.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0

# runs DIR KERNEL METRIC VALUES...: PMU counts, one repetition per value.
runs() {
	local d=$1 k=$2 m=$3 rep=0 v
	shift 3
	[ -s "$d/runs.tsv" ] || printf 'kernel\trun\tkind\tmetric\trep\tvalue\n' >"$d/runs.tsv"
	for v; do printf '%s\t1\tcount\t%s\t%d\t%s\n' "$k" "$m" $((rep += 1)) "$v" >>"$d/runs.tsv"; done
}
# case NAME KILL... -- PIPE...: base in A, patched (KILL, PIPE) and extra in B.
case_() {
	local c=$tmp/$1 k=()
	shift
	while [ "$1" != -- ]; do k+=("$1"); shift; done
	shift
	mkdir -p "$c/a" "$c/b"
	runs "$c/a" base kill 100 101 102
	runs "$c/a" base msg-pipe 100 101 102
	printf 'base\t0\texact\tkill:kernel\t0\t864.5\n' >>"$c/a/runs.tsv"
	runs "$c/b" patched kill "${k[@]}"
	runs "$c/b" patched msg-pipe "$@"
	printf 'patched\t0\texact\tkill:kernel\t0\t853.9\n' >>"$c/b/runs.tsv"
	runs "$c/b" extra kill 99 100 101	# a third kernel, overlapping base on both
	runs "$c/b" extra msg-pipe 101 102 103
	python3 "$TOP/scripts/bench/bench_report.py" --compare "$c/a" "$c/b" "$c/out" >/dev/null
}
# judge DIR: the checks, one line each; non-zero when one fails.
judge() {
	local o=$1/out bad=0
	check() {	# WHAT COMMAND...
		local what=$1
		shift
		if "$@" >/dev/null 2>&1; then echo "ok: $what"; else echo "FAIL: $what"; bad=1; fi
	}
	# plot-pmu.dat: figure kernel x height pct lo hi state
	check "pipe message: patched drawn as a change, with its height" \
		awk '$1 == "msg-pipe" && $2 == "patched" && $8 == "change" && $4 + 0 < -5 { f = 1 } END { exit !f }' "$o/plot-pmu.dat"
	check "kill(): patched drawn as no change, no height" \
		awk '$1 == "kill" && $2 == "patched" && $8 == "no-change" && $4 + 0 == 0 { f = 1 } END { exit !f }' "$o/plot-pmu.dat"
	check "extra (third kernel): no change on both" \
		awk '$2 == "extra" { n++; if ($8 != "no-change" || $4 + 0 != 0) bad = 1 } END { exit bad || n != 2 }' "$o/plot-pmu.dat"
	check "only one change in the picture" \
		awk '$8 == "change" { n++ } END { exit n != 1 }' "$o/plot-pmu.dat"
	check "every figure carries its spread (lo <= pct <= hi)" \
		awk 'NR > 1 && !($6 <= $5 && $5 <= $7) { bad = 1 } END { exit bad }' "$o/plot-pmu.dat"
	# The table, by the same rule: | label | base | patched | extra | patched vs base | extra vs base |
	check "table agrees: kill() no significant change, pipe message a change" \
		awk -F' [|] ' '/^[|] instructions per kill\(\)/ && $5 ~ /^no significant/ { k = 1 }
			/^[|] instructions per 100-byte message, pipe/ && $5 !~ /^no significant/ { p = 1 } END { exit !(k && p) }' "$o/table.md"
	check "exact count first: patched -10.6 per kill()" grep -qE '^kill patched [0-9.]+ -10\.6 ' "$o/plot-exact.dat"
	check "plot.svg written" grep -q '<svg' "$o/plot.svg"
	check "plot.png written" sh -c "head -c 8 '$o/plot.png' | od -c | grep -q 'P   N   G'"
	return $bad
}

echo "# patched: kill() 101-103 overlaps base 100-102; pipe message 90-92 does not"
case_ good 101 102 103 -- 90 91 92 || fail=1
judge "$tmp/good" || fail=1
echo "# the inverse: kill() 90-92 apart, pipe message 101-103 overlapping: the checks must fail"
case_ inverse 90 91 92 -- 101 102 103 || fail=1
if judge "$tmp/inverse" >"$tmp/inverse.txt"; then
	sed 's/^/  /' "$tmp/inverse.txt"
	echo "FAIL: the checks pass on the inverse: they cannot tell a change from noise"; fail=1
else
	sed 's/^/  /' "$tmp/inverse.txt"
	echo "ok: the checks fail on the inverse"
fi
echo "# with the reference kernel: overhead rows, share removed, the exact panel against the reference"
case_ ref 101 102 103 -- 90 91 92 || fail=1
printf 'reference\t0\texact\tkill:kernel\t0\t737.2\n' >>"$tmp/ref/b/runs.tsv"
python3 "$TOP/scripts/bench/bench_report.py" --compare "$tmp/ref/a" "$tmp/ref/b" "$tmp/ref/out" >/dev/null || fail=1
row() { grep -F "| kernel instructions per kill() call: $1 |" "$tmp/ref/out/table.md"; }
# | label | base | patched | extra | reference | ...
if grep -qF '| +127.3 | +116.7 | n/a | +0.0 |' <<<"$(row 'overhead over the reference')"; then
	echo "ok: overhead over the reference: base +127.3, patched +116.7"
else
	echo "FAIL: no overhead row, or a wrong one: $(row 'overhead over the reference')"; fail=1
fi
if grep -qF '| - | 8% (10.6 of 127.3) |' <<<"$(row "share of base's overhead removed")"; then
	echo "ok: patched removes 8% of base's overhead"
else
	echo "FAIL: no share row, or a wrong one: $(row "share of base's overhead removed")"; fail=1
fi
if grep -qE '^kill patched [0-9.]+ 116\.7 ' "$tmp/ref/out/plot-exact.dat"; then
	echo "ok: the exact panel is against the reference"
else
	echo "FAIL: the exact panel is not against the reference: $(cat "$tmp/ref/out/plot-exact.dat")"; fail=1
fi
echo "# the steady count from a trace folder: the functions run at least every other loop"
st=$tmp/steady
mkdir -p "$st/trace-base" "$st/trace-reference"
# base: 13 in the loop (8 + 5), one-time work of the first window outside it
printf '# kill\n(kernel)\t12.40\nloop_a\t8.00\nloop_b\t5.00\npage_fault\t-0.90\ntimer\t0.30\n' \
	>"$st/trace-base/functions-kill.tsv"
printf '# kill\n(kernel)\t9.00\nloop_a\t8.00\nloop_c\t1.00\n' >"$st/trace-reference/functions-kill.tsv"
for k in base reference; do echo 'guest: # BENCH count=kill rep=1 value=100' >"$st/console-bench-$k-1.log"; done
python3 "$TOP/scripts/bench/bench_report.py" "$st" >/dev/null || fail=1
steady() { grep -F "| steady kernel instructions per kill() call$1 |" "$st/table.md"; }
if grep -qF '| 13.0 | 9.00 |' <<<"$(steady ' (SIGUSR1 ignored, tight loop)')" &&
	grep -qF '| +4.0 | +0.0 |' <<<"$(steady ': overhead over the reference')"; then
	echo "ok: steady counts 13.0 and 9.0 (page_fault and timer left out), overhead +4.0"
else
	echo "FAIL: wrong steady counts:"; grep -F 'steady' "$st/table.md" | sed 's/^/  /'; fail=1
fi
echo "# repeatability: the round trip in three boots of base and rcu"
rp=$tmp/repeat
mkdir -p "$rp"
for k in base rcu; do echo 'guest: # BENCH count=kill rep=1 value=100' >"$rp/console-bench-$k-1.log"; done
# tsv DIR MEDIAN: a ctxsw trace whose single loops have that median
tsv() { mkdir -p "$1"; printf '# ctxsw\n(kernel)\t%s\n(single-median)\t%s\n(single-mode)\t%s\nf\t%s\n' "$2" "$2" "$2" "$2" >"$1/functions-ctxsw.tsv"; }
tsv "$rp/trace-base" 100; tsv "$rp/repeat-base-2" 104; tsv "$rp/repeat-base-3" 102
tsv "$rp/trace-rcu" 101; tsv "$rp/repeat-rcu-2" 103; tsv "$rp/repeat-rcu-3" 105
python3 "$TOP/scripts/bench/bench_report.py" "$rp" >/dev/null || fail=1
if grep -qF '| base | median of single loops | 100.0 | 104.0 | 102.0 | 4.0 | 102.0 |  |' "$rp/table.md" &&
	grep -qF '| rcu | median of single loops | 101.0 | 103.0 | 105.0 | 4.0 | 103.0 | +1.0 (+0.98%) |' "$rp/table.md"; then
	echo "ok: repeatability: three boots each, spread 4.0, rcu +1.0 (+0.98%) over base"
else
	echo "FAIL: wrong repeatability table:"; grep -F 'Repeat' -A12 "$rp/table.md" | sed 's/^/  /'; fail=1
fi
exit $fail
