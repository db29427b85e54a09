#!/bin/bash
# Self-test of scripts/check/test.sh: a failing check is counted and shown, a failing
# gate stops the run, per-patch lines expand, an unknown suite is an error, a
# KTAP check ('NAME*') counts each result, never a skip or a known failure.
. "$(dirname "$0")/lib.sh"
# The runs below are of the demo suite: not the ONLY= or RESUME= of a caller.
unset ONLY RESUME RESULTS_DIR
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
ktap        multi*      printf 'KTAP version 1\n1..4\nok 1 a\nnot ok 2 b # TODO known\nok 3 c # SKIP why\nok 4 d\n'
ktap        multibad*   printf 'KTAP version 1\n1..2\nok 1 a\nnot ok 2 b # boom\n'
ktap        exitonly*   printf 'KTAP version 1\n1..1\nok 1 a\n'; false
ktap        none*       true
env         clean       test -z "${ONLY+x}${RESUME+x}${RESULTS_DIR+x}${CHECKS+x}${LOGS+x}"
LIST
run() { CHECKS=$T/checks LOGS=$T/logs "$TOP/scripts/check/test.sh" "$@"; }

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

expect_fail "KTAP checks" run ktap
expect_line '^    not ok 2 b # boom$'
expect_line '^ok 1 - multi '
expect_line '^not ok 2 - multibad '
expect_line '^    not ok 2 exit-status # exit status 1$'
expect_line '^not ok 3 - exitonly '
expect_line '^    not ok 1 exit-status # exit status 0, no KTAP result$'
expect_line '^# known base failure, not counted: multi: b # TODO known$'
expect_line '^# skipped, not counted: multi: c # SKIP why$'
[ "$(tail -n1 "$T/out")" = "4 passed, 3 failed" ] || fail "closing line is not '4 passed, 3 failed'"
pass "a KTAP check counts each result; skips and known failures are listed, not counted"

expect_fail "an empty suite" run nosuch
expect_line 'no check in suite'
pass "a suite without checks is an error, not a silent pass"

ONLY='multi|exitonly' expect_fail "ONLY= picks checks" run ktap
expect_line '^1\.\.2$'
expect_line '^ok 1 - multi '
expect_line '^not ok 2 - exitonly '
ONLY=after run gate >"$T/out" 2>&1 && fail "ONLY= naming no check of the suite passed"
expect_line 'matches no check'
ONLY=never expect_fail "ONLY= after a failing gate" run gate
expect_line '^not ok 2 - never # not run: stop failed'
pass "ONLY= runs the checks it names, after the gates; a name that matches nothing is an error"

ONLY=clean RESUME=1 RESULTS_DIR=$T/results run env >"$T/out" 2>&1 || { cat "$T/out"; fail "a check saw the runner's ONLY=, RESUME=, RESULTS_DIR=, CHECKS= or LOGS="; }
expect_line '^ok 1 - clean'
pass "a check runs without the runner's own settings (a self-test run by RESUME=1 does not resume)"
