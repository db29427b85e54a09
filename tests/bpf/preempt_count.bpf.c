// SPDX-License-Identifier: GPL-2.0
/* Uses every preempt-count helper of bpf_experimental.h (scripts/check/bpf-header.sh). */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"

char _license[] SEC("license") = "GPL";
int seen;

SEC("tp_btf/sched_switch")
int preempt_count_users(void *ctx)
{
	seen = get_preempt_count() + bpf_in_interrupt() + bpf_in_nmi() +
	       bpf_in_hardirq() + bpf_in_serving_softirq() + bpf_in_task();
	return 0;
}
