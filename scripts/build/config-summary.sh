#!/bin/bash
# One line per kernel output folder: how many options its .config sets to y,
# and which of the main ones (platform, MMU, endianness, preemption, RCU,
# sanitizers, -Os). make check-wide's outputs list their randconfig seeds so.
# Usage: config-summary.sh DIR...
. "$(dirname "$0")/../common.sh"
main='PPC_BOOK3S_64|PPC_BOOK3E_64|PPC_POWERNV|PPC_PSERIES|PPC_64S_HASH_MMU|PPC_RADIX_MMU|CPU_BIG_ENDIAN|CPU_LITTLE_ENDIAN|PPC_BOOK3S_32|44x|PPC_85xx|PPC_8xx|40x|SMP|PREEMPT|PREEMPT_LAZY|PREEMPT_VOLUNTARY|PREEMPT_NONE|PREEMPT_DYNAMIC|PREEMPT_RCU|MODULES|FUNCTION_TRACER|KASAN|KCSAN|LOCKDEP|CC_OPTIMIZE_FOR_SIZE|HIBERNATION'
for d; do
	c=$d/.config
	[ -f "$c" ] || die "config-summary: no $c"
	on=$(grep -oE "^CONFIG_($main)=y" "$c" || true)
	printf '#   %s: %s options =y:' "${d##*/}" "$(grep -c '=y$' "$c")"
	sed 's/^CONFIG_/ /;s/=y//' <<<"$on" | tr -d '\n'
	echo
done
