#!/usr/bin/env python3
"""Write a C file whose one function is over 32 KB, with rcu_read_unlock()
near its start and the unlock's outermost path pulled to its end: the
shape KASAN, UBSAN and GCOV give large functions. With OLD=1 the unlock
is the series' first shape, a conditional branch to an asm goto label,
which cannot reach that far; the check expects it to fail to assemble.
Usage: gen.py N_FILLER [old] > file.c"""
import sys

n = int(sys.argv[1])
old = len(sys.argv) > 2 and sys.argv[2] == 'old'
print('// SPDX-License-Identifier: GPL-2.0')
print('#include <linux/rcupdate.h>')
print('#include <linux/compiler.h>')
if old:
    # The first shape of pcpu_rcu_nesting_dec_and_test(): beq %l[...]
    print('''
static __always_inline bool old_dec_and_test(void)
{
	asm goto("lwz	9,%0(13)\\n\\t"
		 "addic.	9,9,-1\\n\\t"
		 "stw	9,%0(13)\\n\\t"
		 "beq	%l[outermost]"
		 : : "i" (offsetof(struct paca_struct, rcu_preempt.count))
		 : "r9", "cr0", "xer", "memory"
		 : outermost);
	return false;
outermost:
	return pcpu_rcu_preempt_special_test();
}
#define UNLOCK() do { if (unlikely(old_dec_and_test())) __rcu_read_unlock_special(); } while (0)''')
else:
    print('#define UNLOCK() rcu_read_unlock()')
print('''
int far_branch_sink;
noinline void far_branch_big(int x);
noinline void far_branch_big(int x)
{
	rcu_read_lock();
	UNLOCK();''')
# Filler the compiler counts (one instruction each), so that its own
# branches are laid out right and only the asm goto's reach is at stake.
for i in range(n):
    print(f'\tasm volatile("addi %0,%0,{i % 512}" : "+r" (x));')
print('\tWRITE_ONCE(far_branch_sink, x);')
print('}')
