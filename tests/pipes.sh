#!/bin/bash
# The harness runs with 'set -o pipefail': a reader that stops early (head,
# grep -q, grep -m) can kill the writer with SIGPIPE, and the pipeline then
# fails now and then, under load (CI's 'selftest-export' did). This check
# finds such readers in scripts/ and tests/; a process substitution '< <(...)'
# and 'sh -c' (no pipefail) are fine. Read all of the input instead: sed -n 1p,
# awk, grep -q PATTERN <<<"$var".
. "$(dirname "$0")/lib.sh"
re='\|[[:space:]]*(head|grep([[:space:]]+-[^[:space:]]+)*[[:space:]]+(-[A-Za-z]*[qm]|--quiet|--max-count))'
scan() { grep -nE -- "$re" "$@" | grep -vE -- '< <\(|sh -c ' || true; }

# The check can fail: a line it must find.
printf 'x=$(f | head -n1)\ny=$(g | grep -q a)\nz=$(g | grep -E -m1 a)\nif f | grep -qF a; then :; fi\nwhile read -r l; do :; done < <(f | head -n 2)\n' >"$T/bad.sh"
[ "$(scan "$T/bad.sh" | wc -l)" = 4 ] || fail "the scan misses an early reader in: $(cat "$T/bad.sh")"

found=$(cd "$TOP" && scan scripts/*.sh scripts/*/*.sh tests/*.sh .ci/run)
[ -z "$found" ] || { echo "$found"; fail "early-exit readers in pipelines (above): under pipefail they fail at random"; }
pass "no early-exit reader in a pipeline of scripts/ or tests/"
