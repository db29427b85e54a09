#!/bin/bash
# How big a build is, without building it: configure TARGET, run make prepare
# and then 'make -n' for vmlinux alone and for vmlinux + modules, and count the
# compile units (CC and AS lines) of each. A cold build's time scales with
# them: README uses it to say how long Debian's config with all its modules
# would take here, from a measured vmlinux build. About 3 minutes.
# Usage: count-units.sh TARGET   (e.g. distro)
. "$(dirname "$0")/common.sh"
target=${1:?usage: count-units.sh TARGET}
target_info "$target"
need_tree "$LINUX"
out=$BUILD/out/units-$target
"$TOP/scripts/config.sh" "$target" "$LINUX" "$out" >/dev/null 2>&1 || die "count-units: config of $target failed"
kmake "$LINUX" "$out" -j"$JOBS" prepare >"$out/prepare.log" 2>&1 || die "count-units: make prepare failed (log: $out/prepare.log)"
units() { # goals...: compile units that make -n would run (it stops at the link)
	{ kmake "$LINUX" "$out" -n "$@" 2>/dev/null || true; } |
		{ grep -oE "echo '  (CC|AS)( \[M\])? +[^']*\.o'" || true; } | sort -u | wc -l
}
v=$(units vmlinux)
vm=$(units vmlinux modules)
if [ "$v" = 0 ] || [ "$vm" -lt "$v" ]; then die "count-units: make -n listed $v units for vmlinux, $vm with modules"; fi
echo "$target: $v compile units for vmlinux, $vm for vmlinux + modules ($((vm - v)) for modules alone)"
