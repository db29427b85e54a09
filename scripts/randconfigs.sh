#!/bin/bash
# make check-wide's randconfigs: N seeds (default 3) of one randconfig target,
# each built with the series by scripts/wide-build.sh (the base only when the
# series fails). The seeds are the first N of kernel/randconfig-seeds, then
# seeds derived from N, so a run is the same everywhere; each result names its
# seed and the command that rebuilds it. Prints KTAP, one result per seed.
# Usage: randconfigs.sh TARGET   (N=count)
. "$(dirname "$0")/common.sh"
target=${1:?usage: randconfigs.sh TARGET}
n=${N:-3}
[[ $n =~ ^[1-9][0-9]*$ ]] || die "randconfigs: N=$n: a count of seeds"
mapfile -t seeds < <(grep -oE '^0x[0-9a-f]+' "$TOP/kernel/randconfig-seeds")
for ((i = ${#seeds[@]}; i < n; i++)); do
	seeds+=("$(printf '0x%08x' $(((i + 1) * 2654435761 % 4294967296)))")
done
mkdir -p "$BUILD/out"
echo "KTAP version 1"
echo "1..$n"
bad=0
for ((i = 0; i < n; i++)); do
	seed=${seeds[i]}
	f=$BUILD/out/wide-$target-$seed.ktap
	SEED=$seed "$TOP/scripts/wide-build.sh" "$target" >"$f" 2>&1 || true
	line=$(grep -E '^(not )?ok 1 ' "$f" || echo "not ok 1 $target-$seed # no result (see $f; rebuild: SEED=$seed scripts/wide-build.sh $target)")
	sed -E "s/^(not )?ok 1 /\1ok $((i + 1)) /" <<<"$line"
	case $line in *"# TODO"*) ;; "not ok"*) bad=1 ;; esac
done
exit $bad
