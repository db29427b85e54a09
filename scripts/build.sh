#!/bin/bash
# Build vmlinux for one target out of tree, with ccache, under the build lock.
# Usage: build.sh TARGET [TREE]   (TREE: default $LINUX; OUT=dir overrides the
# output folder, default build/out/TARGET, or build/out/TARGET-<tree name> for
# another tree).
. "$(dirname "$0")/common.sh"

target=${1:?usage: build.sh TARGET [TREE]; targets: $(target_names)}
target_info "$target"
tree=${2:-$LINUX}
need_tree "$tree"
tree=$(cd "$tree" && pwd)
if [ -z "${OUT:-}" ]; then
	OUT=$BUILD/out/$target
	[ "$tree" = "$(cd "$LINUX" && pwd)" ] || OUT=$BUILD/out/$target-${tree##*/}
fi
need ccache; need "${T_CROSS}gcc"

build_lock
"$TOP/scripts/config.sh" "$target" "$tree" "$OUT"
log=$OUT/build.log
say "build: $target: make vmlinux -j$JOBS ($(git -C "$tree" describe --always --tags 2>/dev/null) in $tree -> $OUT, log: $log)"
start=$SECONDS
if ! make -C "$tree" O="$OUT" ARCH="$T_ARCH" CROSS_COMPILE="$T_CROSS" CC="ccache ${T_CROSS}gcc" \
	-j"$JOBS" vmlinux 2>&1 | tee "$log"; then
	echo "---- build: $target: the last compiler errors ----" >&2
	grep -E -A4 '(error|Error)[: ]|undefined reference|\*\*\*' "$log" | tail -n 40 >&2 || tail -n 40 "$log" >&2
	die "build: $target failed after $((SECONDS - start)) s (tree $tree, log $log)"
fi
[ -s "$OUT/vmlinux" ] || die "build: $target: make succeeded but $OUT/vmlinux is missing"
say "build: $target ok in $((SECONDS - start)) s: $OUT/vmlinux ($(du -h "$OUT/vmlinux" | cut -f1))"
