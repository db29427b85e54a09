#!/bin/bash
# make check-wide's randconfigs: N seeds (default 3) of one randconfig target,
# each built with the series by scripts/build/wide-build.sh (the base only when the
# series fails), then sparse and W=1 on its touched objects against the base
# (scripts/check/sparse.sh). The seeds are the first N of kernel/randconfig-seeds,
# then seeds derived from N, so a run is the same everywhere; each result names
# its seed and the command that reruns it, and each seed's config's main
# options follow (scripts/build/config-summary.sh). Prints KTAP, two results a seed.
# With INDEX, only the INDEX-th seed (N not read): make check-wide has one
# check a seed, so that a run cut off at a session's end loses one seed at most.
# Usage: randconfigs.sh TARGET [INDEX]   (N=count: the first N seeds)
. "$(dirname "$0")/../common.sh"
target=${1:?usage: randconfigs.sh TARGET [INDEX]}
n=${N:-3}
[[ $n =~ ^[1-9][0-9]*$ ]] || die "randconfigs: N=$n: a count of seeds"
first=0
if [ -n "${2:-}" ]; then
	[[ $2 =~ ^[1-9][0-9]*$ ]] || die "randconfigs: INDEX=$2: a seed's number, from 1"
	first=$(($2 - 1)) n=$2
fi
mapfile -t seeds < <(grep -oE '^0x[0-9a-f]+' "$TOP/kernel/randconfig-seeds")
for ((i = ${#seeds[@]}; i < n; i++)); do
	seeds+=("$(printf '0x%08x' $(((i + 1) * 2654435761 % 4294967296)))")
done
mkdir -p "$BUILD/out"
echo "KTAP version 1"
echo "1..$((2 * (n - first)))"
bad=0
for ((i = first; i < n; i++)); do
	seed=${seeds[i]}
	out=$BUILD/out/wide-$target-$seed
	f=$out.ktap
	SEED=$seed "$TOP/scripts/build/wide-build.sh" "$target" >"$f" 2>&1 || true
	line=$(grep -E '^(not )?ok 1 ' "$f" || echo "not ok 1 $target-$seed # no result (see $f; rebuild: SEED=$seed scripts/build/wide-build.sh $target)")
	sed -E "s/^(not )?ok 1 /\1ok $((2 * (i - first) + 1)) /" <<<"$line"
	# What the seed built: its option count and main options.
	[ ! -f "$out/.config" ] || "$TOP/scripts/build/config-summary.sh" "$out" || true
	case $line in *"# TODO"*) ;; "not ok"*) bad=1 ;; esac
	# sparse and W=1 on the touched objects the seed's config builds, against
	# the base from the same .config (as the robot's sparse reports do).
	k=$((2 * (i - first) + 2))
	how=(SEED="$seed" SPARSE_PLAN=make-n OUT="$out" SPARSE_TARGET="$target")
	again="${PROBABILITY:+PROBABILITY=$PROBABILITY }${how[*]} scripts/check/sparse.sh"
	if [ ! -f "$out/.config" ]; then
		echo "not ok $k $target-$seed-sparse # no .config to check (see $f)"
		bad=1
	elif env "${how[@]}" "$TOP/scripts/check/sparse.sh" >"$out-sparse.log" 2>&1; then
		if grep -q 'nothing to check' "$out-sparse.log"; then
			echo "ok $k $target-$seed-sparse # SKIP $(grep -oE 'sparse: .*nothing to check' "$out-sparse.log" | tail -n 1)"
		else
			echo "ok $k $target-$seed-sparse # $(grep -oE '[0-9]+ objects: .*' "$out-sparse.log" | tail -n 1)"
		fi
	elif [[ $line == *"# TODO"* ]] && grep -q 'do not compile' "$out-sparse.log"; then
		# A known base failure in a touched object: the base fails the same way.
		echo "not ok $k $target-$seed-sparse # TODO the objects do not compile: the seed is a known base failure (log: $out-sparse.log)"
	else
		tail -n 5 "$out-sparse.log" | sed 's/^/# /'
		echo "not ok $k $target-$seed-sparse # new sparse or W=1 diagnostics, or no check (log: $out-sparse.log; rerun: $again)"
		bad=1
	fi
done
exit $bad
