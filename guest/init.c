// SPDX-License-Identifier: GPL-2.0
/*
 * PID 1 of the boot-test guests: mounts the pseudo filesystems, runs the
 * scenarios picked by guest.run= (default: all), prints one KTAP line per
 * scenario through /dev/kmsg, ends with GUEST-DONE and powers off.
 * guest.shell=1 starts a busybox shell at the end (make boot).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib.h"
#include "scenarios.h"

static const struct scenario {
	const char *name;
	int (*run)(void);
	int load;	/* runs under the PMU event */
} scenarios[] = {
	{ "kunit", kunit, 0 },
	{ "smp", smp, 0 },
	{ "preempt-modes", preempt_modes, 0 },
	{ "hotplug", hotplug, 0 },
	/* After hotplug: CPU 1 has been offlined and onlined many times. */
	{ "irqexit-full", irqexit_full, 0 },
	{ "irqexit-lazy", irqexit_lazy, 0 },
	{ "irq-replay-full", irq_replay_full, 0 },
	{ "irq-replay-lazy", irq_replay_lazy, 0 },
	{ "nmi-storm", nmi_storm, 0 },
	{ "churn", churn, 1 },
	{ "stress-ng-kill", stress_kill, 1 },
	{ "hackbench-process-socket", hackbench_process_socket, 1 },
	{ "hackbench-process-pipe", hackbench_process_pipe, 1 },
	{ "hackbench-thread-socket", hackbench_thread_socket, 1 },
	{ "hackbench-thread-pipe", hackbench_thread_pipe, 1 },
	{ "pmu", NULL, 0 },
	/*
	 * The test-full guests' scenarios (guest/nmi.c, guest/kexec.c,
	 * guest/torture.c): only when guest.run= names them;
	 * before lockdep-alive, which checks that they left lockdep on.
	 */
	{ "nmi-ipi", nmi_ipi, 0 },
	{ "kexec", kexec_scenario, 0 },
	{ "kdump", kdump, 0 },
	{ "kdump-capture", kdump_capture, 0 },
	{ "torture-rcu", torture_rcu, 0 },
	{ "torture-lock", torture_lock, 0 },
	{ "kvm-l2", kvm_l2, 0 },
	{ "lockdep-alive", lockdep_alive, 0 },
	/*
	 * The user's kernel (guest/selinux.c): only when guest.run= names it;
	 * before the bench's scenarios, which make bench's user profile runs
	 * under its policy, and user-selinux-end after them (still enforcing).
	 */
	{ "user-selinux", user_selinux, 0 },
	/* make bench (guest/bench.c): only when guest.run= names them. */
	{ "bench-count", bench_count, 0 },
	{ "bench-load", bench_load, 0 },
	{ "bench-trace", bench_trace, 0 },
	{ "user-selinux-end", user_selinux_end, 0 },
};
#define N_SCENARIOS (int)(sizeof(scenarios) / sizeof(scenarios[0]))

static void mount_fs(const char *src, const char *dir, const char *type)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, 0, NULL) && errno != EBUSY)
		diag("mount %s on %s: %s", type, dir, strerror(errno));
}

/* guest.run= is a comma-separated list of shell patterns. */
static int selected(const char *name)
{
	const char *run = cmdline_get("guest.run");
	char pat[256], *p, *save;

	if (!run)
		return !cmdline_get("guest.shell") && strncmp(name, "bench-", 6) && strncmp(name, "torture-", 8) &&
		       strncmp(name, "kexec", 5) && strncmp(name, "kdump", 5) && strcmp(name, "nmi-ipi") &&
		       strncmp(name, "kvm", 3) && strncmp(name, "user-", 5);
	snprintf(pat, sizeof(pat), "%s", run);
	for (p = strtok_r(pat, ",", &save); p; p = strtok_r(NULL, ",", &save))
		if (!fnmatch(p, name, 0))
			return 1;
	return 0;
}

static void shell(void)
{
	char *sh[] = { "-sh", NULL };
	int st;
	pid_t pid;

	if (access("/bin/busybox", X_OK)) {
		diag("shell: no busybox in this initramfs");
		return;
	}
	if (fork() == 0) {
		execl("/bin/busybox", "busybox", "--install", "-s", "/bin", NULL);
		_exit(127);
	}
	wait(&st);
	diag("shell: busybox sh on hvc0; 'exit' powers the guest off, Ctrl-A X quits QEMU");
	pid = fork();
	if (pid == 0) {
		int fd;

		setsid();
		fd = open("/dev/hvc0", O_RDWR);
		if (fd >= 0) {
			ioctl(fd, TIOCSCTTY, 0);
			dup2(fd, 0), dup2(fd, 1), dup2(fd, 2);
		}
		execv("/bin/busybox", sh);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) != pid)
		;
}

int main(void)
{
	int sel[N_SCENARIOS], n = 0, k = 0, counts[3] = { 0 }, loads = 0, pmu_on = 0, pmu_sel = 0;

	mount_fs("proc", "/proc", "proc");
	mount_fs("sysfs", "/sys", "sysfs");
	mount_fs("devtmpfs", "/dev", "devtmpfs");
	mount_fs("debugfs", "/sys/kernel/debug", "debugfs");
	mount_fs("tmpfs", "/tmp", "tmpfs");
	out_init();
	setenv("PATH", "/usr/bin:/usr/sbin:/bin:/sbin", 1);
	setenv("HOME", "/", 1);

	for (int i = 0; i < N_SCENARIOS; i++)
		if ((sel[i] = selected(scenarios[i].name))) {
			n++;
			pmu_sel |= !scenarios[i].run;
		}
	line("KTAP version 1");
	line("1..%d", n);
	for (int i = 0; i < N_SCENARIOS; i++) {
		const struct scenario *s = &scenarios[i];
		int st;

		if (!sel[i])
			continue;
		if (s->load && pmu_sel && !pmu_on++)
			pmu_start();
		diag("%s: start", s->name);
		reason[0] = 0;
		if (s->run) {
			st = s->run();
		} else {
			if (!pmu_on++)
				pmu_start();
			st = pmu_finish(loads);
		}
		loads += s->load;
		counts[st]++;
		k++;
		if (st == SKIP)
			line("ok %d %s # SKIP %s", k, s->name, reason);
		else
			line("%s %d %s%s%s", st == PASS ? "ok" : "not ok", k, s->name,
			     reason[0] ? " # " : "", reason);
	}
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	diag("%d passed, %d failed, %d skipped", counts[PASS], counts[FAIL], counts[SKIP]);
	if (cmdline_get("guest.shell"))
		shell();
	if (kexec_finish())
		line("not ok %d kexec-finish # the armed kexec or crash did not happen", ++k);
	line("GUEST-DONE");
	sync();
	sleep_ms(200);
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
}
