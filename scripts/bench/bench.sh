#!/bin/bash
# make bench: base vs patched vs rcu (and EXTRA) vs the pre-7.0 reference, under
# QEMU pseries power10 LE. Builds the bench-le kernel from tag base (work tree
# build/bench/base), from the series (build/bench/patched, at branch
# 'series-preempt' after scripts/setup/apply.sh), from both series (build/bench/rcu,
# at branch 'series', configured bench-le-rcu: the second series' option on),
# with EXTRA=path (a directory of patches or an mbox) from that applied to
# base, or to the kernel EXTRA_ON= names (patched or rcu: an experiment on top
# of a series, built with that kernel's config; build/bench/NAME, NAME from
# EXTRA_NAME=, default extra), and the reference: base with
# kernel/bench/'s patch, configured bench-le-reference (voluntary preemption,
# no PREEMPT_RCU: how ppc64 ran before 7.0; build/bench/reference); reports the static figures of each vmlinux
# (scripts/bench/bench_static.py); boots each twice on 1 vCPU (scripts/boot/boot.sh):
# once for the instruction counts, once for the counts again and the
# workloads; boots each once more under QEMU's execution log for the exact
# instruction counts by function (scripts/bench/bench_trace.py), and base and
# rcu twice more for the SCHED_OTHER round trip alone (its repeatability); writes
# results/<stamp id>/bench-<timestamp>/ (stamp.txt, raw logs, runs.tsv,
# table.md, trace.md, plot).
# Usage: bench.sh   (EXTRA=path, EXTRA_ON=base, BENCH_REPS=5, BENCH_GROUPS=1,2,4,
#        EXTRA_NAME=extra, BENCH_LOOPS=50, BENCH_SECS=3, BENCH_TRACE_LOOPS=4000,
#        BENCH_CTXSW_RUNS=3, BENCH_CTXSW_KERNELS="base rcu", RESULTS=dir)
. "$(dirname "$0")/../common.sh"

need git; need python3; need gnuplot; need qemu-system-ppc64
target=bench-le
t0=$SECONDS
stage() { say "bench [$(date +%H:%M:%S), +$(((SECONDS - t0) / 60))m$(((SECONDS - t0) % 60))s] $*"; }

kernels=(base patched)
[ -z "$SERIES_ON_TOP" ] || kernels+=(rcu)
# The build target of a kernel: the reference and the rcu kernel have their own
# config; EXTRA that of the kernel it applies to (EXTRA_ON).
target_of() {
	case $1 in
	reference | rcu) echo "bench-le-$1" ;;
	base | patched) echo "$target" ;;
	"${xn:-}") target_of "$xon" ;;
	*) die "bench: no build target for kernel '$1'" ;;
	esac
}
xon=${EXTRA_ON:-base}
[ -z "${EXTRA_ON:-}" ] || [ -n "${EXTRA:-}" ] || die "bench: EXTRA_ON=$EXTRA_ON without EXTRA= (the patches to apply onto it)"
if [ -n "${EXTRA:-}" ]; then
	[ -e "$EXTRA" ] || die "bench: EXTRA=$EXTRA: no such file or directory"
	EXTRA=$(realpath "$EXTRA")
	xn=${EXTRA_NAME:-extra}
	[[ $xn =~ ^[a-z][a-z0-9-]*$ && $xn != base && $xn != patched && $xn != rcu && $xn != reference ]] ||
		die "bench: EXTRA_NAME=$xn: one lower-case word other than base, patched, rcu, reference"
	case $xon in
	base | patched) ;;
	rcu) [ -n "$SERIES_ON_TOP" ] || die "bench: EXTRA_ON=rcu needs the second series (SERIES_ON_TOP is empty)" ;;
	*) die "bench: EXTRA_ON=$xon: base, patched or rcu" ;;
	esac
	kernels+=("$xn")
fi
kernels+=(reference)
# The results go with the revision they ran on (scripts/report/stamp.sh).
stamp=$("$TOP/scripts/report/stamp.sh") || die "bench: cannot stamp the run (scripts/report/stamp.sh)"
res=${RESULTS:-$TOP/results/$(sed -n 's/^# stamp: id //p' <<<"$stamp")/bench-$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$res"
res=$(cd "$res" && pwd)
echo "$stamp" >"$res/stamp.txt"
stage "results: $res (kernels: ${kernels[*]})"

# ---- the trees: each a detached work tree of build/linux (worktree_at).
# The build lock from the apply to the last build: others' builds wait once,
# not between each of ours (the children see BUILD_LOCK_HELD).
stage "lock: waiting for other kernel builds, if any"
build_lock
stage "apply: the series onto base (scripts/setup/apply.sh)"
"$TOP/scripts/setup/apply.sh"
need_tree "$LINUX"
mkdir -p "$BUILD/bench"
worktree_at "$BUILD/bench/base" base
# The commits just applied, under the lock: another apply may move the branches later.
worktree_at "$BUILD/bench/patched" "$(first_series_commit)"
[ -z "$SERIES_ON_TOP" ] || worktree_at "$BUILD/bench/rcu" "$(git -C "$LINUX" rev-parse "$SERIES_BRANCH")"
if [ -n "${EXTRA:-}" ]; then
	stage "apply: EXTRA=$EXTRA onto $xon"
	onto=$(git -C "$BUILD/bench/$xon" rev-parse HEAD)
	worktree_at "$BUILD/bench/$xn" "$onto"
	dir=$EXTRA
	if [ -f "$EXTRA" ]; then	# an mbox or a single patch: git am takes either
		dir=$BUILD/bench/$xn-series
		rm -rf "$dir" && mkdir -p "$dir"
		ln -s "$EXTRA" "$dir/0001-extra.patch"
	fi
	ls "$dir"/[0-9]*.patch >/dev/null 2>&1 || die "bench: EXTRA=$EXTRA holds no NNNN-*.patch files"
	LINUX=$BUILD/bench/$xn SERIES=$dir SERIES_ON_TOP='' SERIES_BRANCH=bench-$xn APPLY_ONTO=$onto \
		"$TOP/scripts/setup/apply.sh" || die "bench: EXTRA=$EXTRA does not apply to $xon (see above)"
fi
stage "apply: the reference kernel's patch (kernel/bench/) onto base"
worktree_at "$BUILD/bench/reference" base
LINUX=$BUILD/bench/reference SERIES=$TOP/kernel/bench SERIES_ON_TOP='' SERIES_BRANCH=bench-reference "$TOP/scripts/setup/apply.sh" ||
	die "bench: kernel/bench/'s patch does not apply to base (see above)"
for k in "${kernels[@]}"; do
	git -C "$BUILD/bench/$k" log --oneline base..HEAD >"$res/commits-$k.txt"
	git -C "$BUILD/bench/$k" describe --always --tags >>"$res/commits-$k.txt"
done

# ---- builds, one at a time, through build.sh (the build lock).
for k in "${kernels[@]}"; do
	stage "build: $k (scripts/build/build.sh $(target_of "$k"); cold builds take ~10 min each)"
	OUT=$BUILD/out/$target-$k "$TOP/scripts/build/build.sh" "$(target_of "$k")" "$BUILD/bench/$k" >"$res/build-$k.log" 2>&1 ||
		{ tail -n 30 "$res/build-$k.log" >&2; die "bench: the $k kernel does not build (log: $res/build-$k.log)"; }
	cp "$BUILD/out/$target-$k/.config" "$res/config-$k"
done

exec 9>&-	# the build lock: the boots need none
unset BUILD_LOCK_HELD

# ---- the static figures of each vmlinux.
target_info "$target"
for k in "${kernels[@]}"; do
	stage "static: $k (objdump, preempt-count sites, fast paths, read-side sections)"
	rcu=()	# the second series' word, for the sections of its inline readers
	off=$(rcu_word_offset "$BUILD/out/$target-$k")
	[ -z "$off" ] || rcu=(--rcu-offset "$off")
	python3 "$TOP/scripts/bench/bench_static.py" --cross "$T_CROSS" --name "$k" "${rcu[@]}" \
		"$BUILD/out/$target-$k" >"$res/static-$k.txt" || die "bench: static report of $k failed ($res/static-$k.txt)"
done

# ---- the boots: counts alone, then counts and the workloads.
# bench_boot KERNEL NAME ARGS...: one boot, its console and judgement kept in $res.
bench_boot() {
	local k=$1 name=$2
	shift 2
	# The host's load: the timings are emulated, other work on the host moves them.
	echo "$name: $(date -u +%H:%M:%S) $(cut -d' ' -f1-3 /proc/loadavg)" >>"$res/host-load.txt"
	if ! OUT=$BUILD/out/$target-$k NAME=$name "$TOP/scripts/boot/boot.sh" "$target" "$@" >"$res/judge-$name.txt" 2>&1; then
		cp "$BUILD/logs/console-$name.log" "$res/" 2>/dev/null || true
		cat "$res/judge-$name.txt" >&2
		die "bench: the $k kernel failed its boot $name (console: $res/console-$name.log)"
	fi
	cp "$BUILD/logs/console-$name.log" "$res/"
}
reps=${BENCH_REPS:-5}
args=("bench.reps=$reps" "bench.groups=${BENCH_GROUPS:-1,2,4}" "bench.loops=${BENCH_LOOPS:-50}"
	"bench.secs=${BENCH_SECS:-3}")
for k in "${kernels[@]}"; do
	for run in 1 2; do
		what=bench-count
		[ $run = 1 ] || what=bench-count,bench-load
		stage "boot: $k, run $run: $what (emulated, 1 vCPU)"
		bench_boot "$k" "bench-$k-$run" "guest.run=$what" "${args[@]}"
	done
done

# ---- the instruction counts: the loops of bench-count in QEMU's execution log,
# N and 2N times; the logs (~1 GB per kernel) are deleted once counted.
tloops=${BENCH_TRACE_LOOPS:-4000}
# trace K NAME DIR ARGS...: one traced boot of kernel K, counted into $res/DIR.
trace() {
	local k=$1 name=$2 dir=$3 tr=$BUILD/trace/$2
	shift 3
	# Once in many runs QEMU runs a block it never listed (bench_trace.py
	# refuses the count): trace that kernel again, once.
	for try in 1 2; do
		TRACE=$tr bench_boot "$k" "$name" guest.run=bench-trace "$@"
		python3 "$TOP/scripts/bench/bench_trace.py" count "$tr" "${T_CROSS}nm" "$BUILD/out/$target-$k/vmlinux" && break
		[ "$try" = 1 ] || die "bench: counting the $name trace failed twice ($tr)"
		stage "trace: $name: the count failed (above): tracing again"
		rm -f "$tr"/exec-*.log
	done
	mkdir -p "$res/$dir"
	cp "$tr"/functions-*.tsv "$tr/windows.tsv" "$res/$dir/"
	cp "$tr"/single-*.tsv "$res/$dir/" 2>/dev/null || true	# none from a guest without loop marks
	rm -f "$tr"/exec-*.log
}
for k in "${kernels[@]}"; do
	stage "trace: $k: bench-count's loops, $tloops and $((2 * tloops)) times, in QEMU's execution log"
	trace "$k" "trace-$k" "trace-$k" "bench.trace_loops=$tloops"
done
# The SCHED_OTHER round trip moves with the fair scheduler's state from boot
# to boot: traced again in boots of its own (BENCH_CTXSW_RUNS in all, with
# the one above), for the kernels of BENCH_CTXSW_KERNELS, into repeat-K-R/.
cruns=${BENCH_CTXSW_RUNS:-3}
for k in ${BENCH_CTXSW_KERNELS:-base rcu}; do
	[[ " ${kernels[*]} " == *" $k "* ]] || continue
	for ((r = 2; r <= cruns; r++)); do
		stage "trace: $k: the SCHED_OTHER round trip alone, run $r of $cruns"
		trace "$k" "trace-$k-ctxsw-$r" "repeat-$k-$r" "bench.trace_loops=$tloops" bench.trace_only=ctxsw
	done
done
# First where the base's overhead over the reference goes, then each kernel against base.
python3 "$TOP/scripts/bench/bench_trace.py" compare reference "$res/trace-reference" base "$res/trace-base" >"$res/trace.md"
# EXTRA against the kernel it applies to.
for k in "${kernels[@]:1}"; do
	[ "$k" != reference ] || continue
	on=base
	[ "$k" != "${xn:-}" ] || on=$xon
	python3 "$TOP/scripts/bench/bench_trace.py" compare "$on" "$res/trace-$on" "$k" "$res/trace-$k" >>"$res/trace.md"
done
# And what is left with both series: reference against rcu.
[ -z "$SERIES_ON_TOP" ] ||
	python3 "$TOP/scripts/bench/bench_trace.py" compare reference "$res/trace-reference" rcu "$res/trace-rcu" >>"$res/trace.md"

stage "report: $res/table.md"
python3 "$TOP/scripts/bench/bench_report.py" "$res" || die "bench: the report failed"
stage "done: $res/table.md, $res/trace.md, $res/plot.svg, $res/plot.png"
cat "$res/table.md"
