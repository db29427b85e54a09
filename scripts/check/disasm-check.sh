#!/bin/bash
# The r13 rule, checked on a built vmlinux: every access to the PACA preempt
# word is addressed from r13 itself (never from a copy of it), and no preempt
# count update through current (the generic thread_info count) remains; with
# the second series, the same for its RCU nesting word.
# Usage: disasm-check.sh TARGET [paca|current]   (current: expect the base kernel)
. "$(dirname "$0")/../common.sh"

target=${1:?usage: disasm-check.sh TARGET [paca|current]}
expect=${2:-paca}
target_info "$target"
out=${OUT:-$BUILD/out/$target}
vmlinux=$out/vmlinux
offsets=$out/include/generated/asm-offsets.h
[ -s "$vmlinux" ] || die "disasm: no $vmlinux: run 'OUT=$out scripts/build/build.sh $target' first"
current=$(awk '$2 == "PACACURRENT" { print $3 }' "$offsets")
[ -n "$current" ] || die "disasm: PACACURRENT not found in $offsets"

dis=$out/vmlinux.dis
if [ ! -s "$dis" ] || [ "$dis" -ot "$vmlinux" ]; then
	say "disasm: objdump -d $vmlinux"
	"${T_CROSS}objdump" -d --no-show-raw-insn "$vmlinux" >"$dis.tmp"
	mv "$dis.tmp" "$dis"
fi
say "disasm: $target: checking preempt count accesses (expect: $expect)"
# The second series' word (CONFIG_PCPU_RCU_NESTING): the same rule.
words=()
if [ "$expect" = paca ]; then
	off=$(rcu_word_offset "$out")
	[ -z "$off" ] || words=(--word "rcu:$off")
fi
python3 "$TOP/scripts/check/preempt_sites.py" check "$dis" "$current" --expect "$expect" "${words[@]}"
