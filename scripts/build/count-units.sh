#!/bin/bash
# How big a build is, without building it: configure TARGET, run make prepare
# and then 'make -n' for vmlinux alone and for vmlinux + modules, and count the
# compile units (CC and AS lines) of each. A cold build's time scales with
# them: README uses it to say how long Debian's config with all its modules
# would take here, from a measured vmlinux build. About 3 minutes.
# LIST=file: also write the objects of vmlinux there, one per line (make
# check-wide's sparse checks: which touched objects a config builds).
# Usage: count-units.sh TARGET   (e.g. distro; LIST=file)
. "$(dirname "$0")/../common.sh"
target=${1:?usage: count-units.sh TARGET}
target_info "$target"
need_tree "$LINUX"
out=$BUILD/out/units-$target
mkdir -p "$out"
# config.sh keeps Kconfig's own output in $out/config.log: its messages go beside it.
"$TOP/scripts/build/config.sh" "$target" "$LINUX" "$out" >"$out/config-sh.log" 2>&1 ||
	die "count-units: config of $target failed (logs: $out/config-sh.log, $out/config.log)"
kmake "$LINUX" "$out" -j"$JOBS" prepare >"$out/prepare.log" 2>&1 || die "count-units: make prepare failed (log: $out/prepare.log)"
list_units() { # goals...: the objects make -n would compile (it stops at the link: -k)
	{ kmake "$LINUX" "$out" -k -n "$@" 2>"$out/make-n.log" || true; } |
		{ grep -oE "echo '  (CC|AS)( \[M\])? +[^']*\.o'" || true; } |
		sed -E "s/^echo '  (CC|AS)( \[M\])? +//; s/'\$//" | LC_ALL=C sort -u
}
list_units vmlinux >"$out/vmlinux.units"
# A make -n that stopped early would list part of the config: every config
# compiles the first and one of the last directories make walks.
for o in init/main.o lib/vsprintf.o; do
	grep -qxF "$o" "$out/vmlinux.units" || die "count-units: make -n of vmlinux lists no $o: an incomplete list (log: $out/make-n.log)"
done
v=$(wc -l <"$out/vmlinux.units")
if [ -n "${LIST:-}" ]; then
	cp "$out/vmlinux.units" "$LIST"
	echo "$target: $v compile units for vmlinux (list: $LIST)"
	exit 0
fi
vm=$(list_units vmlinux modules | wc -l)
if [ "$vm" -lt "$v" ]; then die "count-units: make -n listed $v units for vmlinux, $vm with modules"; fi
echo "$target: $v compile units for vmlinux, $vm for vmlinux + modules ($((vm - v)) for modules alone)"
