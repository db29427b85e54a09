#!/bin/bash
# Self-test of scripts/test.sh: a failing check is counted and shown, a failing
# gate stops the run, per-patch lines expand, an unknown suite is an error.
. "$(dirname "$0")/lib.sh"
mkdir -p "$SERIES"
touch "$SERIES/0000-cover-letter.patch" "$SERIES/0001-a.patch" "$SERIES/0002-b.patch"
cat >"$T/checks" <<'LIST'
# a comment
demo        pass        true
demo        fails       echo boom-output; false
demo,other  after       true
each        has-{patch} test -f {patch}
gate        first       true
gate        stop!       false
gate        never       touch "$SERIES/never-ran"
LIST
run() { CHECKS=$T/checks LOGS=$T/logs "$TOP/scripts/test.sh" "$@"; }

expect_fail "a failing check" run demo
expect_line '^ok 1 - pass'
expect_line '^not ok 2 - fails'
expect_line '^#   boom-output$'
expect_line '^ok 3 - after'
[ "$(tail -n1 "$T/out")" = "2 passed, 1 failed" ] || fail "closing line is not '2 passed, 1 failed'"
pass "a failing check is counted, its log shown, the others still run"

run each >"$T/out" 2>&1 || { cat "$T/out"; fail "per-patch checks failed"; }
cat "$T/out"
expect_line '^ok 1 - has-0001-a'
expect_line '^ok 2 - has-0002-b'
grep -q cover "$T/out" && fail "the cover letter got a check"
[ "$(tail -n1 "$T/out")" = "2 passed, 0 failed" ] || fail "closing line is not '2 passed, 0 failed'"
pass "{patch} makes one check per patch, without the cover letter"

expect_fail "a failing gate" run gate
expect_line '^not ok 3 - never # not run: stop failed'
[ ! -e "$SERIES/never-ran" ] || fail "a check after a failed gate ran"
[ "$(tail -n1 "$T/out")" = "1 passed, 2 failed" ] || fail "closing line is not '1 passed, 2 failed'"
pass "a failing gate stops the run; what did not run counts as failed"

expect_fail "an empty suite" run nosuch
expect_line 'no check in suite'
pass "a suite without checks is an error, not a silent pass"
