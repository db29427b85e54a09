/* SPDX-License-Identifier: GPL-2.0 */
/* The scenarios: each returns PASS, FAIL or SKIP and sets the reason. */
#ifndef GUEST_SCENARIOS_H
#define GUEST_SCENARIOS_H

#include <stddef.h>

int kunit(void);
int smp(void);
int preempt_modes(void);
int hotplug(void);
int irqexit_full(void);
int irqexit_lazy(void);
int irq_replay_full(void);
int irq_replay_lazy(void);
int nmi_storm(void);
int nmi_ipi(void);
int churn(void);
int stress_kill(void);
int hackbench_process_socket(void);
int hackbench_process_pipe(void);
int hackbench_thread_socket(void);
int hackbench_thread_pipe(void);
int lockdep_alive(void);
int bench_count(void);
int bench_load(void);
int bench_trace(void);
int torture_rcu(void);
int kexec_scenario(void);
int kdump(void);
int kdump_capture(void);
/* Run by init after the last scenario: an armed kexec or crash. */
int kexec_finish(void);
int torture_lock(void);
int kvm_l2(void);
/* guest/selinux.c: the user's kernel (issue 58). */
int user_selinux(void);
int user_selinux_end(void);

/* guest/bench.c, shared with guest/trace.c: a bench.X= setting, one message. */
const char *bench_opt(const char *key);
long bench_param(const char *key, long def);
int bench_msg(int wfd, int rfd);
/* The other loops, as steps (0: done, else failed): getppid(), a 1-byte read. */
int bench_null(void *arg);
int bench_read1(void *arg);
/* A byte sent to a second task and back: two context switches on 1 vCPU. */
struct pingpong {
	int to[2], from[2];
	int pid;
};
int pingpong_start(struct pingpong *pp);
int bench_pingpong(void *arg);
int pingpong_fifo(struct pingpong *pp, int on);
void pingpong_stop(struct pingpong *pp);

/* The PMU event spans the load scenarios: opened before, checked after. */
void pmu_start(void);
int pmu_finish(int loads_ran);

/* guest/scenarios.c: a KUnit suite run again from debugfs, its KTAP in buf. */
int kunit_rerun(const char *suite, char *buf, size_t size);

int preempt_get(char *mode, size_t size);
int preempt_set(const char *mode);

#endif
