#!/bin/bash
# Write a branch of the kernel tree back into series/ with git format-patch:
# the commits base..BRANCH (default: the developer's branch 'dev'), numbered.
# FROM=ref exports FROM..BRANCH instead: the second series, 'make export-rcu'
# (FROM=dev SERIES=series-rcu, branch 'rcu', which is built on 'dev').
# The hand-written cover letter keeps its headers, subject and text; only its
# shortlog and diffstat are regenerated. Numbered patches no longer in the
# branch are removed. apply then export gives back the same bytes.
# Each patch gets To:/Cc: headers, as git format-patch --to/--cc writes them,
# from the kernel's scripts/get_maintainer.pl (run on the patch against the
# MAINTAINERS of the exported branch, no git history): To: linuxppc-dev and the
# maintainers of the powerpc sections it names, Cc: everyone else it names
# (reviewers, other maintainers, other lists). The cover letter gets the union;
# its To:/Cc: are regenerated, never hand-written. git am ignores both headers.
# Usage: export.sh [BRANCH]
. "$(dirname "$0")/../common.sh"
. "$(dirname "$0")/mail.sh"
need git
need_tree "$LINUX"
branch=${1:-${BRANCH:-dev}}
from=${FROM:-base}
cd "$LINUX"

git rev-parse -q --verify "$branch^{commit}" >/dev/null || die "export: no branch '$branch' in $LINUX"
git rev-parse -q --verify "$from^{commit}" >/dev/null || die "export: FROM=$from: no such commit in $LINUX"
git merge-base --is-ancestor "$from" "$branch" || die "export: '$branch' is not based on $from: rebase it first"
n=$(git rev-list --count "$from..$branch")
[ "$n" -gt 0 ] || die "export: $from..$branch holds no commit: nothing to export ($SERIES left as it is)"
[ -z "$(git rev-list --merges "$from..$branch")" ] || die "export: $from..$branch holds merge commits: make it linear first"
# Only commits are exported: say so if the branch's work tree has more.
wt=$(git worktree list --porcelain | awk -v b="branch refs/heads/$branch" '/^worktree /{w = substr($0, 10)} $0 == b {print w}')
if [ -n "$wt" ] && [ -n "$(git -C "$wt" --no-optional-locks status --porcelain --untracked-files=no)" ]; then
	say "export: note: $wt has uncommitted changes; they are not in the export"
fi

cover=$SERIES/0000-cover-letter.patch
prefix=PATCH
if [ -f "$cover" ]; then
	p=$(sed -n 's/^Subject: \[\(.*\) 0\/[0-9][0-9]*\].*/\1/p' "$cover" | sed -n 1p)
	[ -z "$p" ] || prefix=$p
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The recipients of one patch: writes PATCH.to and PATCH.cc, one address a line.
ppc_list=linuxppc-dev@lists.ozlabs.org
# To: also the maintainers of the sections matching TO_SECTIONS (an awk regex
# on get_maintainer.pl's upper-cased role) and the lists matching TO_LISTS:
# make export-rcu adds RCU's.
to_sections=${TO_SECTIONS:-POWERPC} to_lists=${TO_LISTS:-}
git show "$branch:MAINTAINERS" >"$tmp/MAINTAINERS" || die "export: no MAINTAINERS in $branch"
[ -f scripts/get_maintainer.pl ] || die "export: no scripts/get_maintainer.pl in $LINUX"
# get_maintainer.pl as export runs it. --no-fixes: no git lookups of Fixes:
# commits (the base has no history). A fixed hash seed: it orders sections that
# match a file equally well by Perl hash order, random from run to run otherwise.
gm=(env PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0 perl scripts/get_maintainer.pl
	--mpath "$tmp/MAINTAINERS" --no-git --no-git-fallback --no-fixes --no-rolestats)
recipients() {
	local p=$1
	gm_pairs "$p" . export
	# To: the powerpc list and the maintainers (M:, status Maintained or
	# Supported) of a powerpc section (TO_SECTIONS); Cc: the rest, in
	# get_maintainer.pl's order.
	awk -F '\t' -v list="$ppc_list" -v to="$p.to" -v cc="$p.cc" -v tosec="$to_sections" -v tolists="$to_lists" '
	BEGIN { printf "" > to; printf "" > cc }
	{
		a = $1; role = $2
		if (a == list) { print a > to; haslist = 1 }
		else if (role ~ /^(maintainer|supporter):/ && toupper(role) ~ tosec) print a > to
		else if (tolists != "" && role ~ /^open list:/ && toupper(role) ~ tolists) print a > to
		else print a > cc
	}
	END { if (!haslist) print list > to }' "$p.pairs" || die "export: could not sort the recipients of ${p##*/}"
	rm -f "$p.pairs"
}
say "export: git format-patch $from..$branch ($n commits, [$prefix n/$n]) into ${SERIES#"$TOP"/}/"
git format-patch -q --numbered --cover-letter --zero-commit --no-signature --no-thread \
	--no-notes --no-base --subject-prefix="$prefix" -o "$tmp" "$from..$branch"

say "export: To:/Cc: from scripts/get_maintainer.pl and $branch:MAINTAINERS"
for p in "$tmp"/0*.patch; do
	[ "${p##*/}" != 0000-cover-letter.patch ] || continue
	recipients "$p"
	set_recipients "$p" "$p.to" "$p.cc"
	cat "$p.to" >>"$tmp/all.to"; cat "$p.cc" >>"$tmp/all.cc"
done
# The cover letter: the union, in order of first appearance; To: wins over Cc:.
awk '!seen[$0]++' "$tmp/all.to" >"$tmp/cover.to"
# Plus, on the cover letter only, the people of kernel/cover-cc's files.
while read -r f; do
	[[ -z $f || $f == \#* ]] && continue
	[ -e "$f" ] || die "export: kernel/cover-cc: no $f in $LINUX"
	"${gm[@]}" --no-roles -f "$f" >>"$tmp/all.cc" ||
		die "export: get_maintainer.pl failed on $f"
done <"$TOP/kernel/cover-cc"
awk 'FILENAME == ARGV[1] { to[$0] = 1; next } NF && !to[$0] && !seen[$0]++' "$tmp/cover.to" "$tmp/all.cc" >"$tmp/cover.cc"

if [ -f "$cover" ]; then
	cp "$cover" "$tmp/cover.old"
	set_recipients "$tmp/cover.old" /dev/null /dev/null
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
	}' "$tmp/cover.old" "$tmp/0000-cover-letter.patch" >"$tmp/cover.new"
	mv "$tmp/cover.new" "$tmp/0000-cover-letter.patch"
else
	say "export: no cover letter yet: writing format-patch's template; fill in its subject and text"
fi
set_recipients "$tmp/0000-cover-letter.patch" "$tmp/cover.to" "$tmp/cover.cc"

mkdir -p "$SERIES"
while read -r old; do
	[ -e "$tmp/${old##*/}" ] || say "export: removing stale ${old##*/}"
	rm -f "$old"
done < <(series_patches)
cp "$tmp"/*.patch "$SERIES"/
for p in "$tmp"/*.patch; do echo "  ${SERIES#"$TOP"/}/${p##*/}"; done
say "export: $n patches + cover letter written to $SERIES"
