#!/bin/bash
# Negative control of the torture boots: rcutorture's own broken RCU
# (torture_type=busted, grace periods that end at once) must be judged failed,
# by its own 'End of test: FAILURE' line, on the patched test-full guest.
. "$(dirname "$0")/lib.sh"
export LINUX=$MAIN_LINUX	# the series' tree, not the self-tests' work tree
expect_fail "rcutorture with torture_type=busted" env NAME=guest-le-full-busted "$TOP/scripts/boot/boot-full.sh" \
	guest-le-full preempt=full guest.run=torture-rcu guest.rcutorture_type=busted guest.torture_secs=30
expect_line '^not ok [0-9]+ torture-rcu # busted-torture:--- End of test: FAILURE'
pass "rcutorture's busted RCU fails the torture boot, judged by its own End of test line"
