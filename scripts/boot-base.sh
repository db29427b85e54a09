#!/bin/bash
# Build the unpatched base as the guest-le-base target (no series, no series
# suite) in the base work tree, and boot it like the patched guest: the
# scenarios must pass there too, and its splats are the known base splats of
# tests/known-splats.txt.
# Usage: boot-base.sh [KERNEL-ARGS...]
. "$(dirname "$0")/common.sh"
need_tree "$LINUX"
base_tree=$BUILD/base-tree
if [ ! -d "$base_tree" ]; then
	say "boot-base: adding the base work tree $base_tree"
	git -C "$LINUX" worktree prune
	git -C "$LINUX" worktree add -q --detach "$base_tree" base
elif [ "$(git -C "$base_tree" rev-parse HEAD)" != "$(git -C "$LINUX" rev-parse 'base^{commit}')" ] ||
	[ -n "$(git -C "$base_tree" status --porcelain)" ]; then
	say "boot-base: resetting $base_tree to base"
	git -C "$base_tree" checkout -q -f --detach base
	git -C "$base_tree" clean -q -f -d -x
fi
export OUT=$BUILD/out/guest-le-base
"$TOP/scripts/build.sh" guest-le-base "$base_tree"
"$TOP/scripts/boot.sh" guest-le-base "$@"
