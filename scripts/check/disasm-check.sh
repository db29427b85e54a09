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

# The PACA offset of a paca_struct member, compiled as asm-offsets.c is, with
# the build's own command line for it (its .cmd file), on a two-line probe.
paca_offset() {
	local tmp cmd off
	tmp=$(mktemp -d)
	cmd=$(sed -n '1s/^savedcmd_[^ ]* := //p' "$out/arch/powerpc/kernel/.asm-offsets.s.cmd")
	[ -n "$cmd" ] || die "disasm: no compile command in $out/arch/powerpc/kernel/.asm-offsets.s.cmd"
	cmd=${cmd% *}	# without asm-offsets.c
	cmd=${cmd/-Wp,-MMD,arch\/powerpc\/kernel\/.asm-offsets.s.d/}
	cmd=${cmd/-o arch\/powerpc\/kernel\/asm-offsets.s/-o $tmp/probe.s}
	printf '#include <linux/kbuild.h>\n#include <asm/paca.h>\nint main(void)\n{\n\tOFFSET(PROBE, paca_struct, %s);\n\treturn 0;\n}\n' "$1" >"$tmp/probe.c"
	(cd "$out" && eval "$cmd $tmp/probe.c") >"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; rm -rf "$tmp"; die "disasm: cannot compile the offset probe for paca_struct.$1"; }
	off=$(sed -n 's/.*"->PROBE \([0-9][0-9]*\) .*/\1/p' "$tmp/probe.s")
	rm -rf "$tmp"
	[ -n "$off" ] || die "disasm: no offset of paca_struct.$1 in the probe's output"
	echo "$off"
}

dis=$out/vmlinux.dis
if [ ! -s "$dis" ] || [ "$dis" -ot "$vmlinux" ]; then
	say "disasm: objdump -d $vmlinux"
	"${T_CROSS}objdump" -d --no-show-raw-insn "$vmlinux" >"$dis.tmp"
	mv "$dis.tmp" "$dis"
fi
say "disasm: $target: checking preempt count accesses (expect: $expect)"
# The second series' word (CONFIG_PCPU_RCU_PREEMPT_COUNT): the same rule.
words=()
if [ "$expect" = paca ] && grep -qx 'CONFIG_PCPU_RCU_PREEMPT_COUNT=y' "$out/.config"; then
	words=(--word "rcu:$(paca_offset rcu_preempt_count)")
fi
python3 "$TOP/scripts/check/preempt_sites.py" check "$dis" "$current" --expect "$expect" "${words[@]}"
