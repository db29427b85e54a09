#!/bin/bash
# One build of make check-wide, judged against the base: build TARGET with the
# series (branch 'series' of $LINUX); if make fails, build the series' .config
# on the unpatched base (work tree build/base-tree) to tell a failure the series
# brings (not ok) from one the base has too, with the same errors
# (scripts/build/build-errors.sh: not ok # TODO known base failure, never a pass).
# A config failure is a plain not ok. Prints KTAP. Builds vmlinux only (GOALS=vmlinux):
# the big configs' modules would take hours here.
# A randconfig target takes SEED= (each seed its own output folder), and a
# failure prints the command that rebuilds it.
# Usage: wide-build.sh TARGET   (SEED=0x... for randconfig targets)
. "$(dirname "$0")/../common.sh"
target=${1:?usage: wide-build.sh TARGET}
target_info "$target"
need_tree "$LINUX"
name=$target${SEED:+-$SEED}
again="${PROBABILITY:+PROBABILITY=$PROBABILITY }${SEED:+SEED=$SEED }scripts/build/wide-build.sh $target"
[ "$T_BASE" != randconfig ] || [ -n "${SEED:-}" ] || die "wide-build: $target is a randconfig target: give SEED="
export GOALS=vmlinux
out=$BUILD/out/wide-$name
log=$out.log
mkdir -p "$BUILD/out"	# the log is written before build.sh makes it (cold machine)
rm -f "$out/vmlinux" "$out/.config" "$out/olddefconfig.diff"	# nothing of an older run: no kernel to disasm or boot, no config to check or diff
# Only a failure of make itself is compared with the base: a config or download
# failure is the harness's, and a plain not ok.
errors='---- build: .* the last compiler errors ----'	# build.sh's, once make has failed
made_and_failed() { grep -q -- "$errors" "$1"; }
echo "KTAP version 1"
echo "1..1"
start=$SECONDS
# make -k: should it fail, every error, for the comparison with the base below.
built=0
KEEP_GOING=1 OUT=$out "$TOP/scripts/build/build.sh" "$target" "$LINUX" >"$log" 2>&1 && built=1
# The distro config: what olddefconfig changed in Debian's config (config.sh's
# diff), the settings in full, the options it adds as unset counted.
if [ "$T_BASE" = distro ] && [ -f "$out/olddefconfig.diff" ]; then
	d=$out/olddefconfig.diff
	echo "# olddefconfig changed Debian's config: $(grep -c '^<' "$d") line(s) out, $(grep -c '^>' "$d") in ('<' Debian's, '>' ours; $(grep -c '^> # CONFIG_.* is not set' "$d") of them 'is not set' lines, not listed; an option Debian had on shows by its '<' line):"
	{ grep -v '^> # CONFIG_.* is not set' "$d" || true; } | sed 's/^/#   /'
fi
if [ $built = 1 ]; then
	echo "ok 1 $name # series: vmlinux in $((SECONDS - start)) s"
	exit 0
fi
sed -n "/$errors/,\$p" "$log" | sed 's/^/# /'
tail -n 5 "$log" | sed 's/^/# /'
if ! made_and_failed "$log"; then
	echo "not ok 1 $name # no build: its config step failed (log: $log; rebuild: $again)"
	exit 1
fi
# The base from the series' own .config: a randconfig seed draws another config
# from the base's Kconfig, which lacks the series' symbols.
say "wide-build: $name fails with the series; building the base from the same .config"
worktree_at "$BUILD/base-tree" base
if KEEP_GOING=1 CONFIG_FROM=$out/.config OUT=$out-base "$TOP/scripts/build/build.sh" "$target" "$BUILD/base-tree" >"$out-base.log" 2>&1; then
	echo "not ok 1 $name # the series breaks it, the base builds (rebuild: $again)"
	exit 1
fi
if ! made_and_failed "$out-base.log"; then
	echo "not ok 1 $name # the series fails; the base could not be configured to compare (log: $out-base.log; rebuild: $again)"
	exit 1
fi
# Known only if the base fails the same way: every error of the series' build
# is one of the base's (the series could fail for a reason of its own first).
errs="$TOP/scripts/build/build-errors.sh"
mine=$("$errs" "$out/build.log" "$LINUX" "$out")
[ -n "$mine" ] || { echo "not ok 1 $name # the series fails, with no error line to compare with the base's (log: $out/build.log; rebuild: $again)"; exit 1; }
new=$(LC_ALL=C comm -23 <(printf '%s\n' "$mine") <("$errs" "$out-base/build.log" "$BUILD/base-tree" "$out-base"))
if [ -n "$new" ]; then
	sed 's/^/# only with the series: /' <<<"$new"
	echo "not ok 1 $name # the base fails too, but the series has errors the base does not (above; rebuild: $again)"
	exit 1
fi
echo "not ok 1 $name # TODO known base failure: the base fails the same way (log: $out-base.log; rebuild: $again)"
exit 0	# the TODO line says it: never counted as passed
