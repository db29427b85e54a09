#!/bin/bash
# Negative controls: the series plus one deliberate breakage,
# tests/negative/NAME.patch, is built in a scratch work tree and run; the run
# must fail, in a scenario (or KUnit case) that its 'Caught-by:' line names (a
# regex), and the scenarios of its 'Still-ok:' line must still pass. A patch
# with 'Test: kunit ARCH' runs the KUnit suite under kunit.py (scripts/check/kunit.sh);
# without it, the guest-le kernel is booted with the 'Boot-args:' (scripts/boot/boot.sh).
# Usage: tests/negative.sh NAME [REF]   (REF: what to break, default the series branch)
. "$(dirname "$0")/../scripts/common.sh"
branch=$SERIES_BRANCH	# lib.sh points the self-tests at their own branch
. "$(dirname "$0")/lib.sh"
export LINUX=$MAIN_LINUX

name=${1:?usage: negative.sh NAME [REF]; NAME: $(cd "$TOP/tests/negative" && ls | sed 's/\.patch$//' | xargs)}
ref=${2:-$branch}
patch=$TOP/tests/negative/$name.patch
[ -f "$patch" ] || fail "no $patch"
field() { sed -nE "s/^$1: *//p" "$patch" | sed -n 1p; }
caught=$(field Caught-by) still=$(field Still-ok) args=$(field Boot-args) test=$(field Test)
[ -n "$caught" ] || fail "$patch has no 'Caught-by:' line"
tree=$BUILD/negative/linux
# Laid out as build/linux and build/out/guest-le: ccache shares every object
# but the broken one (CCACHE_BASEDIR, scripts/common.sh).
out=$BUILD/negative/out/guest-le
# The layout before: a build right in build/negative/out.
[ ! -e "$BUILD/negative/out/.config" ] || rm -rf "$BUILD/negative/out"

need_tree "$LINUX"
git -C "$LINUX" rev-parse -q --verify "$ref^{commit}" >/dev/null || fail "no branch or commit '$ref' in $LINUX: run 'make apply'"
worktree_at "$tree" "$ref"
git -C "$tree" apply "$patch" || fail "$name.patch does not apply to $ref: update it"
say "negative: $name on $ref ($(git -C "$tree" rev-parse --short HEAD)), expect a failure in: $caught"
if [[ $test == kunit\ * ]]; then
	OUT=$BUILD/negative/kunit-${test#kunit } expect_fail "the broken kernel $name" "$TOP/scripts/check/kunit.sh" "${test#kunit }" "$tree"
	expect_line "\[(FAILED|CRASHED)\] ($caught)( |$)"
else
	OUT=$out "$TOP/scripts/build/build.sh" guest-le "$tree"
	# shellcheck disable=SC2086 # the boot arguments are words
	OUT=$out NAME=negative-$name expect_fail "the broken kernel $name" "$TOP/scripts/boot/boot.sh" guest-le $args
	expect_line "^not ok [0-9]+ ($caught)( |$)"
fi
for s in $still; do
	expect_line "^ok [0-9]+ $s( |$)"
done
pass "$name: the harness fails the broken kernel in $caught${still:+, and $still still passes}"
