#!/bin/bash
# make bench-host: the bench's workloads natively on the running kernel (for a
# POWER10 LPAR booted into the base or the patched kernel), in the same result
# format as make bench: DIR/console-bench-NAME-{1,2}.log and DIR/runs.tsv.
# Run it once per kernel, then compare two folders with scripts/bench/bench-compare.sh.
# Usage: bench-host.sh NAME [DIR]   NAME: a label for this kernel (base, patched...)
#        DIR: default results/host-NAME-<timestamp>; settings BENCH_REPS=5,
#        BENCH_GROUPS=1,2,4, BENCH_LOOPS=50, BENCH_SECS=3, BENCH_CPU=0 (the
#        CPU the instruction counts are pinned to).
. "$(dirname "$0")/../common.sh"

name=${1:?usage: bench-host.sh NAME [DIR]  (NAME: base, patched, ...)}
[[ $name =~ ^[A-Za-z0-9_.]+$ ]] || die "bench-host: NAME '$name': letters, digits, _ and . only"
dir=${2:-$TOP/results/host-$name-$(date -u +%Y%m%dT%H%M%SZ)}
need gcc; need taskset
for t in stress-ng hackbench; do
	command -v "$t" >/dev/null || die "bench-host: no $t: apt-get install stress-ng rt-tests"
done
[ -e /proc/sys/kernel/perf_event_paranoid ] || die "bench-host: this kernel has no perf events (CONFIG_PERF_EVENTS)"
[ "$(id -u)" = 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 1 ] ||
	die "bench-host: run as root, or set kernel.perf_event_paranoid <= 1: the counts count kernel instructions"
mkdir -p "$dir" "$BUILD/bench"
bin=$BUILD/bench/bench-host
gcc -O2 -Wall -Wextra -DBENCH_HOST -o "$bin" "$TOP/guest/bench.c" "$TOP/guest/lib.c" ||
	die "bench-host: guest/bench.c does not build natively"
envs=("bench.reps=${BENCH_REPS:-5}" "bench.groups=${BENCH_GROUPS:-1,2,4}" "bench.loops=${BENCH_LOOPS:-50}"
	"bench.secs=${BENCH_SECS:-3}")
{ uname -a; grep -m1 -E '^(cpu|model name)' /proc/cpuinfo || true; nproc; } >"$dir/host-$name.txt"
for run in 1 2; do
	what=(bench-count)
	[ $run = 1 ] || what+=(bench-load)
	say "bench-host: $name, run $run: ${what[*]} (log: $dir/console-bench-$name-$run.log)"
	env "${envs[@]}" taskset -c "${BENCH_CPU:-0}" "$bin" "${what[@]}" | tee "$dir/console-bench-$name-$run.log" |
		grep -E '^guest: (ok|not ok)' || true
	grep -q '^guest: not ok' "$dir/console-bench-$name-$run.log" &&
		die "bench-host: a scenario failed (see $dir/console-bench-$name-$run.log)"
done
python3 "$TOP/scripts/bench/bench_report.py" "$dir"
say "bench-host: $dir; compare with: scripts/bench/bench-compare.sh DIR_BASE DIR_PATCHED"
