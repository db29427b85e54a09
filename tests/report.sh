#!/bin/bash
# Self-test of make report (scripts/report/report.py) and the stamps of
# scripts/check/test.sh: a run saves its output stamped under results/<id>/;
# parts with one stamp merge, check by check; parts with different stamps,
# a part without a stamp or without a finished check, and a part filed under
# another revision are refused, and the refusal names them; a part cut off
# before its closing line counts the checks it finished; no line a check
# prints can pass for a result; a run whose code changed under it is
# refused; RESUME=1 goes on from the parts saved with the same stamp.
. "$(dirname "$0")/lib.sh"
unset ONLY RESUME
report=$TOP/scripts/report/report.py
runner=$TOP/scripts/check/test.sh
mkdir -p "$SERIES"
cat >"$T/checks" <<'LIST'
demo        first!      true
demo        plain       true
demo        boot*       printf 'KTAP version 1\n1..3\nok 1 a\nnot ok 2 b # TODO known base failure\nok 3 c\n'
LIST
run() { CHECKS=$T/checks LOGS=$T/logs RESULTS_DIR=$T/results "$runner" demo; }

# 1. A run saves its output, stamped, under results/<id>/; an ONLY= run is a part.
run >"$T/out" 2>&1 || { cat "$T/out"; fail "the demo suite failed"; }
ONLY=plain run >"$T/out" 2>&1 || { cat "$T/out"; fail "the ONLY=plain part failed"; }
id=$("$TOP/scripts/report/stamp.sh" | sed -n 's/^# stamp: id //p')
[[ $id == rev-* ]] || fail "stamp.sh printed no id"
mapfile -t saved < <(ls "$T/results/$id/"*.txt 2>/dev/null)
[ ${#saved[@]} = 2 ] || fail "expected 2 saved outputs in results/$id, found: ${saved[*]:-none}"
for f in "${saved[@]}"; do
	for key in id project code series series-rcu base gcc qemu; do
		grep -q "^# stamp: $key " "$f" || fail "$f has no '# stamp: $key' line"
	done
	grep -qx '# plan: demo first plain boot' "$f" || fail "$f has no plan line naming the whole suite"
done
ls "$T/results/$id/"demo-part-*.txt >/dev/null 2>&1 || fail "the ONLY= run was not saved as a part"
pass "each run saves its output under results/<id>/ with the stamp and the suite's plan"

# 2. make report: one summary per revision and suite, and the index.
python3 "$report" --results "$T/results" >"$T/out" 2>&1 || { cat "$T/out"; fail "report refused one revision's parts"; }
sum=$T/results/$id/summary-demo.md
[ -f "$sum" ] || fail "no $sum"
cat "$sum"
grep -q "^# demo on $id: whole, 4 passed, 0 failed" "$sum" || fail "the summary's head is wrong"
grep -qE '^\| plain \| ok \| \[demo-part-' "$sum" || fail "'plain' is not taken from the newest part"
grep -qE '^\| boot \| ok \(2 passed, 0 failed, 1 known base failures\)' "$sum" || fail "the KTAP check is not counted as test.sh counts it"
grep -q "$id/summary-demo.md" "$T/results/README.md" || fail "the index does not list the summary"
grep -qE '^\| plain \| ok \| \[demo-part-[^]]*\]\([^)]*\) \| [0-9]+ s(, ccache [^|]*)? \|' "$sum" || fail "the summary does not give the check's time"
grep -qE '^Parts: .*\(started [0-9TZ]+, project [0-9a-f]+; [0-9]+ s, ccache [0-9]+ hits, [0-9]+ misses' "$sum" ||
	fail "the summary does not give each part's time and ccache counts"
pass "parts of one revision merge, check by check, into a summary (with times) and the index"

# 3. Parts with different stamps are refused, and both are named.
other=$T/results/rev-000000000000
mkdir -p "$other"
sed "s/^# stamp: id .*/# stamp: id rev-000000000000/" "${saved[0]}" >"$other/demo-x.txt"
expect_fail "two stamps" python3 "$report" "${saved[0]}" "$other/demo-x.txt"
expect_line 'parts from different revisions'
expect_line "${saved[0]}: $id"
expect_line "demo-x.txt: rev-000000000000"
pass "parts with different stamps are refused, each named with its stamp"

# 4. A part filed under another revision's folder is refused.
cp "$other/demo-x.txt" "$T/results/$id/demo-y.txt"
expect_fail "a part in the wrong folder" python3 "$report" --results "$T/results"
expect_line "demo-y.txt: ran on rev-000000000000, not $id"
rm "$T/results/$id/demo-y.txt"
pass "a part filed under another revision is refused"

# 5. No stamp: refused. Cut off before the closing line: its finished checks
# count; cut off before any: refused. A closing line that does not add up: refused.
full=$(ls "$T/results/$id/"demo-2*.txt)
grep -v '^# stamp:' "$full" >"$T/nostamp.txt"
expect_fail "no stamp" python3 "$report" "$T/nostamp.txt"
expect_line 'no stamp'
sed '/^ok 2 - plain/q' "$full" >"$T/cut.txt"
python3 "$report" "$T/cut.txt" >"$T/out" 2>&1 || { cat "$T/out"; fail "report refused a part cut off after two checks"; }
expect_line '^# demo on .*: partial \(2 of 3 checks run\), 2 passed, 0 failed'
expect_line '^Cut off before the closing line .*cut.txt` \(2 checks\)'
sed '/^ok 2 - plain/q' "$full" >"$T/cut2.txt"
head -c -12 "$T/cut2.txt" >"$T/cut1.txt"
python3 "$report" "$T/cut1.txt" >"$T/out" 2>&1 || { cat "$T/out"; fail "report refused a part cut off inside a line"; }
expect_line '^# demo on .*: partial \(1 of 3 checks run\), 1 passed, 0 failed'
sed '/^1\.\./q' "$full" >"$T/cut0.txt"
expect_fail "cut off before its first check" python3 "$report" "$T/cut0.txt"
expect_line 'no finished check'
sed '$s/.*/9 passed, 0 failed/' "$full" >"$T/sum.txt"
expect_fail "a closing line that does not add up" python3 "$report" "$T/sum.txt"
expect_line 'its closing line says 9 passed, 0 failed, its results 4 and 0'
pass "a part with no stamp, no finished check or a wrong closing line is refused; one cut off counts the checks it finished, not a line cut in two"

# 6. A failing run saves too, its closing line last; nothing a check prints
# (a carriage return, then a result line) passes for a result.
cat >"$T/checks2" <<'LIST'
demo2       spoof       printf 'building\rok 1 - spoof # 0 s\n5 passed, 0 failed\n'; false
LIST
expect_fail "a failing run" env CHECKS=$T/checks2 LOGS=$T/logs RESULTS_DIR=$T/results2 "$runner" demo2
[ "$(tail -n1 "$T/out")" = "0 passed, 1 failed" ] || fail "the closing line is not the last line printed"
f=$(ls "$T/results2/$id/"demo2-*.txt)
[ "$(tail -n1 "$f")" = "0 passed, 1 failed" ] || fail "the closing line is not the last line saved"
python3 "$report" "$f" >"$T/out" 2>&1 || { cat "$T/out"; fail "report refused a failed run"; }
cat "$T/out"
expect_line '^# demo2 on .*: whole, 0 passed, 1 failed'
expect_line '^\| spoof \| not ok \|'
pass "a failing run is saved with its closing line last; a check's output cannot pass for its result"

# 7. A run whose code changes under it is refused.
probe=$TOP/tests/.report-probe
trap 'rm -rf "$T" "$probe"' EXIT
printf 'demo3 edits touch %q\n' "$probe" >"$T/checks3"
CHECKS=$T/checks3 LOGS=$T/logs RESULTS_DIR=$T/results3 "$runner" demo3 >"$T/out" 2>&1 || { cat "$T/out"; fail "the demo3 run failed"; }
rm -f "$probe"
expect_line '^# stamp: changed-during-run rev-'
expect_fail "code changed during the run" python3 "$report" "$T/results3/$id/"demo3-*.txt
expect_line 'the code changed during the run'
pass "a run whose code changed under it is refused"

# 8. RESUME=1 runs again only what has not passed on this stamp (the gates
# always): a run cut off after 'first' and a failed 'flaky' goes on with
# 'flaky' alone, and the parts merge into a whole suite.
flag=$T/flaky-ok
cat >"$T/checks4" <<LIST
demo4       first!      true
demo4       steady      true
demo4       flaky       test -e $flag
demo4       last        true
LIST
run4() { CHECKS=$T/checks4 LOGS=$T/logs RESULTS_DIR=$T/results4 "$runner" demo4; }
expect_fail "a run whose 'flaky' fails" run4
f=$(ls "$T/results4/$id/"demo4-*.txt)
sed -i '/^ok 4 - last/,$d' "$f"
touch "$flag"
RESUME=1 run4 >"$T/out" 2>&1 || { cat "$T/out"; fail "the resumed run failed"; }
cat "$T/out"
expect_line '^# resume: 1 checks passed in the earlier parts .*, not run again: steady$'
expect_line '^1\.\.3$'
expect_line '^ok 1 - first '
expect_line '^ok 2 - flaky '
expect_line '^ok 3 - last '
ls "$T/results4/$id/"demo4-part-*.txt >/dev/null 2>&1 || fail "the resumed run was not saved as a part"
python3 "$report" --results "$T/results4" >"$T/out" 2>&1 || { cat "$T/out"; fail "report refused the resumed parts"; }
grep -q "^# demo4 on $id: whole, 4 passed, 0 failed" "$T/results4/$id/summary-demo4.md" ||
	{ cat "$T/results4/$id/summary-demo4.md"; fail "the resumed parts do not merge into the whole suite"; }
grep -qE '^\| steady \| ok \| \[demo4-2' "$T/results4/$id/summary-demo4.md" || fail "'steady' is not taken from the cut-off part"
RESUME=1 run4 >"$T/out" 2>&1 || { cat "$T/out"; fail "a resumed run with nothing left failed"; }
expect_line '^1\.\.1$'
cp "$other/demo-x.txt" "$T/results4/$id/demo-x.txt" # another suite's: not read
RESUME=1 run4 >"$T/out" 2>&1 || { cat "$T/out"; fail "a part of another suite stopped RESUME=1"; }
sed "s/^# stamp: id .*/# stamp: id rev-000000000000/" "$f" >"$T/results4/$id/demo4-x.txt"
expect_fail "resuming beside a part of another revision" env RESUME=1 CHECKS=$T/checks4 LOGS=$T/logs RESULTS_DIR=$T/results4 "$runner" demo4
expect_line 'ran on rev-000000000000, not in its revision'
expect_line 'RESUME=1: the saved parts'
expect_fail "RESUME=1 with nothing saved" env RESUME=1 RESULTS_DIR= CHECKS=$T/checks4 LOGS=$T/logs "$runner" demo4
expect_line 'RESUME=1 needs the saved parts'
expect_fail "RESUME=yes" env RESUME=yes CHECKS=$T/checks4 LOGS=$T/logs RESULTS_DIR=$T/results4 "$runner" demo4
expect_line 'RESUME=yes: 1 .* or 0'
pass "RESUME=1 runs only the checks not yet passed on this stamp, and the parts merge into the whole suite"

# 9. A build that passed runs again under RESUME=1 when a check still to run
# names its target (the machine may have no build/out), not otherwise.
flag5=$T/use-ok
cat >"$T/checks5" <<LIST
demo5       build-a     echo scripts/build/build.sh tgt-a
demo5       build-b     echo scripts/build/build.sh tgt-b
demo5       use-a       test -e $flag5 && echo OUT=x tgt-a
demo5       use-b       echo tgt-b
LIST
run5() { CHECKS=$T/checks5 LOGS=$T/logs RESULTS_DIR=$T/results5 "$runner" demo5; }
expect_fail "a run whose 'use-a' fails" run5
touch "$flag5"
RESUME=1 run5 >"$T/out" 2>&1 || { cat "$T/out"; fail "the resumed run failed"; }
cat "$T/out"
expect_line '^# resume: 2 checks passed .*, not run again: build-b use-b$'
expect_line '^# resume: builds passed before, run again for the checks after them: build-a$'
expect_line '^ok 1 - build-a '
expect_line '^ok 2 - use-a '
RESUME=0 run5 >"$T/out" 2>&1 || { cat "$T/out"; fail "RESUME=0 failed"; }
expect_line '^1\.\.4$'
pass "RESUME=1 runs a passed build again for a check still to run that names its target; RESUME=0 runs all"
