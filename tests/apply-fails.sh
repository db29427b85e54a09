#!/bin/bash
# Self-test of scripts/setup/apply.sh: a patch that does not apply stops it, naming the
# patch, with git am aborted and the branch left at the patch before; an empty
# series applies as the base; a series on top (SERIES_ON_TOP, as series-rcu/)
# goes after the first, which branch SERIES_BRANCH-preempt marks, and a patch of
# it that does not apply is named with its folder; APPLY_ONTO=commit applies
# onto that commit instead of base.
. "$(dirname "$0")/lib.sh"
setup
"$TOP/scripts/setup/apply.sh" || fail "the series does not apply"
top=$(git -C "$LINUX" rev-parse HEAD)
! git -C "$LINUX" rev-parse -q --verify "$SERIES_BRANCH-preempt" >/dev/null ||
	fail "a series alone (SERIES_ON_TOP empty) left a branch $SERIES_BRANCH-preempt"

# Two series: the copy's last two patches moved into a folder on top.
mkdir -p "$T/top"
mapfile -t all < <(series_patches)
m=${#all[@]}
mv "${all[m - 2]}" "${all[m - 1]}" "$T/top/"
SERIES_ON_TOP=$T/top "$TOP/scripts/setup/apply.sh" >"$T/out" 2>&1 || { cat "$T/out"; fail "two series do not apply"; }
cat "$T/out"
last=${all[m - 1]##*/}
expect_line "apply: \\[$m/$m\\] top-${last%.patch}$"
[ "$(git -C "$LINUX" rev-parse "HEAD^{tree}")" = "$(git -C "$LINUX" rev-parse "$top^{tree}")" ] ||
	fail "two series: the tree differs from the series applied as one"
[ "$(git -C "$LINUX" rev-parse "$SERIES_BRANCH-preempt")" = "$(git -C "$LINUX" rev-parse HEAD~2)" ] ||
	fail "two series: branch $SERIES_BRANCH-preempt is not at the first series' last patch"
echo "garbage" >"$T/top/0099-not-a-patch.patch"
expect_fail "apply of a series on top with a bad patch" env SERIES_ON_TOP="$T/top" "$TOP/scripts/setup/apply.sh"
expect_line "apply: patch $((m + 1))/$((m + 1)) top-0099-not-a-patch does not apply"
rm "$T/top/0099-not-a-patch.patch"
mv "$T/top"/*.patch "$SERIES/"
pass "a series on top applies after the first, marked by branch $SERIES_BRANCH-preempt; its bad patch is named with its folder"
"$TOP/scripts/setup/apply.sh" >/dev/null 2>&1 || fail "the series does not apply again"

# The same patches again onto a clean tree: left alone, no file re-dated; a
# changed file, a stray file or a commit on the branch: applied again.
f=$LINUX/arch/powerpc/kernel/irq_64.c
head=$(git -C "$LINUX" rev-parse HEAD) when=$(stat -c %y "$f")
"$TOP/scripts/setup/apply.sh" >"$T/out" 2>&1 || { cat "$T/out"; fail "a second apply failed"; }
expect_line "already holds these $m patches on base, clean: left as it is"
[ "$(git -C "$LINUX" rev-parse HEAD)" = "$head" ] && [ "$(stat -c %y "$f")" = "$when" ] ||
	fail "a second apply of the same patches changed the tree"
for change in "echo '/* changed */' >>$f" ": >$LINUX/stray.c" "git -C $LINUX commit -q --allow-empty -m extra" \
	"sed -i '0,/^Subject: /s//Subject: changed /' ${all[0]}" "git -C $LINUX branch -f $SERIES_BRANCH-preempt HEAD~1"; do
	bash -c "$change"
	"$TOP/scripts/setup/apply.sh" >"$T/out" 2>&1 || { cat "$T/out"; fail "apply after '$change' failed"; }
	expect_line "reset to base$"
	[ -z "$(git -C "$LINUX" status --porcelain --ignored)" ] && [ "$(git -C "$LINUX" rev-parse "HEAD^{tree}")" = "$(git -C "$LINUX" rev-parse "$head^{tree}")" ] ||
		fail "apply after '$change' did not give back the series' tree"
done
pass "the same patches on a clean tree are left alone; a changed file, a stray file, a commit, a changed patch, a moved branch: applied again"

# APPLY_ONTO (make bench's EXTRA_ON): the last two patches alone onto the
# commit before them give the same tree; a commit that is not there stops it.
mkdir -p "$T/onto"
cp "${all[m - 2]}" "${all[m - 1]}" "$T/onto/"
onto=$(git -C "$LINUX" rev-parse HEAD~2)
SERIES=$T/onto APPLY_ONTO=$onto "$TOP/scripts/setup/apply.sh" >"$T/out" 2>&1 || { cat "$T/out"; fail "APPLY_ONTO: the last two patches do not apply"; }
cat "$T/out"
expect_line "reset to $onto$"
[ "$(git -C "$LINUX" rev-parse "HEAD^{tree}")" = "$(git -C "$LINUX" rev-parse "$top^{tree}")" ] ||
	fail "APPLY_ONTO: the tree differs from the series applied onto base"
SERIES=$T/onto APPLY_ONTO=no-such-commit expect_fail "apply onto a commit that is not there" "$TOP/scripts/setup/apply.sh"
expect_line "APPLY_ONTO=no-such-commit is no commit"
pass "APPLY_ONTO applies onto that commit, and stops on one that is not there"
"$TOP/scripts/setup/apply.sh" >/dev/null 2>&1 || fail "the series does not apply again"

# A patch whose context holds a line that only an unexported commit adds.
f=$LINUX/lib/smp_processor_id.c
sed -i 's|^ \* DEBUG_PREEMPT variant of smp_processor_id().| * A line that is not in the tree.|' "$f"
git -C "$LINUX" commit -q -a -m "selftest: not exported"
sed -i 's|^ \* A line that is not in the tree.| * A line that is not in the tree.\n * And one more.|' "$f"
bad=$(commit_as_patch "selftest: a patch that does not apply

$SOB")
n=$(series_patches | wc -l)

expect_fail "apply of a series with a patch that does not apply" "$TOP/scripts/setup/apply.sh"
expect_line "apply: patch $n/$n $(patch_label "$bad") does not apply"
expect_line "git am: "
[ ! -d "$(git -C "$LINUX" rev-parse --git-path rebase-apply)" ] || fail "git am was not aborted"
[ "$(git -C "$LINUX" rev-parse "HEAD^{tree}")" = "$(git -C "$LINUX" rev-parse "$top^{tree}")" ] ||
	fail "the branch is not left at the patch before the bad one"
pass "apply names the patch that does not apply and aborts git am"

SERIES=$T/empty
mkdir -p "$SERIES"
"$TOP/scripts/setup/apply.sh" >"$T/out" 2>&1 || { cat "$T/out"; fail "apply of an empty series failed"; }
cat "$T/out"
expect_line "no patches in"
[ "$(git -C "$LINUX" rev-parse HEAD)" = "$(git -C "$LINUX" rev-parse 'base^{commit}')" ] || fail "empty series: HEAD is not base"
pass "an empty series applies as the base and says so"
