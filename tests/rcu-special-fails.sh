#!/bin/bash
# Self-test of scripts/check/rcu-special.sh on small trees of its own: the
# helpers' writes and fork's pass; a setter that writes a bit of
# ->rcu_read_unlock_special directly, or with WRITE_ONCE(), fails and is
# named; a tree without the helpers is refused.
. "$(dirname "$0")/../scripts/common.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
check=$TOP/scripts/check/rcu-special.sh

mkdir -p "$T/good/kernel/rcu" "$T/good/kernel/sched"
cat >"$T/good/kernel/rcu/tree.h" <<'C'
#define rcu_special_set(t, bit) do {				\
	WRITE_ONCE(__t->rcu_read_unlock_special.b.bit, true);	\
} while (0)
C
printf 'static void f(struct task_struct *p)\n{\n\tp->rcu_read_unlock_special.s = 0;\n}\n' >"$T/good/kernel/fork.c"
printf 'void g(struct task_struct *t)\n{\n\tif (t->rcu_read_unlock_special.s == 0)\n\t\trcu_special_set(t, need_qs);\n}\n' >"$T/good/kernel/rcu/tree_plugin.h"
"$check" "$T/good" >"$T/out" 2>&1 || { cat "$T/out"; fail "the helpers' tree was refused"; }
grep -q '^ok: kernel/fork.c:3:' "$T/out" || { cat "$T/out"; fail "fork's write not listed"; }
echo "ok 1 - writes through the helpers pass"

cp -r "$T/good" "$T/bad"
printf 'void h(struct task_struct *t)\n{\n\tt->rcu_read_unlock_special.b.exp_hint = true;\n}\n' >"$T/bad/kernel/rcu/tree_exp.h"
printf 'void k(void)\n{\n\tWRITE_ONCE(current->rcu_read_unlock_special.b.blocked, true);\n}\n' >"$T/bad/kernel/sched/core.c"
if "$check" "$T/bad" >"$T/out" 2>&1; then cat "$T/out"; fail "a bypassing setter passed"; fi
grep -q '^not ok: kernel/rcu/tree_exp.h:3:' "$T/out" || { cat "$T/out"; fail "the direct write is not named"; }
grep -q '^not ok: kernel/sched/core.c:3:' "$T/out" || { cat "$T/out"; fail "the WRITE_ONCE() write is not named"; }
echo "ok 2 - a setter that bypasses the helpers fails, named"

rm "$T/good/kernel/rcu/tree.h"; touch "$T/good/kernel/rcu/tree.h"
if "$check" "$T/good" >"$T/out" 2>&1; then cat "$T/out"; fail "a tree without the helpers passed"; fi
grep -q 'has no rcu_special_set()' "$T/out" || { cat "$T/out"; fail "no reason given for the tree without helpers"; }
echo "ok 3 - a tree without the helpers is refused"
echo "3 passed, 0 failed"
