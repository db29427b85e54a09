#!/bin/bash
# scripts/bpf-header.sh must fail on the base's bpf_experimental.h, which reads
# thread_info.preempt_count: a field ppc64 no longer has with the series.
. "$(dirname "$0")/../scripts/common.sh"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
if "$TOP/scripts/bpf-header.sh" base >"$out" 2>&1; then
	cat "$out"
	echo "FAIL: bpf-header.sh passed the base header"
	exit 1
fi
cat "$out"
grep -q "no member named 'preempt_count' in 'struct thread_info'" "$out" ||
	{ echo "FAIL: bpf-header.sh failed the base header for another reason"; exit 1; }
echo "PASS: bpf-header.sh fails the base header, which reads thread_info.preempt_count"
