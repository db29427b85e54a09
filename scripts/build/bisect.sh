#!/bin/bash
# Bisect build: every prefix of the series, then of the series on top of it
# (series-rcu/), patches 1..k, k = 1..N, must build,
# for each target given (default: ppc64le ppc32), and its bpf_experimental.h must
# pass scripts/check/bpf-header.sh, judged by that prefix's own kernel. Works in its
# own work tree (build/bisect/linux, detached HEAD) and output folders
# build/bisect/out/TARGET: laid out as build/linux and build/out/TARGET, so that
# ccache (CCACHE_BASEDIR, scripts/common.sh) shares objects between the two. A
# prefix whose patch touches only files no kernel build reads (Documentation/,
# tools/testing/selftests/) is the previous prefix's build: not built again.
# Stops at the first patch that breaks a build or the bpf header check and
# names it.
# Usage: bisect.sh [TARGET...]   (BISECT_FROM=k skips the builds of prefixes < k;
# the bpf header check, which builds nothing, runs at every prefix)
. "$(dirname "$0")/../common.sh"
need git
need_tree "$LINUX"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(ppc64le ppc32)
for t in "${targets[@]}"; do target_info "$t"; done
from=${BISECT_FROM:-1}

mapfile -t patches < <(all_patches)
n=${#patches[@]}
if [ "$n" = 0 ]; then
	say "bisect: no patches in $SERIES: nothing to bisect"
	exit 0
fi
if [ "$from" -lt 1 ] || [ "$from" -gt "$n" ]; then die "bisect: BISECT_FROM=$from: the series has patches 1..$n"; fi
tree=$BUILD/bisect/linux
logs=$BUILD/logs/bisect
mkdir -p "$logs"
build_lock
# The layout before build/bisect/: its work tree and output folders go.
if [ -e "$BUILD/bisect-tree/.git" ] || compgen -G "$BUILD/out/bisect-*" >/dev/null; then
	say "bisect: removing the old layout's build/bisect-tree and build/out/bisect-*"
	git -C "$LINUX" worktree remove --force "$BUILD/bisect-tree" 2>/dev/null || rm -rf "$BUILD/bisect-tree"
	git -C "$LINUX" worktree prune
	rm -rf "$BUILD"/out/bisect-*
fi
if [ ! -e "$tree/.git" ]; then
	say "bisect: adding the work tree $tree"
	git -C "$LINUX" worktree prune
	git -C "$LINUX" worktree add -q --detach "$tree" base
fi
git -C "$tree" checkout -q -f --detach base
git -C "$tree" clean -q -f -d -x

# Whether the last commit of the tree touches only files that no build of the
# kernel reads (both sides of a rename; Documentation/Kconfig is read).
builds_nothing() {
	local paths
	paths=$(git -C "$tree" diff --name-only --no-renames HEAD~1 HEAD)
	[ -n "$paths" ] && ! grep -qvE '^(Documentation/|tools/testing/selftests/)' <<<"$paths" &&
		! grep -qx 'Documentation/Kconfig' <<<"$paths"
}

k=0 built=
for p in "${patches[@]}"; do
	k=$((k + 1)) name=$(patch_label "$p")
	if ! msg=$(git -C "$tree" am -q "$p" 2>&1); then
		git -C "$tree" am --abort >/dev/null 2>&1 || true
		printf '%s\n' "$msg" | sed 's/^/    git am: /' >&2
		die "bisect: patch $k/$n $name does not apply"
	fi
	# The bisect tree is a work tree of $LINUX: its HEAD is a commit of $LINUX.
	head=$(git -C "$tree" rev-parse HEAD)
	log=$logs/$(printf '%04d' "$k")-bpf-header.log
	if ! "$TOP/scripts/check/bpf-header.sh" "$head" >"$log" 2>&1; then
		sed 's/^/    /' "$log" >&2
		die "bisect: patch $k/$n $name fails the bpf header check (log: $log)"
	fi
	say "bisect: [$k/$n] $name: bpf header ok: $(sed -n 's/^bpf-header: bpfel: //p' "$log")"
	[ "$k" -ge "$from" ] || continue
	if [ -n "$built" ] && builds_nothing; then
		say "bisect: [$k/$n] $name: touches only Documentation/ and tools/testing/selftests/: builds as prefix $((k - 1)) did"
		continue
	fi
	built=1
	for t in "${targets[@]}"; do
		log=$logs/$(printf '%04d' "$k")-$t.log
		say "bisect: [$k/$n] $name: building $t"
		start=$SECONDS
		if ! OUT=$BUILD/bisect/out/$t "$TOP/scripts/build/build.sh" "$t" "$tree" >"$log" 2>&1; then
			sed -n '/---- build: .* the last compiler errors ----/,$p' "$log" >&2
			die "bisect: patch $k/$n $name breaks the $t build (log: $log)"
		fi
		say "bisect: [$k/$n] $name: $t ok in $((SECONDS - start)) s"
	done
done
say "bisect: prefixes $from..$n of the $n patches build for ${targets[*]}"
