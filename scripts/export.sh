#!/bin/bash
# Write a branch of the kernel tree back into series/ with git format-patch:
# the commits base..BRANCH (default: the developer's branch 'dev'), numbered.
# The hand-written cover letter keeps its headers, subject and text; only its
# shortlog and diffstat are regenerated. Numbered patches no longer in the
# branch are removed. apply then export gives back the same bytes.
# Usage: export.sh [BRANCH]
. "$(dirname "$0")/common.sh"
need git
need_tree "$LINUX"
branch=${1:-${BRANCH:-dev}}
cd "$LINUX"

git rev-parse -q --verify "$branch^{commit}" >/dev/null || die "export: no branch '$branch' in $LINUX"
git merge-base --is-ancestor base "$branch" || die "export: '$branch' is not based on tag base: rebase it first"
n=$(git rev-list --count "base..$branch")
[ "$n" -gt 0 ] || die "export: base..$branch holds no commit: nothing to export ($SERIES left as it is)"
[ -z "$(git rev-list --merges "base..$branch")" ] || die "export: base..$branch holds merge commits: make it linear first"
# Only commits are exported: say so if the branch's work tree has more.
wt=$(git worktree list --porcelain | awk -v b="branch refs/heads/$branch" '/^worktree /{w = substr($0, 10)} $0 == b {print w}')
if [ -n "$wt" ] && [ -n "$(git -C "$wt" --no-optional-locks status --porcelain --untracked-files=no)" ]; then
	say "export: note: $wt has uncommitted changes; they are not in the export"
fi

cover=$SERIES/0000-cover-letter.patch
prefix=PATCH
if [ -f "$cover" ]; then
	p=$(sed -n 's/^Subject: \[\(.*\) 0\/[0-9][0-9]*\].*/\1/p' "$cover" | head -n1)
	[ -z "$p" ] || prefix=$p
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
say "export: git format-patch base..$branch ($n commits, [$prefix n/$n]) into ${SERIES#"$TOP"/}/"
git format-patch -q --numbered --cover-letter --zero-commit --no-signature --no-thread \
	--no-notes --no-base --subject-prefix="$prefix" -o "$tmp" "base..$branch"

if [ -f "$cover" ]; then
	say "export: keeping the subject and text of ${cover##*/}, regenerating its shortlog and diffstat"
	# The generated part is the shortlog ("Author (n):" and indented subjects)
	# and the diffstat (lines starting with a space) at the end of the letter.
	awk -v n="$n" '
	function author(s) { return s ~ /^[^ ].* \([0-9]+\):$/ }
	function generated(s) { return s == "" || s ~ /^ / || author(s) }
	FILENAME == ARGV[1] { old[++no] = $0; next }
	{ new[++nn] = $0 }
	END {
		for (i = 1; i <= nn; i++) if (author(new[i])) { ns = i; break }
		if (!ns) { print "export: no shortlog in the format-patch cover letter" > "/dev/stderr"; exit 1 }
		# In the old letter: the tail of generated-looking lines, and in it the
		# author lines whose counts add up to the old total ("0/N"); text of
		# the body that only looks like a shortlog stays in the body.
		for (j = 1; j <= no; j++)
			if (old[j] ~ /^Subject: \[.* 0\/[0-9]+[]]/) {
				total = old[j]; sub(/^.* 0\//, "", total); sub(/[]].*/, "", total); break
			}
		i = no; while (i >= 1 && generated(old[i])) i--
		sum = 0
		for (j = no; j > i; j--) if (author(old[j])) {
			c = old[j]; sub(/^.* \(/, "", c); sum += c + 0
			if (sum == total + 0) { os = j; break }
		}
		if (!os) for (j = i + 1; j <= no; j++) if (author(old[j])) { os = j; break }
		last = os ? os - 1 : no
		for (j = 1; j <= last; j++) {
			line = old[j]
			if (!subject && line ~ /^Subject: \[.* 0\/[0-9]+[]]/) {
				sub(/ 0\/[0-9]+[]]/, " 0/" n "]", line); subject = 1
			}
			print line
		}
		if (!os && old[no] != "") print ""
		for (j = ns; j <= nn; j++) print new[j]
	}' "$cover" "$tmp/0000-cover-letter.patch" >"$tmp/cover.new"
	mv "$tmp/cover.new" "$tmp/0000-cover-letter.patch"
else
	say "export: no cover letter yet: writing format-patch's template; fill in its subject and text"
fi

mkdir -p "$SERIES"
while read -r old; do
	[ -e "$tmp/${old##*/}" ] || say "export: removing stale ${old##*/}"
	rm -f "$old"
done < <(series_patches)
cp "$tmp"/*.patch "$SERIES"/
for p in "$tmp"/*.patch; do echo "  ${SERIES#"$TOP"/}/${p##*/}"; done
say "export: $n patches + cover letter written to $SERIES"
