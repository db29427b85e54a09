#!/bin/bash
# Build the unpatched base as the guest-le-base target (no series, no series
# suite) in the base work tree, and boot it like the patched guest: the
# scenarios must pass there too, and its splats are the known base splats of
# tests/known-splats.txt. The work is scripts/boot/boot-full.sh's, for a -base target.
# Usage: boot-base.sh [KERNEL-ARGS...]
exec "$(dirname "$0")/boot-full.sh" guest-le-base "$@"
