#!/bin/bash
# Self-test of scripts/apply.sh: a patch that does not apply stops it, naming the
# patch, with git am aborted and the branch left at the patch before; an empty
# series applies as the base.
. "$(dirname "$0")/lib.sh"
setup
"$TOP/scripts/apply.sh" || fail "the series does not apply"
top=$(git -C "$LINUX" rev-parse HEAD)

# A patch whose context holds a line that only an unexported commit adds.
f=$LINUX/lib/smp_processor_id.c
sed -i 's|^ \* DEBUG_PREEMPT variant of smp_processor_id().| * A line that is not in the tree.|' "$f"
git -C "$LINUX" commit -q -a -m "selftest: not exported"
sed -i 's|^ \* A line that is not in the tree.| * A line that is not in the tree.\n * And one more.|' "$f"
bad=$(commit_as_patch "selftest: a patch that does not apply

$SOB")
n=$(series_patches | wc -l)

expect_fail "apply of a series with a patch that does not apply" "$TOP/scripts/apply.sh"
expect_line "apply: patch $n/$n ${bad##*/} does not apply"
expect_line "git am: "
[ ! -d "$(git -C "$LINUX" rev-parse --git-path rebase-apply)" ] || fail "git am was not aborted"
[ "$(git -C "$LINUX" rev-parse "HEAD^{tree}")" = "$(git -C "$LINUX" rev-parse "$top^{tree}")" ] ||
	fail "the branch is not left at the patch before the bad one"
pass "apply names the patch that does not apply and aborts git am"

SERIES=$T/empty
mkdir -p "$SERIES"
"$TOP/scripts/apply.sh" >"$T/out" 2>&1 || { cat "$T/out"; fail "apply of an empty series failed"; }
cat "$T/out"
expect_line "no patches in"
[ "$(git -C "$LINUX" rev-parse HEAD)" = "$(git -C "$LINUX" rev-parse 'base^{commit}')" ] || fail "empty series: HEAD is not base"
pass "an empty series applies as the base and says so"
