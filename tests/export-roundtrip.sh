#!/bin/bash
# Self-test of scripts/export/export.sh: apply then export gives back the same bytes;
# the cover letter keeps its subject and text while its shortlog and diffstat
# follow the branch; numbered patches no longer in the branch are removed;
# every patch and the cover letter carry To:/Cc: from get_maintainer.pl, with
# linuxppc-dev among them, and apply (git am) + export reproduces them.
. "$(dirname "$0")/lib.sh"
setup
"$TOP/scripts/setup/apply.sh" || fail "the series does not apply"

# Two commits of our own on top of the series, so there is always something.
f=$LINUX/lib/smp_processor_id.c
sed -i 's|^ \* DEBUG_PREEMPT variant of smp_processor_id().| * DEBUG_PREEMPT variant of smp_processor_id(): checks that the caller\n * cannot migrate to another CPU.|' "$f"
git -C "$LINUX" commit -q -a -m "selftest: first change" -m "$SOB"
printf '/* selftest */\n' >>"$f"
git -C "$LINUX" commit -q -a -m "selftest: second change" -m "$SOB"
"$TOP/scripts/export/export.sh" "$SERIES_BRANCH" || fail "export failed"
n=$(series_patches | wc -l)
cover=$SERIES/0000-cover-letter.patch
[ -f "$cover" ] || fail "export wrote no cover letter"

# The To: or Cc: header of a patch file (continuation lines joined), or nothing.
recipients() {
	awk -v h="$2" '$0 == "" { exit } /^[^ \t]/ { on = (index($0, h ": ") == 1) } on { s = s $0 } END { if (s != "") print s }' "$1"
}
ppc=linuxppc-dev@lists.ozlabs.org
for p in "$cover" $(series_patches); do
	to=$(recipients "$p" To) cc=$(recipients "$p" Cc)
	case "$to $cc" in *"$ppc"*) ;; *) fail "${p##*/}: $ppc is in neither To: nor Cc: (To: '$to', Cc: '$cc')" ;; esac
	[ -n "$cc" ] || fail "${p##*/}: no Cc: from get_maintainer.pl"
done
# The powerpc patches go to the powerpc maintainer (M:) and list, the selftest
# commits (lib/) to linuxppc-dev with linux-kernel in Cc:; the cover letter: all.
mapfile -t patches < <(series_patches)
p=${patches[0]}
grep -q "^To: [^,]*<[^>]*>,.*$ppc" <<<"$(recipients "$p" To)" || fail "${p##*/}: To: is not the powerpc maintainer and $ppc: $(recipients "$p" To)"
p=${patches[-1]}
[ "$(recipients "$p" To)" = "To: $ppc" ] || fail "${p##*/}: To: should be $ppc alone: $(recipients "$p" To)"
grep -q 'linux-kernel@vger.kernel.org' <<<"$(recipients "$p" Cc)" || fail "${p##*/}: no linux-kernel in Cc:"
for p in $(series_patches); do
	recipients "$p" To | sed 's/^To: //; s/,    /\n/g' | sed 's/,$//'
done | sort -u >"$T/to.patches"
recipients "$cover" To | sed 's/^To: //; s/,    /\n/g' | sed 's/,$//' | sort -u >"$T/to.cover"
cmp -s "$T/to.patches" "$T/to.cover" || { diff "$T/to.patches" "$T/to.cover"; fail "the cover letter's To: is not the union of the patches' To:"; }
pass "every patch and the cover letter have To:/Cc: from get_maintainer.pl, $ppc among them"

# A hand-written cover letter, as a developer would leave it: the template's
# subject filled in, and text (some of it shaped like a shortlog) after the headers.
sed -i -e 's/\*\*\* SUBJECT HERE \*\*\*/powerpc64: selftest series/' -e '/\*\*\* BLURB HERE \*\*\*/d' "$cover"
sed -i '0,/^$/s//\nHand-written text that export must keep.\n\nResults (2):\n  not a shortlog: the body goes on\n/' "$cover"
cp -r "$SERIES" "$T/before"

"$TOP/scripts/setup/apply.sh" || fail "the exported series does not apply"
touch "$SERIES/0099-stale.patch"
"$TOP/scripts/export/export.sh" "$SERIES_BRANCH" || fail "export failed"
diff -r "$T/before" "$SERIES" || fail "apply + export changed the series (diff above)"
pass "apply + export is byte-identical, the hand-written cover letter kept, a stale patch removed"

# Drop the last commit: the cover letter follows, the last patch goes.
# And a stale hand-written Cc: in the cover letter: export replaces it.
last=$(series_patches | tail -n1)
sed -i '0,/^$/s//Cc: stale@example.org\n/' "$cover"
git -C "$LINUX" reset -q --hard HEAD~1
"$TOP/scripts/export/export.sh" "$SERIES_BRANCH" >"$T/out" 2>&1 || { cat "$T/out"; fail "export failed"; }
cat "$T/out"
expect_line "removing stale ${last##*/}"
[ ! -e "$last" ] || fail "${last##*/} is still there"
grep -q "^Subject: \[.* 0/$((n - 1))\]" "$cover" || fail "cover letter subject not updated to 0/$((n - 1))"
grep -q "^Hand-written text that export must keep.$" "$cover" || fail "cover letter text lost"
grep -q "^  not a shortlog: the body goes on$" "$cover" || fail "cover letter text lost"
grep -q "^  selftest: first change$" "$cover" || fail "shortlog lost the first change"
! grep -q "selftest: second change" "$cover" || fail "shortlog still lists the dropped commit"
! grep -q "stale@example.org" "$cover" || fail "the cover letter kept a stale Cc:"
grep -q "$ppc" <<<"$(recipients "$cover" To)" || fail "the cover letter lost its To: $ppc"
pass "the cover letter's count, shortlog and diffstat follow the branch"
