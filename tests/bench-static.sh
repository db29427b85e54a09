#!/bin/bash
# Self-test of scripts/bench/bench_static.py: the fast-path slices of a base-shaped
# and a patched-shaped disassembly (tests/bench/*.dis) give the issue's
# figures: base 4/6/9 with the limits missed and shown, patched 3/5/8 within.
# tests/bench/rcu.dis: the read-side sections of named callers, one as the
# compiler emits it today (__task_pid_nr_ns, from a bench-le-rcu vmlinux: 3 + 8,
# the compare and the flag named, the frame of a leaf), one at the limit
# (kill_pid_info_type, hand-written: ld, addic., stw, beq); and the fast path of
# an arch_local_irq_restore() without a frame (series-rcu patch 4's shape),
# from its local entry. base.dis has a caller whose readers are calls.
. "$(dirname "$0")/../scripts/common.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
for k in base patched rcu; do
	mkdir -p "$tmp/$k/include/generated"
	echo '#define PACACURRENT 2312 /* offsetof(struct paca_struct, __current) */' \
		>"$tmp/$k/include/generated/asm-offsets.h"
	# Any small ppc64le ELF will do for 'size'; the disassembly is the test's.
	printf 'int main(void) { return 0; }\n' >"$tmp/m.c"
	powerpc64le-linux-gnu-gcc -O2 -o "$tmp/$k/vmlinux" "$tmp/m.c" || die "no ppc64le compiler"
	touch -d '1 hour ago' "$tmp/$k/vmlinux"
	cp "$TOP/tests/bench/$k.dis" "$tmp/$k/vmlinux.dis"
	rcu=()	# as bench.sh: the RCU word's offset for the kernel that has it
	[ "$k" != rcu ] || rcu=(--rcu-offset 2416)
	if ! python3 "$TOP/scripts/bench/bench_static.py" --name "$k" "${rcu[@]}" \
		--callers __task_pid_nr_ns,kill_pid_info_type,fdget_pos "$tmp/$k" _raw_spin_lock _raw_spin_unlock >"$tmp/$k.txt"; then
		echo "FAIL: bench_static.py exited non-zero on $k"; fail=1
	fi
	cat "$tmp/$k.txt"
done
expect() {	# FILE REGEX
	if grep -qE "$2" "$1"; then echo "ok: ${1##*/}: $2"; else echo "FAIL: ${1##*/}: no match for $2"; fail=1; fi
}
expect "$tmp/base.txt" '_raw_spin_lock .* current_loads 1 disable 4 '
expect "$tmp/base.txt" '_raw_spin_unlock .* nested 6 nested_loads 2 zero 9 zero_loads 3 flags_load yes'
expect "$tmp/base.txt" 'functions_missing_limits 2'
expect "$tmp/base.txt" '^#   \* [0-9a-f]+: ld r9,128\(r10\)'
expect "$tmp/patched.txt" '_raw_spin_lock .* current_loads 0 disable 3 '
expect "$tmp/patched.txt" '_raw_spin_unlock .* nested 5 nested_loads 1 zero 8 zero_loads 2 flags_load no'
expect "$tmp/patched.txt" 'functions_missing_limits 0'
expect "$tmp/rcu.txt" 'section:__task_pid_nr_ns rcu_lock 3 rcu_unlock 5 rcu_unlock_zero 8 rcu_pair 11 rcu_limit 7 frame 4$'
expect "$tmp/rcu.txt" '^#   c0000000000be16c: cmpwi r9,0  \[test\]'
expect "$tmp/rcu.txt" '^#   c0000000000be174: lwz r9,2420\(r13\)  \[flag\]'
expect "$tmp/rcu.txt" '^#   c0000000000be0f4: stdu r1,-48\(r1\)  \[frame\]'
expect "$tmp/rcu.txt" 'section:kill_pid_info_type rcu_lock 3 rcu_unlock 4 rcu_unlock_zero 4 rcu_pair 7 rcu_limit 7 frame 0$'
expect "$tmp/rcu.txt" 'section:fdget_pos absent'
expect "$tmp/rcu.txt" '^STATIC rcu fast_path:arch_local_irq_restore 9$'
# The base's readers are calls: the call and the callee from its local entry.
expect "$tmp/base.txt" 'section:__task_pid_nr_ns rcu_lock 6 rcu_unlock 7 rcu_pair 13 frame 8$'
expect "$tmp/base.txt" '^# __task_pid_nr_ns: __rcu_read_unlock: 7 instructions \[call\]'
expect "$tmp/patched.txt" 'section:__task_pid_nr_ns absent'
if grep -q '^# kill_pid_info_type: outermost' "$tmp/rcu.txt"; then
	echo "FAIL: rcu.txt: kill_pid_info_type is at the limit, yet listed above it"; fail=1
fi
exit $fail
