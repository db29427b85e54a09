#!/bin/bash
# make bench-compare: the table and plot of two result folders (from
# bench-host.sh, or make bench), the first one the reference. Two bench-host
# runs are compared only if their profiles (profile-*.txt, by
# scripts/bench/profile-host.sh) agree on every line but the kernel's name and
# build: a run in another preemption mode, with other LSMs or audit, on another
# machine is refused, each difference printed.
# Usage: bench-compare.sh DIR_A DIR_B [OUTDIR]   (OUTDIR default: results/compare-<timestamp>)
. "$(dirname "$0")/../common.sh"

a=${1:?usage: bench-compare.sh DIR_A DIR_B [OUTDIR]}
b=${2:?usage: bench-compare.sh DIR_A DIR_B [OUTDIR]}
out=${3:-$TOP/results/compare-$(date -u +%Y%m%dT%H%M%SZ)}
need gnuplot
for d in "$a" "$b"; do
	[ -s "$d/runs.tsv" ] || die "bench-compare: no $d/runs.tsv: not a result folder of make bench or bench-host"
done
prof() { find "$1" -maxdepth 1 -name 'profile-*.txt' | sort | sed -n 1p; }
pa=$(prof "$a") pb=$(prof "$b")
if [ -n "$pa$pb" ]; then
	[ -n "$pa" ] && [ -n "$pb" ] || die "bench-compare: REFUSED: only one of the two folders has a profile (profile-*.txt): $pa$pb"
	diffs=$(diff <(grep -vE '^(kernel|build):' "$pa") <(grep -vE '^(kernel|build):' "$pb") | grep '^[<>]' || true)
	if [ -n "$diffs" ]; then
		echo "bench-compare: REFUSED: the two runs' profiles differ (< ${pa#"$TOP"/}, > ${pb#"$TOP"/}):"
		sed 's/^/    /' <<<"$diffs"
		die "bench-compare: two runs in different profiles are not a comparison of kernels"
	fi
	say "bench-compare: profiles agree: $(grep -E '^(preempt|preempt-rcu|lsm|selinux|audit):' "$pa" | tr '\n' ';' | sed 's/;$//')"
fi
python3 "$TOP/scripts/bench/bench_report.py" --compare "$a" "$b" "$out" || die "bench-compare: the report failed"
if [ -n "$pa" ]; then
	{ echo; echo "Profile of both runs (bench-host): the kernels are $(sed -n 's/^kernel: //p' "$pa") and $(sed -n 's/^kernel: //p' "$pb")."; echo
		grep -vE '^(kernel|build):' "$pa" | sed 's/^/    /'; } >>"$out/table.md"
fi
say "bench-compare: $out/table.md, $out/plot.svg, $out/plot.png"
cat "$out/table.md"
