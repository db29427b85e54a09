#!/bin/bash
# The wakeup latency that series-rcu's last patch ("Do not check for a
# reschedule when nothing was replayed") trades for its 2 instructions
# (issue 59 item 8). guest-le is built twice with the probe
# tests/probes/irq-restore-latency.patch, a KUnit suite that times a
# SCHED_FIFO kthread woken inside local_irq_save()/local_irq_restore() on
# its CPU: 'with' the patch (branch series: both series, the patch last) and
# 'without' it (series~1). Each boots under -icount shift=0 (a nanosecond is
# one guest instruction) in preempt=full and preempt=lazy, running the KUnit
# suites only; the probe's lines go into a table.
# Usage: irq-restore-latency.sh [OUTFILE]   (default build/latency/table.md)
. "$(dirname "$0")/../common.sh"
need_tree "$LINUX"
probe=$TOP/tests/probes/irq-restore-latency.patch
lone="powerpc/64: Do not check for a reschedule when nothing was replayed"
top=$(git -C "$LINUX" rev-parse --verify -q "$SERIES_BRANCH^{commit}") || die "latency: no branch $SERIES_BRANCH in $LINUX: run 'make apply'"
[ "$(git -C "$LINUX" log -1 --format=%s "$top")" = "$lone" ] ||
	die "latency: the last patch of $SERIES_BRANCH is not \"$lone\""
table=${1:-$BUILD/latency/table.md}
mkdir -p "$BUILD/latency" "$(dirname "$table")"
rows=$BUILD/latency/rows.tsv
: >"$rows"
for v in with without; do
	ref=$top
	[ "$v" = with ] || ref=$top~1
	# Laid out as build/linux and build/out/guest-le: ccache shares the objects.
	tree=$BUILD/latency/$v/linux out=$BUILD/latency/$v/out/guest-le
	worktree_at "$tree" "$ref"
	git -C "$tree" apply "$probe" || die "latency: the probe does not apply to $ref"
	OUT=$out "$TOP/scripts/build/build.sh" guest-le "$tree" >"$BUILD/latency/build-$v.log" 2>&1 ||
		{ tail -20 "$BUILD/latency/build-$v.log"; die "latency: the $v build failed (log: $BUILD/latency/build-$v.log)"; }
	for mode in full lazy; do
		name=latency-$v-$mode
		QEMU_ICOUNT=0 BOOT_TIMEOUT=900 OUT=$out NAME=$name \
			"$TOP/scripts/boot/boot.sh" guest-le "preempt=$mode" guest.run=kunit >"$BUILD/latency/$name.log" 2>&1 ||
			{ tail -20 "$BUILD/latency/$name.log"; die "latency: the $v boot on $mode failed (log: $BUILD/latency/$name.log)"; }
		n=0
		while read -r kind min med max; do
			printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$v" "$mode" "$kind" "$min" "$med" "$max" >>"$rows"
			n=$((n + 1))
		done < <(sed -nE 's/.*# [a-z_]+: latency ([a-z-]+): min ([0-9]+) median ([0-9]+) max ([0-9]+) ns.*/\1 \2 \3 \4/p' "$BUILD/logs/console-$name.log")
		[ "$n" = 2 ] || die "latency: $n probe lines, not 2, in $BUILD/logs/console-$name.log"
	done
done
{
	echo "# Wakeup latency from a local_irq_restore() region"
	echo
	echo "\`scripts/bench/irq-restore-latency.sh\`: guest-le (4 vCPUs, -icount shift=0: 1 ns = 1 guest"
	echo "instruction), 21 trials a row, the probe tests/probes/irq-restore-latency.patch;"
	echo "'with' = branch series at $(git -C "$LINUX" rev-parse --short "$top") (the patch last), 'without' = its parent."
	echo
	echo "| kernel | mode | after the restore | min ns | median ns | max ns |"
	echo "|---|---|---|---:|---:|---:|"
	sort -k3,3 -k2,2 -k1,1r "$rows" | awk -F'\t' '{ printf "| %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6 }'
} >"$table"
cat "$table"
