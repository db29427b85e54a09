#!/bin/bash
# Self-test of make report (scripts/report/report.py) and the stamps of
# scripts/check/test.sh: a run saves its output stamped under results/<id>/;
# parts with one stamp merge, check by check; parts with different stamps,
# a part without a stamp, a part that did not finish, and a part filed under
# another revision are refused, and the refusal names them; a part that did
# not finish is listed, not counted; no line a check prints can pass for a
# result; a run whose code changed under it is refused.
. "$(dirname "$0")/lib.sh"
unset ONLY
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

# 5. No stamp: refused. No closing line: not counted. A closing line that
# does not add up: refused.
grep -v '^# stamp:' "${saved[0]}" >"$T/nostamp.txt"
expect_fail "no stamp" python3 "$report" "$T/nostamp.txt"
expect_line 'no stamp'
sed '$d' "${saved[0]}" >"$T/cut.txt"
expect_fail "no closing line" python3 "$report" "$T/cut.txt"
expect_line 'no finished part'
sed '$s/.*/9 passed, 0 failed/' "${saved[0]}" >"$T/sum.txt"
expect_fail "a closing line that does not add up" python3 "$report" "$T/sum.txt"
expect_line 'its closing line says 9 passed, 0 failed, its results 4 and 0'
pass "a part with no stamp or a wrong closing line is refused, one that did not finish is not counted"

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
