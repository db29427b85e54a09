#!/bin/bash
# Build vmlinux for one target out of tree, with ccache, under the build lock.
# Usage: build.sh TARGET [TREE]   (TREE: default $LINUX; OUT=dir overrides the
# output folder, default build/out/TARGET, or build/out/TARGET-<tree name> for
# another tree; GOALS="path/x.o ..." builds those instead of vmlinux).
. "$(dirname "$0")/../common.sh"

target=${1:?usage: build.sh TARGET [TREE]; targets: $(target_names)}
target_info "$target"
tree=${2:-$LINUX}
need_tree "$tree"
tree=$(cd "$tree" && pwd)
if [ -z "${OUT:-}" ]; then
	OUT=$BUILD/out/$target
	[ "$tree" = "$(cd "$LINUX" && pwd)" ] || OUT=$BUILD/out/$target-${tree##*/}
fi
OUT=$(mkdir -p "$OUT" && cd "$OUT" && pwd)	# make -C TREE: a relative O= would land in the tree
need ccache; need "${T_CC#ccache }"
[ -z "$T_LLVM" ] || export LLVM=$T_LLVM

# For the first compiler errors on lines that the tree changed since base, name
# the patch (commit of base..HEAD) that wrote the line.
blame_errors() {
	local tree=$1 log=$2 base file line sha k subject
	base=$(git -C "$tree" rev-parse -q --verify 'base^{commit}') || return 0
	grep -oE "^[^ :]+\.[chS]:[0-9]+(:[0-9]+)?: (fatal )?error" "$log" | cut -d: -f1,2 | awk '!seen[$0]++ && n++ < 5' |
		while IFS=: read -r file line; do
			file=${file#"$tree"/}
			[ -f "$tree/$file" ] || continue
			sha=$(git -C "$tree" blame --porcelain -L "$line,$line" base..HEAD -- "$file" 2>/dev/null | awk 'NR == 1 { print $1 }')
			if [ -z "$sha" ] || [ "$sha" = "$base" ]; then continue; fi
			k=$(git -C "$tree" rev-list --reverse base..HEAD | grep -n "^$sha" | cut -d: -f1)
			subject=$(git -C "$tree" log -1 --format=%s "$sha")
			echo "build: the error at $file:$line is on a line from patch $k of base..HEAD: $subject"
		done
}

build_lock
[ -n "${CCACHE_STATSLOG:-}" ] || ccache_stats_log "$OUT/ccache-stats.log"
"$TOP/scripts/build/config.sh" "$target" "$tree" "$OUT"
log=$OUT/build.log
# KEEP_GOING=1: make -k -Otarget, every error of the build, each target's
# output in one piece (wide-build.sh compares the errors of two builds).
# A config with modules (the test-full guests, for the torture suites) builds them too.
what=${GOALS:-vmlinux}
[ -n "${GOALS:-}" ] || ! grep -qx 'CONFIG_MODULES=y' "$OUT/.config" || what="vmlinux modules"
say "build: $target: make $what -j$JOBS ($(git -C "$tree" describe --always --tags 2>/dev/null) in $tree -> $OUT, log: $log)"
start=$SECONDS
read -r hits misses < <(ccache_counts)
# shellcheck disable=SC2086 # the make goals are words
if ! make -C "$tree" O="$OUT" ARCH="$T_ARCH" CROSS_COMPILE="$T_CROSS" CC="$T_CC" \
	-j"$JOBS" ${KEEP_GOING:+-k -Otarget} $what 2>&1 | tee "$log"; then
	echo "---- build: $target: the last compiler errors ----" >&2
	grep -E -A4 '(error|Error)[: ]|undefined reference|\*\*\*' "$log" | tail -n 40 >&2 || tail -n 40 "$log" >&2
	blame_errors "$tree" "$log" >&2 || true
	die "build: $target failed after $((SECONDS - start)) s (tree $tree, log $log)"
fi
if [ -n "${GOALS:-}" ]; then
	say "build: $target: $what ok in $((SECONDS - start)) s, $(ccache_since "$hits" "$misses")"
	exit 0
fi
[ -s "$OUT/vmlinux" ] || die "build: $target: make succeeded but $OUT/vmlinux is missing"
say "build: $target ok in $((SECONDS - start)) s, $(ccache_since "$hits" "$misses"): $OUT/vmlinux ($(du -h "$OUT/vmlinux" | cut -f1))"
