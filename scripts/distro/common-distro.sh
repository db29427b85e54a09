# Shared by scripts/distro/*.sh (sourced after scripts/common.sh): where the
# image's runs live, and helpers.
DISTRO_RUN=$BUILD/distro/run
# QEMU pseries as kernel/qemu/debian sets it (stage2.sh, vm.sh): the guest's
# console into LOG, at most TIMEOUT seconds; the rest of the arguments are
# QEMU's (-kernel, -append, -drive...). Returns QEMU's status (124: timeout).
distro_qemu() { # TIMEOUT LOG QEMU-ARGS...
	local t=$1 log=$2
	shift 2
	# shellcheck source=../../kernel/qemu/debian
	. "$TOP/kernel/qemu/debian"
	timeout -k 10 "$t" qemu-system-ppc64 -M "$QEMU_MACHINE" -cpu "$QEMU_CPU" -smp "$QEMU_SMP" -m "$QEMU_MEM" \
		-nographic -nodefaults -no-reboot -serial mon:stdio "$@" </dev/null >"$log" 2>&1
}
# A fresh qcow2 overlay DISK over the finished image (its base stays pristine).
overlay() {
	local img
	img=$("$TOP/scripts/distro/stage2.sh") || die "distro: no image (scripts/distro/stage2.sh failed)"
	rm -f "$1"
	qemu-img create -q -f qcow2 -F raw -b "$img" "$1" || die "distro: qemu-img cannot make the overlay $1"
}
# KTAP lines for a check named with '*' in tests/checks.
ktap_n=0 ktap_bad=0
ktap_begin() { echo "KTAP version 1"; }
ktap() { # ok|not-ok NAME [DETAIL]
	ktap_n=$((ktap_n + 1))
	if [ "$1" = ok ]; then echo "ok $ktap_n $2${3:+ # $3}"; else echo "not ok $ktap_n $2${3:+ # $3}"; ktap_bad=1; fi
}
# A check on a console LOG: ok when PATTERN (grep -E; ktap_grep_fixed: a
# fixed string) is there.
ktap_grep() { # NAME PATTERN LOG [DETAIL]
	if grep -a -q -E -- "$2" "$3"; then ktap ok "$1" "${4:-}"; else ktap not-ok "$1" "no /$2/ in $3"; fi
}
ktap_grep_fixed() { # NAME STRING LOG [DETAIL]
	if grep -a -q -F -- "$2" "$3"; then ktap ok "$1" "${4:-}"; else ktap not-ok "$1" "no '$2' in $3"; fi
}
# No kernel splat on the console LOG (tests/splat-patterns.txt, as the boot tests).
ktap_splats() { # LOG
	local s
	[ -s "$1" ] || { ktap not-ok splats "no kernel log $1"; return; }
	s=$(grep -a -n -E -f <(grep -v '^#' "$TOP/tests/splat-patterns.txt" | sed '/^$/d') "$1" | sed -n 1p) || true
	if [ -z "$s" ]; then ktap ok splats "none in the kernel's log"; else ktap not-ok splats "$s"; fi
}
