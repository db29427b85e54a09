#!/bin/bash
# Build and boot a guest target that needs its own build (kernel/targets:
# guest-le-full, guest-be-full, guest-*-full-base, guest-*-full-v1,
# guest-le-full-inline; guest-le-base through scripts/boot/boot-base.sh). The
# test-full guests are the boot-test guest plus the rcutorture and locktorture
# modules (guest/torture.c), the kernel itself in the initramfs and kexec,
# kdump and sysrq (guest/kexec.c, guest/nmi.c). A target ending in -base is the
# unpatched base, built in the work tree build/base-tree, so that a failure the
# base shows too is told from one the series brings. A target ending in -v1 is
# the first series alone (branch SERIES_BRANCH-preempt), in build/v1-tree.
# Usage: boot-full.sh TARGET [KERNEL-ARGS...]
#   e.g. boot-full.sh guest-le-full preempt=lazy 'guest.run=torture-*' guest.torture_secs=180
. "$(dirname "$0")/../common.sh"
target=${1:?usage: boot-full.sh TARGET [KERNEL-ARGS...]}
shift
need_tree "$LINUX"
tree=$LINUX
if [[ $target == *-base ]]; then
	tree=$BUILD/base-tree
	worktree_at "$tree" base
elif [[ $target == *-v1 ]]; then
	c=$(git -C "$LINUX" rev-parse -q --verify "$SERIES_BRANCH-preempt^{commit}") ||
		die "boot-full: $target is the first series alone, but $LINUX has no branch $SERIES_BRANCH-preempt (run make apply with both series)"
	tree=$BUILD/v1-tree
	worktree_at "$tree" "$c"
fi
export OUT=$BUILD/out/$target
"$TOP/scripts/build/build.sh" "$target" "$tree"
# A base or first-series kernel must not hold the second series (a 'make build
# TARGET=' of this target builds build/linux into the same folder): its Kconfig
# symbol is selected on every ppc64 build of a tree that has it.
if [[ $target == *-base || $target == *-v1 ]] && grep -qx 'CONFIG_ARCH_HAS_PCPU_RCU_NESTING=y' "$OUT/.config"; then
	die "boot-full: $OUT holds a kernel with the second series, not the $target kernel"
fi
NAME=${NAME:-$target${*:+-$*}} "$TOP/scripts/boot/boot.sh" "$target" "$@"
