#!/bin/bash
# The replay bug on the base (issue 12): the base plus only the series' replay
# test patch (the one adding arch/powerpc/kernel/tests/irq_replay_kunit.c),
# without the fix, must fail that test: at boot, and rerun in full and lazy
# mode. The same test passes on the series (make test's boots).
# Usage: tests/replay-base.sh
. "$(dirname "$0")/lib.sh"
export LINUX=$MAIN_LINUX

patch=$(grep -l '^+++ b/arch/powerpc/kernel/tests/irq_replay_kunit.c' "$TOP"/series/0*.patch | sed -n 1p)
[ -n "$patch" ] || fail "no patch of series/ adds irq_replay_kunit.c"
tree=$BUILD/replay-base/linux
need_tree "$LINUX"
worktree_at "$tree" base
git -C "$tree" am -q "$patch" || { git -C "$tree" am --abort; fail "${patch##*/} does not apply to base alone"; }
say "replay-base: base + ${patch##*/}, expect the replay test to fail"
export OUT=$BUILD/replay-base/out
"$TOP/scripts/build/build.sh" guest-le-replay-base "$tree" || fail "the base with the replay test does not build"
NAME=replay-base expect_fail "the base without the fix" \
	"$TOP/scripts/boot/boot.sh" guest-le-replay-base preempt=full 'guest.run=kunit,irq-replay-*'
expect_line '^not ok [0-9]+ kunit-powerpc_irq_replay( |$)'
expect_line '^not ok [0-9]+ irq-replay-full( |$)'
expect_line '^not ok [0-9]+ irq-replay-lazy( |$)'
expect_line '^ok [0-9]+ guest-done( |$)'
pass "the base fails the replay test (at boot, full, lazy): the fix is what makes it pass"
