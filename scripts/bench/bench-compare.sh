#!/bin/bash
# make bench-compare: the table and plot of two result folders (from
# bench-host.sh, or make bench), the first one the reference.
# Usage: bench-compare.sh DIR_A DIR_B [OUTDIR]   (OUTDIR default: results/compare-<timestamp>)
. "$(dirname "$0")/../common.sh"

a=${1:?usage: bench-compare.sh DIR_A DIR_B [OUTDIR]}
b=${2:?usage: bench-compare.sh DIR_A DIR_B [OUTDIR]}
out=${3:-$TOP/results/compare-$(date -u +%Y%m%dT%H%M%SZ)}
need gnuplot
for d in "$a" "$b"; do
	[ -s "$d/runs.tsv" ] || die "bench-compare: no $d/runs.tsv: not a result folder of make bench or bench-host"
done
python3 "$TOP/scripts/bench/bench_report.py" --compare "$a" "$b" "$out" || die "bench-compare: the report failed"
say "bench-compare: $out/table.md, $out/plot.svg, $out/plot.png"
cat "$out/table.md"
