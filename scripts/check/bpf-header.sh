#!/bin/bash
# The BPF selftests' bpf_experimental.h reads the preempt count: compile a BPF
# program that uses every one of its preempt-count helpers, for a powerpc BPF
# target (little- and big-endian), with clang, against a stand-in vmlinux.h
# (tests/bpf/) that follows the kernel of REF, and judge the header by what
# that kernel has, so that every prefix of the series can be checked:
#  (a) always: the header compiles for bpfel and bpfeb;
#  (b) if REF's struct paca_struct (arch/powerpc/include/asm/paca.h) holds the
#      preempt count: the header reads it through paca_ptrs with the CO-RE type
#      paca_struct___local; if not: it reads thread_info's preempt_count (a
#      CO-RE field relocation ending in thread_info.preempt_count);
#  (c) if REF's arch/powerpc/Kconfig selects HAS_SEPARATE_PREEMPT_RESCHED_BITS:
#      NMI_BITS follows CONFIG_HAS_SEPARATE_PREEMPT_RESCHED_BITS (__kconfig).
# Prints which rules applied.
# Usage: bpf-header.sh [REF]   (REF of $LINUX, a commit or a branch; default: the series branch)
. "$(dirname "$0")/../common.sh"
ref=${1:-$SERIES_BRANCH}
need clang; need readelf; need python3
need_tree "$LINUX"
git -C "$LINUX" rev-parse -q --verify "$ref^{commit}" >/dev/null || die "bpf-header: no '$ref' in $LINUX: run 'make apply'"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bpf"
show() { git -C "$LINUX" show "$ref:$1" >"$2" || die "bpf-header: no $1 at $ref"; }
show tools/testing/selftests/bpf/bpf_experimental.h "$tmp/bpf_experimental.h"
for h in bpf_helpers.h bpf_tracing.h bpf_core_read.h; do show "tools/lib/bpf/$h" "$tmp/bpf/$h"; done
show "$(git -C "$LINUX" ls-tree -r --name-only "$ref" tools/testing/selftests/bpf | grep '/bpf_may_goto\.h$' | sed -n 1p)" "$tmp/bpf_may_goto.h"
show include/uapi/linux/bpf.h "$tmp/uapi-bpf.h"
show scripts/bpf_doc.py "$tmp/bpf_doc.py"
python3 "$tmp/bpf_doc.py" --header --file "$tmp/uapi-bpf.h" >"$tmp/bpf/bpf_helper_defs.h" ||
	die "bpf-header: bpf_doc.py could not generate bpf_helper_defs.h"
cp "$TOP/tests/bpf/vmlinux.h" "$TOP/tests/bpf/preempt_count.bpf.c" "$tmp/"

# What the kernel at REF has. The PACA count: a member 'preempt' or
# 'preempt_count' of struct paca_struct, comments left out.
show arch/powerpc/include/asm/paca.h "$tmp/paca.h"
paca_field=$(awk '/^struct paca_struct[[:space:]]*\{/ { on = 1 } on { print } on && /^\};/ { exit }' "$tmp/paca.h" |
	sed -e 's|/\*.*\*/||g' -e 's|//.*||' | sed -e '/\/\*/,/\*\//d' |
	grep -oE '\<preempt(_count)?[[:space:]]*;' | tr -d ' \t;' | paste -sd, || true)
show arch/powerpc/Kconfig "$tmp/Kconfig"
selects=$(grep -cE '^[[:space:]]*select[[:space:]]+HAS_SEPARATE_PREEMPT_RESCHED_BITS\>' "$tmp/Kconfig" || true)
defs=()
if [ -n "$paca_field" ]; then
	echo "bpf-header: $ref: struct paca_struct has the preempt count ('$paca_field'):" \
		"rule (b): the header must read it through paca_ptrs with CO-RE type paca_struct___local"
	defs+=(-DSTUB_PACA_PREEMPT_COUNT)
else
	echo "bpf-header: $ref: struct paca_struct has no preempt count:" \
		"rule (b): the header must read thread_info's preempt_count"
fi
if [ "$selects" -gt 0 ]; then
	echo "bpf-header: $ref: arch/powerpc/Kconfig selects HAS_SEPARATE_PREEMPT_RESCHED_BITS:" \
		"rule (c): NMI_BITS must follow CONFIG_HAS_SEPARATE_PREEMPT_RESCHED_BITS"
else
	echo "bpf-header: $ref: arch/powerpc/Kconfig does not select HAS_SEPARATE_PREEMPT_RESCHED_BITS: rule (c) does not apply"
fi

bad=0
for t in bpfel bpfeb; do
	obj=$tmp/$t.o
	if ! clang -O2 -g -target "$t" -D__TARGET_ARCH_powerpc "${defs[@]}" -Wno-visibility -I"$tmp" \
		-c "$tmp/preempt_count.bpf.c" -o "$obj" 2>"$tmp/$t.err"; then
		cat "$tmp/$t.err"
		echo "bpf-header: $t: rule (a): bpf_experimental.h at $ref does not compile for powerpc"
		bad=1
		continue
	fi
	miss=() ok=("compiles")
	readelf -rsW "$obj" >"$tmp/$t.elf"	# grep -q on a pipe would SIGPIPE readelf
	python3 "$TOP/scripts/check/bpf_core_relos.py" "$obj" >"$tmp/$t.relos" ||
		die "bpf-header: $t: cannot read the CO-RE relocations of the object"
	if [ -n "$paca_field" ]; then
		if grep -q 'R_BPF.* paca_ptrs' "$tmp/$t.elf" && grep -q ' paca_struct___local\.' "$tmp/$t.relos"; then
			ok+=("reads the count from the PACA ($(grep -m1 'field_byte_offset paca_struct___local\.' "$tmp/$t.relos" | cut -d' ' -f2))")
		else
			grep -q 'R_BPF.* paca_ptrs' "$tmp/$t.elf" || miss+=("no read through paca_ptrs")
			grep -q ' paca_struct___local\.' "$tmp/$t.relos" || miss+=("no CO-RE access to paca_struct___local")
		fi
	else
		if r=$(grep -m1 -E '^field_byte_offset task_struct(___[A-Za-z0-9_]+)?\.thread_info\.preempt_count$' "$tmp/$t.relos"); then
			ok+=("reads thread_info's preempt_count (${r#* })")
		else
			miss+=("no read of thread_info's preempt_count (CO-RE relocations: $(cut -d' ' -f2 "$tmp/$t.relos" | sort -u | paste -sd' '))")
		fi
	fi
	if [ "$selects" -gt 0 ]; then
		if grep -q 'CONFIG_HAS_SEPARATE_PREEMPT_RESCHED_BITS' "$tmp/$t.elf"; then
			ok+=("NMI_BITS from the kconfig")
		else
			miss+=("NMI_BITS does not follow CONFIG_HAS_SEPARATE_PREEMPT_RESCHED_BITS")
		fi
	fi
	if [ ${#miss[@]} -gt 0 ]; then
		for m in "${miss[@]}"; do echo "bpf-header: $t: $m"; done
		bad=1
	else
		echo "bpf-header: $t: $(printf '%s; ' "${ok[@]}" | sed 's/; $//')"
	fi
done
[ "$bad" = 0 ] || die "bpf-header: bpf_experimental.h at $ref does not read the powerpc preempt count as its kernel needs"
say "bpf-header: bpf_experimental.h at $ref: ok"
