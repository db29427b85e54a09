#!/bin/bash
# git am the series (series/[0-9]*.patch but the cover letter, in order), then
# the second series on top of it (series-rcu/, $SERIES_ON_TOP), onto the base in
# a fresh branch 'series' of the kernel tree ($LINUX, $SERIES_BRANCH). Branch
# 'series-preempt' marks the first series alone (make bench's 'patched' kernel).
# APPLY_ONTO=commit: apply onto that commit instead of tag base (make bench's
# EXTRA_ON: an experiment on top of a patched kernel).
# A tree that already holds these patches on that commit, applied by this
# script and clean since (Python's __pycache__ folders aside, kunit.py's), is
# left alone: a checkout would re-date every file the series touches, and
# each later build would recompile what includes them.
. "$(dirname "$0")/../common.sh"
need git
need_tree "$LINUX"
cd "$LINUX"

# Only ever reset our own branch: never a developer's.
cur=$(git symbolic-ref -q --short HEAD || echo "(detached)")
case $cur in
"$SERIES_BRANCH" | master | "(detached)") ;;
*) die "apply: $LINUX is on branch '$cur': apply only resets branch '$SERIES_BRANCH'; point LINUX at another tree" ;;
esac
if [ -d "$(git rev-parse --git-path rebase-apply)" ]; then
	say "apply: aborting a git am left over in $LINUX"
	git am --abort >/dev/null 2>&1 || rm -rf "$(git rev-parse --git-path rebase-apply)"
fi

build_lock # a build reading this tree must not see it change
onto=${APPLY_ONTO:-base}
git rev-parse -q --verify "$onto^{commit}" >/dev/null || die "apply: APPLY_ONTO=$onto is no commit of $LINUX"
mapfile -t patches < <(all_patches)
n=${#patches[@]}
first=$(series_patches | wc -l)

# What this run applies (the commit, the branch, each patch file's content and
# where the second series starts), and what the last run left: 'KEY HEAD PREEMPT'.
applied=$(git rev-parse --git-path paca-applied)
key=$( { git rev-parse "$onto^{commit}"; echo "$SERIES_BRANCH ${SERIES_ON_TOP:+$first}"
	[ "$n" = 0 ] || sha256sum "${patches[@]}" | cut -d' ' -f1; } | sha256sum | cut -c1-64)
if [ "$n" -gt 0 ] && [ -f "$applied" ] && read -r k h v <"$applied" && [ "$k" = "$key" ] && [ "$cur" = "$SERIES_BRANCH" ] &&
	[ "$(git rev-parse HEAD)" = "$h" ] && [ "$(git rev-parse -q --verify "$SERIES_BRANCH-preempt" || echo -)" = "$v" ] &&
	[ -z "$(git status --porcelain --ignored | grep -v '__pycache__/$')" ]; then
	say "apply: branch '$SERIES_BRANCH' of $LINUX already holds these $n patches on $onto, clean: left as it is ($(git log -1 --format='%h %s'))"
	exit 0
fi
rm -f "$applied"
say "apply: branch '$SERIES_BRANCH' of $LINUX reset to $onto"
git checkout -q -f -B "$SERIES_BRANCH" "$onto"
git clean -q -f -d -x
git branch -q -D "$SERIES_BRANCH-preempt" >/dev/null 2>&1 || true

if [ "$n" = 0 ]; then
	say "apply: no patches in $SERIES: branch '$SERIES_BRANCH' is $onto"
	exit 0
fi
k=0
for p in "${patches[@]}"; do
	k=$((k + 1))
	say "apply: [$k/$n] $(patch_label "$p")"
	if ! msg=$(git am -q "$p" 2>&1); then
		git am --abort >/dev/null 2>&1 || true
		printf '%s\n' "$msg" | sed 's/^/    git am: /' >&2
		die "apply: patch $k/$n $(patch_label "$p") does not apply (branch '$SERIES_BRANCH' left at patch $((k - 1)))"
	fi
	if [ -n "$SERIES_ON_TOP" ] && [ "$k" = "$first" ]; then
		git branch -f "$SERIES_BRANCH-preempt" HEAD
		say "apply: branch '$SERIES_BRANCH-preempt': ${SERIES#"$TOP"/}/ alone; then ${SERIES_ON_TOP#"$TOP"/}/"
	fi
done
echo "$key $(git rev-parse HEAD) $(git rev-parse -q --verify "$SERIES_BRANCH-preempt" || echo -)" >"$applied"
say "apply: $n patches applied: branch '$SERIES_BRANCH' of $LINUX is at $(git log -1 --format='%h %s')"
