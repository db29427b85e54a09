#!/bin/bash
# Self-test of make report (scripts/report/report.py) and the stamps of
# scripts/check/test.sh: a run saves its output stamped under results/<id>/;
# parts with one stamp merge, check by check; parts with different stamps,
# a part without a stamp, a part that did not finish, and a part filed under
# another revision are refused, and the refusal names them.
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
pass "parts of one revision merge, check by check, into a summary and the index"

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

# 5. No stamp, or no closing line: refused.
grep -v '^# stamp:' "${saved[0]}" >"$T/nostamp.txt"
expect_fail "no stamp" python3 "$report" "$T/nostamp.txt"
expect_line 'no stamp'
sed '$d' "${saved[0]}" >"$T/cut.txt"
expect_fail "no closing line" python3 "$report" "$T/cut.txt"
expect_line 'did not finish'
pass "a part with no stamp or no closing line is refused"
