#!/bin/bash
# Issue 6, kept as a test: the unpatched base loses lockdep on every debug boot
# (DEBUG_LOCKS_WARN_ON(lockdep_hardirq_context()) from a replayed interrupt),
# and the base plus the series' lockdep fix alone boots with no splat and
# lockdep still on after all the scenarios. Both are the guest-le-base guest.
# Usage: tests/lockdep-fix.sh   (needs 'make apply': the fix is found in 'series')
. "$(dirname "$0")/../scripts/common.sh"
fail() { echo "FAIL: $*"; exit 1; }
need_tree "$LINUX"

warn='DEBUG_LOCKS_WARN_ON\(lockdep_hardirq_context\(\)\)'
fix=$(git -C "$LINUX" log --reverse --format='%H %s' base..series 2>/dev/null |
	awk '/Keep lockdep on when soft-masked interrupts are replayed/ && !f { print $1; f = 1 }')
[ -n "$fix" ] || fail "no lockdep fix in base..series of $LINUX: run 'make apply'"
tree=$BUILD/fix-tree
worktree_at "$tree" "$fix"

# Judges one console log: $1 = base|fix.
judge() {
	local log=$BUILD/logs/console-lockdep-$1.log
	[ -s "$log" ] || fail "$1: no console log $log"
	grep -q 'guest: GUEST-DONE' "$log" || fail "$1: the guest did not finish (see $log)"
	if [ "$1" = base ]; then
		grep -qE "$warn" "$log" || fail "base: no lockdep warning: did the base change? (see $log)"
		grep -qE 'guest: not ok [0-9]+ lockdep-alive' "$log" || fail "base: lockdep-alive passed after the warning (see $log)"
	else
		! grep -nE "$warn|DEBUG_LOCKS_WARN_ON" "$log" || fail "fix: the lockdep warning is still there (see $log)"
		grep -qE 'guest: ok [0-9]+ lockdep-alive' "$log" || fail "fix: lockdep-alive did not pass (see $log)"
		! grep -E 'guest: not ok ' "$log" || fail "fix: a scenario failed (see $log)"
	fi
	echo "PASS: $1: $(grep -cE 'guest: ok [0-9]+ ' "$log") scenarios ok; $(grep -m1 -oE "$warn" "$log" || echo 'no lockdep warning')"
}

say "lockdep-fix: the base"
NAME=lockdep-base "$TOP/scripts/boot/boot-base.sh" >/dev/null 2>&1 || true
judge base
say "lockdep-fix: the base + $(git -C "$LINUX" log -1 --format='%h %s' "$fix")"
OUT=$BUILD/out/guest-le-base-fix "$TOP/scripts/build/build.sh" guest-le-base "$tree"
rc=0
OUT=$BUILD/out/guest-le-base-fix NAME=lockdep-fix "$TOP/scripts/boot/boot.sh" guest-le-base >"$BUILD/logs/lockdep-fix-boot.log" 2>&1 || rc=$?
judge fix
[ "$rc" = 0 ] || { tail -n 30 "$BUILD/logs/lockdep-fix-boot.log"; fail "fix: the boot's judgement failed (exit $rc)"; }
echo "PASS: the base loses lockdep on a debug boot, the fix keeps it on to the end"
