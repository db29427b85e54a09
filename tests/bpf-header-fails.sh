#!/bin/bash
# Self-test of scripts/check/bpf-header.sh, which judges bpf_experimental.h by what the
# kernel of the same commit has. On commits made on the base in a scratch work
# tree: the base passes (no PACA count, no select: thread_info is read); a
# kernel with the count in the PACA and the base header fails (the header does
# not compile against that kernel's types); a header that does not read the
# count at all fails, with and without the PACA count; a Kconfig that selects
# HAS_SEPARATE_PREEMPT_RESCHED_BITS with the base's one-bit NMI_BITS fails.
. "$(dirname "$0")/lib.sh"
setup

# Commits the work tree's changes on top of REF (detached) and prints the commit.
commit_on() {
	local ref=$1 msg=$2
	shift 2
	git -C "$LINUX" checkout -q -f --detach "$ref"
	"$@"
	git -C "$LINUX" commit -q -a -m "$msg" -m "$SOB"
	git -C "$LINUX" rev-parse HEAD
}
paca_count() { # the count in struct paca_struct, as the series has it
	sed -i 's/^struct paca_struct {$/&\n\tstruct {\n\t\tu32 count;\n\t} preempt;/' \
		"$LINUX/arch/powerpc/include/asm/paca.h"
}
header_reads_nothing() { # powerpc's get_preempt_count() returns 0
	awk '/^#elif defined\(bpf_target_powerpc\)$/ { print; getline; print "\treturn 0;"; next } { print }' \
		"$LINUX/tools/testing/selftests/bpf/bpf_experimental.h" >"$T/h" &&
		cp "$T/h" "$LINUX/tools/testing/selftests/bpf/bpf_experimental.h"
}
select_bits() { # powerpc selects HAS_SEPARATE_PREEMPT_RESCHED_BITS
	sed -i '/^config PPC$/,/^$/ s/^\tdefault y$/&\n\tselect HAS_SEPARATE_PREEMPT_RESCHED_BITS\tif PPC64 \&\& PREEMPT_COUNT/' \
		"$LINUX/arch/powerpc/Kconfig"
}
# Runs bpf-header.sh on a ref that must pass / fail; output in $T/out.
expect_pass() {
	"$TOP/scripts/check/bpf-header.sh" "$2" >"$T/out" 2>&1 || { cat "$T/out"; fail "$1: bpf-header.sh failed"; }
	cat "$T/out"
}

expect_pass "the base" base
expect_line "struct paca_struct has no preempt count: rule \(b\)"
expect_line "does not select HAS_SEPARATE_PREEMPT_RESCHED_BITS: rule \(c\) does not apply"
expect_line "^bpf-header: bpfeb: compiles; reads thread_info's preempt_count \(task_struct.thread_info.preempt_count\)$"
pass "the base header passes on the base: it reads thread_info's preempt_count"

paca=$(commit_on base "selftest: the preempt count in the PACA" paca_count)
expect_fail "the base header on a kernel with the PACA count" "$TOP/scripts/check/bpf-header.sh" "$paca"
expect_line "struct paca_struct has the preempt count \('preempt'\)"
expect_line "no member named 'preempt_count' in 'struct thread_info'"
expect_line "^bpf-header: bpfel: rule \(a\): .* does not compile for powerpc$"
pass "the base header fails on a kernel with the count in the PACA: it does not compile"

nothing=$(commit_on base "selftest: a header that reads no count" header_reads_nothing)
expect_fail "a header reading no count, no PACA count" "$TOP/scripts/check/bpf-header.sh" "$nothing"
expect_line "^bpf-header: bpfel: no read of thread_info's preempt_count"
pass "a header that does not read thread_info's preempt_count fails on a kernel that has it"

both=$(commit_on "$paca" "selftest: a header that reads no count" header_reads_nothing)
expect_fail "a header reading no count, PACA count" "$TOP/scripts/check/bpf-header.sh" "$both"
expect_line "^bpf-header: bpfeb: no read through paca_ptrs$"
expect_line "^bpf-header: bpfeb: no CO-RE access to paca_struct___local$"
pass "a header that does not read the PACA fails on a kernel with the count in the PACA"

sel=$(commit_on base "selftest: powerpc selects HAS_SEPARATE_PREEMPT_RESCHED_BITS" select_bits)
expect_fail "the base header with the select" "$TOP/scripts/check/bpf-header.sh" "$sel"
expect_line "arch/powerpc/Kconfig selects HAS_SEPARATE_PREEMPT_RESCHED_BITS: rule \(c\)"
expect_line "^bpf-header: bpfel: NMI_BITS does not follow CONFIG_HAS_SEPARATE_PREEMPT_RESCHED_BITS$"
pass "a one-bit NMI_BITS fails on a kernel that selects HAS_SEPARATE_PREEMPT_RESCHED_BITS"
