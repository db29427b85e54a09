#!/bin/bash
# The disassembly check must fail on the patterns it exists to catch.
top=$(cd "$(dirname "$0")/.." && pwd)
check() { python3 "$top/scripts/check/preempt_sites.py" check "$top/tests/disasm/$1" 2312 ${3:+--expect $3} >/dev/null; }
fail=0
expect() {
	local want=$1 name=$2; shift 2
	if check "$@"; then got=0; else got=1; fi
	if [ "$got" = "$want" ]; then echo "ok - $name"; else echo "not ok - $name"; fail=1; fi
}
expect 0 "r13-only accesses pass" good.dis
expect 1 "a store through a copy of r13 fails" copied.dis
expect 1 "a count update through current fails on a patched kernel" current.dis
expect 0 "the base kernel's count through current is recognised" current.dis x current
expect 1 "a patched kernel is not mistaken for the base" good.dis x current
expect 0 "big-endian: the count at +4; the next PACA fields are not the word" be.dis
expect 1 "big-endian: the need_resched half through a copy of r13 fails" be-copied.dis
# The second series' word (--word): from r13 only, and there at all.
word() { python3 "$top/scripts/check/preempt_sites.py" check "$top/tests/disasm/$1" 2312 --word rcu:2400 >/dev/null; }
wexpect() {
	if word "$2"; then got=0; else got=1; fi
	if [ "$got" = "$1" ]; then echo "ok - $3"; else echo "not ok - $3"; fail=1; fi
}
wexpect 0 rcu.dis "the RCU nesting word from r13 passes"
wexpect 1 rcu-copied.dis "the RCU nesting word through a copy of r13 fails"
wexpect 1 good.dis "a kernel with the option on but no access to its word fails"
exit $fail
