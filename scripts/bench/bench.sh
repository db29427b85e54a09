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
# rcu twice more for the SCHED_OTHER round trip alone (minimal profile), its
# single loops compared on matched scheduler paths (ctxsw.md); writes
# results/<stamp id>/bench-<timestamp>/ (stamp.txt, raw logs, runs.tsv,
# table.md, trace.md, plot).
# BENCH_PROFILE=user (the default; issue 58, docs/user-profile.md): the same
# kernels configured as the user's (the user-le* targets, build/out/user-le-K),
# and rcu-only (Config B: the reference's tree, PREEMPT_DYNAMIC on); every
# boot runs guest.run=user-selinux first and user-selinux-end last (SELinux
# enforcing, audit's task,never rule) and scripts/bench/profile-check.sh judges
# each config and console before a figure is kept; the traces add stress-ng
# --kill 1 per bogo-op (BENCH_STRESS_OPS bogo-ops, at the guest's own process
# count and at BENCH_STRESS_PROCS), and user.md (scripts/bench/bench_user.py).
# BENCH_PROFILE=minimal: the bench-le kernels, the mechanism alone. BENCH_PROFILE=all:
# both, into RESULTS/user and RESULTS/minimal.
# Usage: bench.sh   (EXTRA=path, EXTRA_ON=base, BENCH_REPS=3, BENCH_GROUPS=1,2,4,
#        EXTRA_NAME=extra, BENCH_LOOPS=50, BENCH_SECS=3, BENCH_TRACE_LOOPS=2000,
#        BENCH_CTXSW_RUNS=1 (minimal: 3), BENCH_CTXSW_KERNELS="base rcu", RESULTS=dir,
#        BENCH_PROFILE=user|minimal|all, BENCH_STRESS_OPS=200, BENCH_STRESS_PROCS=300,
#        BENCH_STRESS_FIFO=1: stress-ng under SCHED_FIFO, guest/trace.c; 0: SCHED_OTHER)
#        BENCH_AUDIT_KERNELS="base rcu": the user profile's stress-ng traced again under audit=1, no rule
#        BENCH_PLAN=1: print the kernels, their targets, trees and builds, and stop.
#        BENCH_BUILT=1: no apply and no build: the kernels already built in
#        build/out (e.g. one of BENCH_KERNELS="base ...", a subset).
. "$(dirname "$0")/../common.sh"

need git; need python3; need gnuplot; need qemu-system-ppc64
t0=$SECONDS
stage() { say "bench [$(date +%H:%M:%S), +$(((SECONDS - t0) / 60))m$(((SECONDS - t0) % 60))s] $*"; }

profile=${BENCH_PROFILE:-user}
# Each profile's defaults, those of the README's runs: workloads repeated 3
# times, 2,000 and 4,000 loops traced; the SCHED_OTHER round trip traced in 3
# boots of base and rcu in the minimal profile, in one in the user's (whose
# kernels are slower to trace), compared on matched paths either way.
case $profile in
user) target=user-le d_reps=3 d_tloops=2000 d_cruns=1 ;;
minimal) target=bench-le d_reps=3 d_tloops=2000 d_cruns=3 ;;
all)
	# Each profile in a folder of its own, by this script: one after the other.
	if [ -n "${BENCH_PLAN:-}" ]; then
		for p in user minimal; do BENCH_PROFILE=$p "$0"; done
		exit 0
	fi
	stamp=$("$TOP/scripts/report/stamp.sh") || die "bench: cannot stamp the run (scripts/report/stamp.sh)"
	res=${RESULTS:-$TOP/results/$(sed -n 's/^# stamp: id //p' <<<"$stamp")/bench-$(date -u +%Y%m%dT%H%M%SZ)}
	mkdir -p "$res"
	printf '%s\n# profile: all (user/, minimal/)\n' "$stamp" >"$res/stamp.txt"
	for p in user minimal; do
		BENCH_PROFILE=$p RESULTS=$res/$p "$0" || die "bench: the $p profile failed (see above)"
	done
	exit 0 ;;
*) die "bench: BENCH_PROFILE=$profile: user, minimal or all" ;;
esac

kernels=(base patched)
[ -z "$SERIES_ON_TOP" ] || kernels+=(rcu)
# The build target of a kernel: the reference and the rcu kernel have their own
# config (in the user profile rcu-only too); EXTRA that of the kernel it
# applies to (EXTRA_ON).
target_of() {
	case $1 in
	reference | rcu) echo "$target-$1" ;;
	rcu-only)
		[ "$profile" = user ] || die "bench: rcu-only is the user profile's"
		echo "$target-$1" ;;
	base | patched) echo "$target" ;;
	"${xn:-}") target_of "$xon" ;;
	*) die "bench: no build target for kernel '$1'" ;;
	esac
}
# The work tree a kernel is built from: rcu-only from the reference's.
tree_of() {
	case $1 in
	rcu-only) echo "$BUILD/bench/reference" ;;
	*) echo "$BUILD/bench/$1" ;;
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
[ "$profile" != user ] || kernels+=(rcu-only)
if [ -n "${BENCH_KERNELS:-}" ]; then	# a subset, in the order above
	sub=()
	for k in "${kernels[@]}"; do [[ " $BENCH_KERNELS " != *" $k "* ]] || sub+=("$k"); done
	for k in $BENCH_KERNELS; do [[ " ${sub[*]} " == *" $k "* ]] || die "bench: BENCH_KERNELS: no kernel '$k' in this run (${kernels[*]})"; done
	kernels=("${sub[@]}")
fi
# The guest's scenarios around each boot's: the user profile's policy first, its check last.
pre='' post='' uargs=()
[ "$profile" != user ] || { pre=user-selinux, post=,user-selinux-end; }
# user-selinux's own loops in a bench boot: only to see the AVC count kill()
# and stress-ng (2,000 kill() calls, 1 s of stress-ng), not to measure them.
[ "$profile" != user ] || uargs=(user.kills=2000 user.secs=1)
if [ -n "${BENCH_PLAN:-}" ]; then
	for k in "${kernels[@]}"; do
		echo "bench plan: profile $profile: $k: target $(target_of "$k"), tree $(tree_of "$k"), build $BUILD/out/$target-$k, guest.run=${pre}bench-count${post}"
	done
	exit 0
fi
# The results go with the revision they ran on (scripts/report/stamp.sh).
stamp=$("$TOP/scripts/report/stamp.sh") || die "bench: cannot stamp the run (scripts/report/stamp.sh)"
res=${RESULTS:-$TOP/results/$(sed -n 's/^# stamp: id //p' <<<"$stamp")/bench-$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$res"
res=$(cd "$res" && pwd)
printf '%s\n# profile: %s (kernels: %s)\n' "$stamp" "$profile" "${kernels[*]}" >"$res/stamp.txt"
stage "results: $res (profile $profile, kernels: ${kernels[*]})"

if [ -n "${BENCH_BUILT:-}" ]; then
	for k in "${kernels[@]}"; do
		[ -s "$BUILD/out/$target-$k/vmlinux" ] || die "bench: BENCH_BUILT=1 but no $BUILD/out/$target-$k/vmlinux"
		stage "build: $k: BENCH_BUILT=1, the kernel in $BUILD/out/$target-$k as it is"
		src=$(readlink -f "$BUILD/out/$target-$k/source" 2>/dev/null || echo "$LINUX")
		{ git -C "$src" log --oneline base..HEAD; git -C "$src" describe --always --tags; } >"$res/commits-$k.txt" 2>&1 || true
		cp "$BUILD/out/$target-$k/.config" "$res/config-$k"
	done
else
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
	git -C "$(tree_of "$k")" log --oneline base..HEAD >"$res/commits-$k.txt"
	git -C "$(tree_of "$k")" describe --always --tags >>"$res/commits-$k.txt"
done

# ---- builds, one at a time, through build.sh (the build lock).
for k in "${kernels[@]}"; do
	stage "build: $k (scripts/build/build.sh $(target_of "$k"); cold builds take ~10 min each)"
	OUT=$BUILD/out/$target-$k "$TOP/scripts/build/build.sh" "$(target_of "$k")" "$(tree_of "$k")" >"$res/build-$k.log" 2>&1 ||
		{ tail -n 30 "$res/build-$k.log" >&2; die "bench: the $k kernel does not build (log: $res/build-$k.log)"; }
	cp "$BUILD/out/$target-$k/.config" "$res/config-$k"
done

exec 9>&-	# the build lock: the boots need none
unset BUILD_LOCK_HELD
fi
# The user profile: each config must be the profile's, before any boot.
if [ "$profile" = user ]; then
	for k in "${kernels[@]}"; do
		"$TOP/scripts/bench/profile-check.sh" -t "$(target_of "$k")" "$res/config-$k" >"$res/profile-$k.txt" 2>&1 ||
			{ cat "$res/profile-$k.txt" >&2; die "bench: the $k kernel's config is not the user profile's ($res/profile-$k.txt)"; }
	done
fi

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
	if ! OUT=$BUILD/out/$target-$k NAME=$name "$TOP/scripts/boot/boot.sh" "$target" "$@" "${uargs[@]}" >"$res/judge-$name.txt" 2>&1; then
		cp "$BUILD/logs/console-$name.log" "$res/" 2>/dev/null || true
		cat "$res/judge-$name.txt" >&2
		die "bench: the $k kernel failed its boot $name (console: $res/console-$name.log)"
	fi
	cp "$BUILD/logs/console-$name.log" "$res/"
	# The user profile: SELinux enforcing from before the first loop to after the last.
	[ "$profile" != user ] ||
		"$TOP/scripts/bench/profile-check.sh" -t "$(target_of "$k")" -b "$res/config-$k" "$res/console-$name.log" >>"$res/profile-$k.txt" 2>&1 ||
		{ tail -n 12 "$res/profile-$k.txt" >&2; die "bench: boot $name of $k: not enforcing as the user profile asks ($res/profile-$k.txt)"; }
}
reps=${BENCH_REPS:-$d_reps}
args=("bench.reps=$reps" "bench.groups=${BENCH_GROUPS:-1,2,4}" "bench.loops=${BENCH_LOOPS:-50}"
	"bench.secs=${BENCH_SECS:-3}")
for k in "${kernels[@]}"; do
	for run in 1 2; do
		what=bench-count
		[ $run = 1 ] || what=bench-count,bench-load
		stage "boot: $k, run $run: $what (emulated, 1 vCPU)"
		bench_boot "$k" "bench-$k-$run" "guest.run=$pre$what$post" "${args[@]}"
	done
done

# ---- the instruction counts: the loops of bench-count in QEMU's execution log,
# N and 2N times; the logs (~1 GB per kernel) are deleted once counted.
tloops=${BENCH_TRACE_LOOPS:-$d_tloops}
# The user profile: stress-ng --kill 1 too, per bogo-op (guest/trace.c).
targs=()
[[ ${BENCH_STRESS_PROCS:-300} =~ ^[1-9][0-9]*$ && ${BENCH_STRESS_OPS:-200} =~ ^[1-9][0-9]*$ ]] ||
	die "bench: BENCH_STRESS_PROCS and BENCH_STRESS_OPS are whole numbers without a leading 0"
[ "$profile" != user ] || targs=("bench.stress_ops=${BENCH_STRESS_OPS:-200}" "bench.stress_procs=${BENCH_STRESS_PROCS:-300}"
	"bench.stress_fifo=${BENCH_STRESS_FIFO:-1}")
# trace K NAME DIR ARGS...: one traced boot of kernel K, counted into $res/DIR.
trace() {
	local k=$1 name=$2 dir=$3 tr=$BUILD/trace/$2
	shift 3
	# Once in many runs QEMU runs a block it never listed (bench_trace.py
	# refuses the count): trace that kernel again, once.
	for try in 1 2; do
		TRACE=$tr bench_boot "$k" "$name" "guest.run=${pre}bench-trace$post" "$@"
		python3 "$TOP/scripts/bench/bench_trace.py" count "$tr" "${T_CROSS}nm" "$BUILD/out/$target-$k/vmlinux" && break
		[ "$try" = 1 ] || die "bench: counting the $name trace failed twice ($tr)"
		stage "trace: $name: the count failed (above): tracing again"
		rm -f "$tr"/exec-*.log
	done
	mkdir -p "$res/$dir"
	cp "$tr"/functions-*.tsv "$tr/windows.tsv" "$res/$dir/"
	cp "$tr"/single-*.tsv "$tr"/paths-*.tsv "$res/$dir/" 2>/dev/null || true	# none from a guest without loop marks
	rm -f "$tr"/exec-*.log
}
for k in "${kernels[@]}"; do
	stage "trace: $k: bench-count's loops, $tloops and $((2 * tloops)) times, in QEMU's execution log"
	trace "$k" "trace-$k" "trace-$k" "bench.trace_loops=$tloops" "${targs[@]}"
done
# The SCHED_OTHER round trip moves with the fair scheduler's state from boot
# to boot: traced again in boots of its own (BENCH_CTXSW_RUNS in all, with
# the one above), for the kernels of BENCH_CTXSW_KERNELS, into repeat-K-R/.
cruns=${BENCH_CTXSW_RUNS:-$d_cruns}
for k in ${BENCH_CTXSW_KERNELS:-base rcu}; do
	[[ " ${kernels[*]} " == *" $k "* ]] || continue
	for ((r = 2; r <= cruns; r++)); do
		stage "trace: $k: the SCHED_OTHER round trip alone, run $r of $cruns"
		trace "$k" "trace-$k-ctxsw-$r" "repeat-$k-$r" "bench.trace_loops=$tloops" bench.trace_only=ctxsw
	done
done
# The user profile: audit's second state, audit=1 with no rule (every task
# has an audit context): stress-ng alone, for the kernels of
# BENCH_AUDIT_KERNELS (default base rcu; empty: none), into audit1-K/.
if [ "$profile" = user ]; then
	for k in ${BENCH_AUDIT_KERNELS-base rcu}; do
		[[ " ${kernels[*]} " == *" $k "* ]] || continue
		stage "trace: $k: stress-ng --kill 1 under audit=1 with no rule (audit's second state)"
		trace "$k" "trace-$k-audit1" "audit1-$k" "bench.trace_loops=$tloops" "${targs[@]}" \
			"bench.trace_only=stress-kill,stress-kill-${BENCH_STRESS_PROCS:-300}" audit=1
		grep -q 'SELINUX audit=on-no-rules enabled=1 ' "$res/console-trace-$k-audit1.log" ||
			die "bench: trace-$k-audit1: audit is not in the audit=1, no-rule state ($res/console-trace-$k-audit1.log)"
	done
fi
# compare A B: A against B in trace.md, when the run has both (BENCH_KERNELS).
compare() {
	[ -d "$res/trace-$1" ] && [ -d "$res/trace-$2" ] || return 0
	python3 "$TOP/scripts/bench/bench_trace.py" compare "$1" "$res/trace-$1" "$2" "$res/trace-$2" >>"$res/trace.md"
}
: >"$res/trace.md"
# First where the base's overhead over the reference goes (the user profile:
# PREEMPT_RCU alone, then the preemption mode), then each kernel against base.
if [ "$profile" = user ]; then
	compare reference rcu-only
	compare rcu-only base
else
	compare reference base
fi
# EXTRA against the kernel it applies to.
for k in "${kernels[@]}"; do
	case $k in reference | rcu-only | base) continue ;; esac
	on=base
	[ "$k" != "${xn:-}" ] || on=$xon
	compare "$on" "$k"
done
# And what is left with both series: reference against rcu.
[ -z "$SERIES_ON_TOP" ] || compare reference rcu
# The SCHED_OTHER round trip on matched paths: the single loops of the two
# kernels of BENCH_CTXSW_KERNELS, over all their boots, filed by the
# scheduler path each took (bench_trace.py paths), into ctxsw.md.
read -ra ck <<<"${BENCH_CTXSW_KERNELS:-base rcu}"
if [ ${#ck[@]} = 2 ] && [ -d "$res/trace-${ck[0]}" ] && [ -d "$res/trace-${ck[1]}" ]; then
	boots() { local d=$res/trace-$1 r; for ((r = 2; r <= cruns; r++)); do d+=",$res/repeat-$1-$r"; done; echo "$d"; }
	python3 "$TOP/scripts/bench/bench_trace.py" paths ctxsw "${ck[0]}" "$(boots "${ck[0]}")" "${ck[1]}" "$(boots "${ck[1]}")" \
		>"$res/ctxsw.md" || die "bench: the matched-path report of ctxsw failed"
else
	say "bench: no ctxsw.md: BENCH_CTXSW_KERNELS='${ck[*]}' names no two traced kernels"
fi
# The user profile: stress-ng per bogo-op, the report's functions, the costly
# instructions, what PREEMPT_DYNAMIC switches (issue 58, parts 3, 5, 6, 7).
if [ "$profile" = user ]; then
	stage "report: $res/user.md"
	python3 "$TOP/scripts/bench/bench_user.py" "$res" >"$res/user.md" || die "bench: the user report failed (scripts/bench/bench_user.py)"
fi

stage "report: $res/table.md"
python3 "$TOP/scripts/bench/bench_report.py" "$res" || die "bench: the report failed"
stage "done: $res/table.md, $res/trace.md, $res/ctxsw.md, $res/plot.png$([ "$profile" != user ] || echo ", $res/user.md, $res/user.png")"
cat "$res/table.md" 2>/dev/null || true	# none from a run of one kernel (BENCH_KERNELS)
[ "$profile" != user ] || cat "$res/user.md"
