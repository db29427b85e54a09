#!/bin/bash
# The distribution-shaped config of issue 60 -> build/distro/config:
# Debian's own ppc64el config (scripts/build/distro-config.sh), with
# kernel/configs/distro-deb.config (PREEMPT_DYNAMIC, no debug info, unsigned
# modules) and the user profile (kernel/configs/user.config: Fedora ELN's
# options on the kill() path) merged over it, then `make localmodconfig` with
# the Debian system's own lsmod (scripts/distro/lsmod.sh): Debian's built-in
# options stay, its modules shrink to those the system loads. What the trim
# removed: build/distro/trim.txt. Refused if an option of the two fragments
# did not survive (scripts/bench/profile-check.sh for the profile).
# Usage: kconfig.sh
. "$(dirname "$0")/../common.sh"
target_info distro
lsmod=$BUILD/distro/lsmod.txt
[ -s "$lsmod" ] || die "kconfig: no $lsmod: run scripts/distro/lsmod.sh first"
build_lock
tree=$BUILD/base-tree
worktree_at "$tree" "$(git -C "$LINUX" rev-parse 'base^{commit}')"
out=$BUILD/distro/kconfig
rm -rf "$out"
mkdir -p "$out"
log=$out/kconfig.log
"$TOP/scripts/build/distro-config.sh" "$out/config.debian" 2>>"$log" || die "kconfig: no Debian config"
cp "$out/config.debian" "$out/.config"
{
	(cd "$tree" && scripts/kconfig/merge_config.sh -m -O "$out" "$out/.config" \
		"$CONFIGS/distro-deb.config" "$CONFIGS/user.config") &&
		kmake "$tree" "$out" olddefconfig && cp "$out/.config" "$out/config.full" &&
		kmake "$tree" "$out" LSMOD="$lsmod" localmodconfig < <(yes "") &&
		kmake "$tree" "$out" olddefconfig
} >>"$log" 2>&1 || { tail -n 20 "$log"; die "kconfig: Kconfig failed (log: $log)"; }
c=$out/.config
for s in PREEMPT_DYNAMIC=y DEBUG_INFO_NONE=y; do
	grep -qx "CONFIG_$s" "$c" || die "kconfig: CONFIG_$s did not survive (log: $log)"
done
"$TOP/scripts/bench/profile-check.sh" "$c" || die "kconfig: the user profile did not survive localmodconfig"
m() { grep -c '=m$' "$1" || true; }
y() { grep -c '=y$' "$1" || true; }
{
	echo "# make localmodconfig with the Debian system's lsmod ($(($(wc -l <"$lsmod") - 1)) modules loaded)"
	echo "Debian's config (7.3.4 olddefconfig + distro-deb + user): $(y "$out/config.full") built in, $(m "$out/config.full") modules"
	echo "after localmodconfig: $(y "$c") built in, $(m "$c") modules"
	echo "built-in options that changed (should be none but the trimmed modules' dependents):"
	d=$(diff <(grep '=y$' "$out/config.full" | sort) <(grep '=y$' "$c" | sort) | grep '^[<>]' || true)
	echo "${d:-  none}"
	echo "modules kept:"
	grep '=m$' "$c" | sed 's/^/  /'
} >"$BUILD/distro/trim.txt"
cp "$c" "$BUILD/distro/config"
say "kconfig: $BUILD/distro/config: $(sed -n 3p "$BUILD/distro/trim.txt") (was $(m "$out/config.full") modules; $BUILD/distro/trim.txt)"
