#!/bin/bash
# Build the unpatched base as the guest-le-base target (no series, no series
# suite) in the base work tree, and boot it like the patched guest: the
# scenarios must pass there too, and its splats are the known base splats of
# tests/known-splats.txt.
# Usage: boot-base.sh [KERNEL-ARGS...]
. "$(dirname "$0")/common.sh"
need_tree "$LINUX"
base_tree=$BUILD/base-tree
worktree_at "$base_tree" base
export OUT=$BUILD/out/guest-le-base
"$TOP/scripts/build.sh" guest-le-base "$base_tree"
"$TOP/scripts/boot.sh" guest-le-base "$@"
