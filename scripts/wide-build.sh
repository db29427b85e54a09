#!/bin/bash
# One build of make check-wide, judged against the base: build TARGET with the
# series (branch 'series' of $LINUX); if that fails, build the same config on
# the unpatched base (work tree build/base-tree) to tell a failure the series
# brings (not ok) from one the base has too (not ok # TODO known base
# failure, never a pass). Prints KTAP. Builds vmlinux only (GOALS=vmlinux):
# the big configs' modules would take hours here.
# A randconfig target takes SEED= (each seed its own output folder), and a
# failure prints the command that rebuilds it.
# Usage: wide-build.sh TARGET   (SEED=0x... for randconfig targets)
. "$(dirname "$0")/common.sh"
target=${1:?usage: wide-build.sh TARGET}
target_info "$target"
need_tree "$LINUX"
name=$target${SEED:+-$SEED}
again="${SEED:+SEED=$SEED }scripts/wide-build.sh $target"
[ "$T_BASE" != randconfig ] || [ -n "${SEED:-}" ] || die "wide-build: $target is a randconfig target: give SEED="
export GOALS=vmlinux
mkdir -p "$BUILD/out"	# its log is written before build.sh makes it (cold machine)
echo "KTAP version 1"
echo "1..1"
start=$SECONDS
if OUT=$BUILD/out/wide-$name "$TOP/scripts/build.sh" "$target" "$LINUX" >"$BUILD/out/wide-$name.log" 2>&1; then
	echo "ok 1 $name # series: vmlinux in $((SECONDS - start)) s"
	exit 0
fi
sed -n '/---- build: .* the last compiler errors ----/,$p' "$BUILD/out/wide-$name.log" | sed 's/^/# /'
tail -n 5 "$BUILD/out/wide-$name.log" | sed 's/^/# /'
say "wide-build: $name fails with the series; building the base the same way"
worktree_at "$BUILD/base-tree" base
if OUT=$BUILD/out/wide-$name-base "$TOP/scripts/build.sh" "$target" "$BUILD/base-tree" >"$BUILD/out/wide-$name-base.log" 2>&1; then
	echo "not ok 1 $name # the series breaks it, the base builds (rebuild: $again)"
	exit 1
fi
echo "not ok 1 $name # TODO known base failure: the base fails too (log: $BUILD/out/wide-$name-base.log; rebuild: $again)"
exit 0	# the TODO line says it: never counted as passed
