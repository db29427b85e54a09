#!/bin/bash
# The BPF selftests' bpf_experimental.h reads the preempt count: compile a BPF
# program that uses every one of its preempt-count helpers, for a powerpc BPF
# target (little- and big-endian), with clang, against a stand-in vmlinux.h
# (tests/bpf/), and check that the object reads the count from the PACA
# (paca_ptrs, CO-RE type paca_struct___local) and takes the NMI width from
# CONFIG_HAS_SEPARATE_PREEMPT_RESCHED_BITS.
# Usage: bpf-header.sh [REF]   (REF of $LINUX, default: the series branch)
. "$(dirname "$0")/common.sh"
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
show "$(git -C "$LINUX" ls-tree -r --name-only "$ref" tools/testing/selftests/bpf | grep -m1 '/bpf_may_goto\.h$')" "$tmp/bpf_may_goto.h"
show include/uapi/linux/bpf.h "$tmp/uapi-bpf.h"
show scripts/bpf_doc.py "$tmp/bpf_doc.py"
python3 "$tmp/bpf_doc.py" --header --file "$tmp/uapi-bpf.h" >"$tmp/bpf/bpf_helper_defs.h" ||
	die "bpf-header: bpf_doc.py could not generate bpf_helper_defs.h"
cp "$TOP/tests/bpf/vmlinux.h" "$TOP/tests/bpf/preempt_count.bpf.c" "$tmp/"

bad=0
for t in bpfel bpfeb; do
	obj=$tmp/$t.o
	if ! clang -O2 -g -target "$t" -D__TARGET_ARCH_powerpc -Wno-visibility -I"$tmp" \
		-c "$tmp/preempt_count.bpf.c" -o "$obj" 2>"$tmp/$t.err"; then
		cat "$tmp/$t.err"
		echo "bpf-header: $t: bpf_experimental.h at $ref does not compile for powerpc"
		bad=1
		continue
	fi
	miss=()
	readelf -rsW "$obj" >"$tmp/$t.elf"	# grep -q on a pipe would SIGPIPE readelf
	grep -q 'R_BPF.* paca_ptrs' "$tmp/$t.elf" || miss+=("no read through paca_ptrs")
	grep -qa 'paca_struct___local' "$obj" || miss+=("no CO-RE type paca_struct___local")
	grep -q 'CONFIG_HAS_SEPARATE_PREEMPT_RESCHED_BITS' "$tmp/$t.elf" ||
		miss+=("NMI_BITS does not follow CONFIG_HAS_SEPARATE_PREEMPT_RESCHED_BITS")
	if [ ${#miss[@]} -gt 0 ]; then
		printf 'bpf-header: %s: %s\n' "$t" "${miss[@]}"
		bad=1
	else
		echo "bpf-header: $t: compiles; reads the count from the PACA; NMI_BITS from the kconfig"
	fi
done
[ "$bad" = 0 ] || die "bpf-header: bpf_experimental.h at $ref does not read the powerpc64 preempt count right"
say "bpf-header: bpf_experimental.h at $ref: ok"
