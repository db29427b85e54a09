#!/bin/bash
# make bench-host: the bench's workloads natively on the running kernel (for a
# POWER10 LPAR booted into the base or the patched kernel), in the same result
# format as make bench: DIR/console-bench-NAME-{1,2}.log and DIR/runs.tsv.
# Run it once per kernel, then compare two folders with scripts/bench/bench-compare.sh.
# First it records and prints the kernel's profile (DIR/profile-NAME.txt, by
# scripts/bench/profile-host.sh: preemption mode, PREEMPT_RCU, LSMs, audit...):
# bench-compare refuses two runs whose profiles differ. Then the project's
# loops (instructions per call from the PMU), stress-ng --kill 1 and hackbench
# (timed), and stress-ng --kill 1 under perf stat (instructions and cycles per
# bogo-op). A counter the machine lacks (QEMU's TCG has no cycles) is said so,
# and left out: no number is made up.
# Usage: bench-host.sh NAME [DIR]   NAME: a label for this kernel (base, patched...)
#        DIR: default results/host-NAME-<timestamp>; settings BENCH_REPS=5,
#        BENCH_GROUPS=1,2,4, BENCH_LOOPS=50, BENCH_SECS=3, BENCH_CPU=0 (the
#        CPU the counting loops are pinned to; stress-ng and hackbench are not).
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
# perf_stat_kill DIR NAME: BENCH lines (bench_report.py) of BENCH_REPS runs.
perf_stat_kill() {
	local r csv out bogo rate ins cyc line
	command -v perf >/dev/null || { say "bench-host: no perf (apt-get install linux-perf): no perf stat figures" >&2; return 0; }
	for r in $(seq "${BENCH_REPS:-5}"); do
		csv=$1/perf-stat-$2-$r.csv
		out=$(perf stat -x, -e instructions,cycles -o "$csv" -- \
			stress-ng --kill 1 -t "${BENCH_SECS:-3}" --metrics-brief --temp-path /tmp 2>&1) ||
			die "bench-host: perf stat stress-ng --kill 1 failed: $(tail -n 3 <<<"$out")"
		# 'kill  bogo-ops  real usr sys  bogo-ops/s(real) ...' (stress-ng --metrics-brief)
		read -r bogo rate < <(sed -n 's/.*\] kill[[:space:]]\+//p' <<<"$out" | awk 'NR == 1 { print $1, $5 }') || true
		[[ ${bogo:-0} =~ ^[1-9][0-9]*$ ]] || die "bench-host: no bogo-ops in stress-ng's output under perf stat: $(tail -n 3 <<<"$out")"
		ins=$(awk -F, '$3 ~ /^instructions/ && $1 ~ /^[0-9]+$/ { print $1 }' "$csv")
		cyc=$(awk -F, '$3 ~ /^cycles/ && $1 ~ /^[0-9]+$/ { print $1 }' "$csv")
		line="guest: # BENCH load=stress-ng-kill-perf rep=$r value=$rate"
		[ -z "$ins" ] || line="$line instr_per_bogo=$(awk -v i="$ins" -v b="$bogo" 'BEGIN { printf "%.1f", i / b }')"
		[ -z "$cyc" ] || line="$line cycles_per_bogo=$(awk -v c="$cyc" -v b="$bogo" 'BEGIN { printf "%.1f", c / b }')"
		echo "$line"
		if [ "$r" = 1 ]; then
			[ -n "$ins" ] || say "bench-host: perf stat: instructions not counted here ($(grep instructions "$csv" | cut -d, -f1)): left out" >&2
			[ -n "$cyc" ] || say "bench-host: perf stat: cycles not counted here ($(grep cycles "$csv" | cut -d, -f1)): left out" >&2
		fi
	done
}
bin=$BUILD/bench/bench-host
gcc -O2 -Wall -Wextra -DBENCH_HOST -o "$bin" "$TOP/guest/bench.c" "$TOP/guest/lib.c" ||
	die "bench-host: guest/bench.c does not build natively (it needs gcc and libc6-dev: apt-get install gcc libc6-dev)"
envs=("bench.reps=${BENCH_REPS:-5}" "bench.groups=${BENCH_GROUPS:-1,2,4}" "bench.loops=${BENCH_LOOPS:-50}"
	"bench.secs=${BENCH_SECS:-3}")
{ uname -a; grep -m1 -E '^(cpu|model name)' /proc/cpuinfo || true; nproc; } >"$dir/host-$name.txt"
"$TOP/scripts/bench/profile-host.sh" >"$dir/profile-$name.txt" || die "bench-host: cannot read the kernel's profile"
say "bench-host: $name: the kernel's profile ($dir/profile-$name.txt):"
sed 's/^/    /' "$dir/profile-$name.txt"
# The PMU: without it the loops' counts are left out, the timings go on.
pmu=1
# The counting loops pinned to BENCH_CPU; the loads (stress-ng, hackbench)
# not: on a machine of many CPUs they run as the reporter ran them.
for run in 1 2; do
	log=$dir/console-bench-$name-$run.log
	: >"$log"
	if [ -n "$pmu" ]; then
		say "bench-host: $name, run $run: bench-count, pinned to CPU ${BENCH_CPU:-0} (log: $log)"
		env "${envs[@]}" taskset -c "${BENCH_CPU:-0}" "$bin" bench-count | tee -a "$log" |
			grep -E '^guest: (ok|not ok)' || true
	fi
	if [ $run = 2 ]; then
		say "bench-host: $name, run $run: bench-load, on every CPU (log: $log)"
		env "${envs[@]}" "$bin" bench-load | tee -a "$log" | grep -E '^guest: (ok|not ok)' || true
	fi
	if [ $run = 1 ] && grep -q '^guest: not ok .*bench-count.*no PMU' "$log"; then
		say "bench-host: no instruction counter on this machine ($(sed -n 's/^guest: not ok [0-9]* bench-count # //p' "$log")): the loops' counts are left out"
		mv "$log" "$dir/no-pmu-$name.log"
		pmu=
		continue
	fi
	grep -q '^guest: not ok' "$log" && die "bench-host: a scenario failed (see $log)"
done
# stress-ng --kill 1 under perf stat: instructions and cycles per bogo-op
# (the reporter's unit), each counter only where perf counts it.
perf_stat_kill "$dir" "$name" >>"$dir/console-bench-$name-2.log"
python3 "$TOP/scripts/bench/bench_report.py" "$dir"
say "bench-host: $dir; compare with: scripts/bench/bench-compare.sh DIR_BASE DIR_PATCHED"
