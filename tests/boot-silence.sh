#!/bin/bash
# Self-test of scripts/boot/boot.sh's BOOT_SILENCE=N, with a stand-in for QEMU:
# a guest that prints once and then nothing is stopped after N s of silence,
# as a timeout (so that scripts/boot/console.sh tells a known hang the same
# way) and long before BOOT_TIMEOUT; a guest that keeps printing is not, and
# without BOOT_SILENCE a silent guest runs to BOOT_TIMEOUT.
. "$(dirname "$0")/lib.sh"
export LINUX=$MAIN_LINUX
mkdir -p "$T/bin" "$T/kout"
echo 'not a kernel' >"$T/kout/vmlinux"
cat >"$T/bin/qemu-system-ppc64" <<'QEMU'
#!/bin/bash
echo "stand-in guest: up"
[ "${TALK:-}" = 1 ] || exec sleep 600
while sleep 1; do echo "stand-in guest: still talking"; done
QEMU
chmod +x "$T/bin/qemu-system-ppc64"
boot() { # TALK SILENCE TIMEOUT
	local begin=$SECONDS
	expect_fail "the stand-in guest (talk=$1 silence=${2:-none})" env PATH="$T/bin:$PATH" TALK="$1" \
		BOOT_SILENCE="$2" BOOT_TIMEOUT="$3" OUT="$T/kout" NAME=selftest-silence "$TOP/scripts/boot/boot.sh" guest-le
	took=$((SECONDS - begin))
}
# BOOT_SILENCE= (empty) is unset for boot.sh's ${BOOT_SILENCE:-} tests.
boot 0 3 40
expect_line '^# boot: TIMEOUT: QEMU killed after [0-9]+ s, its console silent for 3 s \(BOOT_SILENCE\)'
expect_line 'not ok [0-9]+ guest-done'
[ "$took" -lt 40 ] || fail "a silent guest ran to BOOT_TIMEOUT (${took} s) under BOOT_SILENCE=3"
pass "a silent guest is stopped after BOOT_SILENCE seconds, as a timeout, in $took s"
boot 1 3 12
expect_line '^# boot: TIMEOUT: QEMU killed after 12 s$'
pass "a guest that keeps printing is not stopped by BOOT_SILENCE, only by BOOT_TIMEOUT"
boot 0 '' 8
expect_line '^# boot: TIMEOUT: QEMU killed after 8 s$'
pass "without BOOT_SILENCE a silent guest runs to BOOT_TIMEOUT"
