#!/bin/bash
# Negative control of the kdump-reset boots: a guest that waits for a system
# reset the host never sends (MONITOR_AT= names a line the guest never
# prints) must fail the boot: the guest gives up after its wait, no capture
# kernel ever says kdump-capture, and boot.sh says the reset was never sent.
. "$(dirname "$0")/lib.sh"
export LINUX=$MAIN_LINUX	# the series' tree, not the self-tests' work tree
expect_fail "a kdump that waits for a reset never sent" env NAME=guest-le-full-kdump-no-reset \
	MONITOR_AT='a line the guest never prints' REQUIRE='^ok [0-9]+ kdump-capture # ' \
	"$TOP/scripts/boot/boot-full.sh" guest-le-full preempt=full retain_initrd crashkernel=512M guest.run=kdump \
	guest.kdump_by=reset
grep -qE 'kdump: no system reset came in [0-9]+ s' "$BUILD/logs/console-guest-le-full-kdump-no-reset.log" ||
	fail "the guest did not say it waited in vain (console: $BUILD/logs/console-guest-le-full-kdump-no-reset.log)"
expect_line '^ *not ok [0-9]+ required # no guest line matches'
expect_line "MONITOR_AT=/a line the guest never prints/: 'nmi' never sent"
pass "a kdump whose system reset never comes fails the boot"
