#!/bin/bash
# Every write of a task's ->rcu_read_unlock_special must go through the
# helpers of kernel/rcu/tree.h (rcu_special_set(), rcu_special_clear(),
# rcu_special_clear_need_qs()), which keep the second series' per-CPU mirror
# of it: a setter that bypassed them would leave the inline rcu_read_unlock()
# blind to its work. Lists every write in the C files of TREE and fails on
# any outside the helpers and the places that write a task not yet running
# (fork, the init task).
# Usage: rcu-special.sh [TREE]   (default: $LINUX with the series applied)
. "$(dirname "$0")/../common.sh"

tree=${1:-$LINUX}
[ -f "$tree/kernel/rcu/tree.h" ] || die "rcu-special: no kernel/rcu/tree.h in $tree"
grep -q 'define rcu_special_set(' "$tree/kernel/rcu/tree.h" ||
	die "rcu-special: $tree has no rcu_special_set() in kernel/rcu/tree.h: apply the series first"
# A write: an assignment to the field or one of its bits, or a WRITE_ONCE() of it
re='rcu_read_unlock_special(\.b\.[a-z_]+|\.s)?[[:space:]]*=[^=]|WRITE_ONCE\([^,]*rcu_read_unlock_special'
# Where a write may stand: the helpers, a new task, the init task's initializer
allowed='^(kernel/rcu/tree\.h|kernel/fork\.c|init/init_task\.c):'
bad=0 n=0
while IFS= read -r hit; do
	n=$((n + 1))
	if [[ $hit =~ $allowed ]]; then
		echo "ok: $hit"
	else
		echo "not ok: $hit: write it with rcu_special_set() or rcu_special_clear() (kernel/rcu/tree.h)"
		bad=$((bad + 1))
	fi
done < <(cd "$tree" && grep -rnE --include='*.[ch]' "$re" kernel include arch init lib mm 2>/dev/null | sed 's/[[:space:]]\+/ /g')
[ "$n" -gt 0 ] || die "rcu-special: no write of ->rcu_read_unlock_special found at all: the pattern is stale"
[ "$bad" = 0 ] || die "rcu-special: $bad of $n writes of ->rcu_read_unlock_special bypass the helpers"
say "rcu-special: all $n writes of ->rcu_read_unlock_special go through the helpers"
