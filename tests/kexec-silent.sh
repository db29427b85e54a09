#!/bin/bash
# Negative control of the kexec boots: a second kernel that never prints
# (its command line gets loglevel=0, so nothing of it reaches the console)
# must fail the boot: the rounds after the kexec are judged by what the
# console shows, not by QEMU's exit.
. "$(dirname "$0")/lib.sh"
export LINUX=$MAIN_LINUX	# the series' tree, not the self-tests' work tree
expect_fail "a kexec into a kernel that prints nothing" env NAME=guest-le-full-kexec-silent \
	"$TOP/scripts/boot/boot-full.sh" guest-le-full preempt=full retain_initrd guest.run=smp,kexec guest.kexec_rounds=1 \
	guest.kexec_append=loglevel=0
expect_line '^ok [0-9]+ kexec # round 0 of 1: '
expect_line '^not ok [0-9]+ guest-done '
pass "a kexec'd kernel that prints nothing fails the boot (no GUEST-DONE)"
