// SPDX-License-Identifier: GPL-2.0
/*
 * The torture scenarios (guest.run=torture-*, never run by default): the
 * kernel's own rcutorture and locktorture, built as modules by the torture
 * targets (kernel/configs/torture.config) and packed into /lib/modules of
 * the initramfs. Each run loads the module with its parameters, lets it run,
 * and unloads it: the module's cleanup prints its own verdict,
 * '<type>-torture:--- End of test: SUCCESS' (or FAILURE, RCU_HOTPLUG,
 * LOCK_HOTPLUG...), and that line is the result.
 * Settings on the kernel command line:
 *   guest.torture_secs=    rcutorture's run (default 120 s); each
 *                          locktorture type runs a third of it
 *   guest.rcutorture_type= default rcu; busted is the negative control
 *   guest.locktorture_types= default spin_lock,mutex_lock,rwsem_lock
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lib.h"
#include "scenarios.h"

static long secs_opt(void)
{
	const char *v = cmdline_get("guest.torture_secs");

	return v && *v ? strtol(v, NULL, 0) : 120;
}

/* Loads /lib/modules/NAME.ko with PARAMS; an already loaded module is fine. */
static int load(const char *name, const char *params)
{
	char path[128];
	int fd, rc;

	snprintf(path, sizeof(path), "/lib/modules/%s.ko", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return result(FAIL, "%s: %s: is this a torture target's initramfs?", path, strerror(errno));
	rc = syscall(SYS_finit_module, fd, params, 0);
	close(fd);
	if (rc && errno != EEXIST)
		return result(FAIL, "finit_module(%s, \"%s\"): %s", name, params, strerror(errno));
	return PASS;
}

static const char *const notes[] = { "Start of test", "!!!", "Reader Pipe:", "Writes:", "Reads:", NULL };
/* Printed when rcutorture leaves a part of its test out: a run that skips one fails. */
static const char *const skips[] = { "Skipping RCU boost test", NULL };

/* Waits for the 'End of test' line into verdict; notes the lines of notes[], and
 * the first of skips[] into skipped. 0, or -1 when none came within timeout_ms. */
static int wait_verdict(int fd, char *verdict, size_t size, long timeout_ms, char *skipped, size_t ssize)
{
	uint64_t end = now_ns() + timeout_ms * 1000000ull;

	while (now_ns() < end) {
		if (kmsg_wait(fd, "", verdict, size, (end - now_ns()) / 1000000 + 1, notes))
			return -1;
		for (int i = 0; skips[i]; i++)
			if (!*skipped && strstr(verdict, skips[i]))
				snprintf(skipped, ssize, "%s", verdict);
		if (strstr(verdict, "End of test:"))
			return 0;
	}
	return -1;
}

/* One module run: load, wait, unload, judge by its 'End of test' line. */
static int torture_run(const char *mod, const char *type, const char *params, long secs)
{
	char p[512], verdict[512], skipped[512] = "";
	int fd = kmsg_open(), rc, early;

	if (fd < 0)
		return result(FAIL, "/dev/kmsg: %s", strerror(errno));
	if (load("torture", "")) {
		close(fd);
		return FAIL;
	}
	snprintf(p, sizeof(p), "torture_type=%s %s", type, params);
	diag("%s: %s for %ld s", mod, p, secs);
	if (load(mod, p)) {
		close(fd);
		return FAIL;
	}
	/* The run, reading kmsg meanwhile: a skip is printed at the start, and
	 * the ring buffer could overwrite it before the end. */
	early = !wait_verdict(fd, verdict, sizeof(verdict), secs * 1000, skipped, sizeof(skipped));
	if (syscall(SYS_delete_module, mod, O_NONBLOCK)) {
		close(fd);
		return result(FAIL, "delete_module(%s): %s", mod, strerror(errno));
	}
	rc = early ? 0 : wait_verdict(fd, verdict, sizeof(verdict), 120000, skipped, sizeof(skipped));
	close(fd);
	/* torture.ko too: its CPU-hotplug counters would carry into the next run. */
	if (syscall(SYS_delete_module, "torture", O_NONBLOCK))
		diag("delete_module(torture): %s", strerror(errno));
	if (rc)
		return result(FAIL, "%s %s: no 'End of test' line within 120 s of the unload", mod, type);
	if (!strstr(verdict, "End of test: SUCCESS"))
		return result(FAIL, "%s", verdict);
	if (*skipped)
		return result(FAIL, "%.200s, but: %.200s", verdict, skipped);
	return result(PASS, "%.200s", verdict);
}

/*
 * rcutorture as TREE03 runs it (tools/testing/selftests/rcutorture/configs/
 * rcu/TREE03.boot): CPU hotplug every 200 jiffies after 30 s (5 s in a short
 * run), readers
 * preempted by an RT task for 10 ms at a time, plus the nesting of its
 * reader segments and the preemption model of the boot.
 */
/*
 * What rcutorture does for its boost test only when it is built in
 * (rcu_torture_disable_rt_throttle(), rcutorture_booster_init()): RT
 * throttling off, and ksoftirqd and (threadirqs) ktimers at SCHED_FIFO 2,
 * above the boost test's FIFO 1 spinners, so that timers, and with them
 * the grace-period kthread's forcing passes that start boosting, still run
 * on a CPU where a spinner runs. Ours is a module: do it from here.
 */
static void boost_setup(void)
{
	struct sched_param sp = { .sched_priority = 2 };
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0, bad = 0;

	if (write_str("/proc/sys/kernel/sched_rt_runtime_us", "-1"))
		diag("rcutorture: cannot turn RT throttling off: %s", strerror(errno));
	while (d && (e = readdir(d))) {
		char path[64], comm[32];
		int pid = atoi(e->d_name);

		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/comm", pid);
		if (read_str(path, comm, sizeof(comm)) < 0)
			continue;
		if (strncmp(comm, "ksoftirqd/", 10) && strncmp(comm, "ktimers/", 8))
			continue;
		if (sched_setscheduler(pid, SCHED_FIFO, &sp))
			bad++;
		else
			n++;
	}
	if (d)
		closedir(d);
	diag("rcutorture: RT throttling off, %d ksoftirqd/ktimers threads at SCHED_FIFO 2%s",
	     n, bad ? " (some refused)" : "");
}

int torture_rcu(void)
{
	const char *v = cmdline_get("guest.rcutorture_type");
	char params[256], type[64];
	long secs;

	snprintf(type, sizeof(type), "%s", v && *v ? v : "rcu");	/* before the next cmdline_get() */
	secs = secs_opt();
	boost_setup();

	snprintf(params, sizeof(params),
		 "onoff_interval=200 onoff_holdoff=%d preempt_duration=10 stat_interval=%ld",
		 secs > 60 ? 30 : 5, secs / 4 > 15 ? secs / 4 : 15L);
	return torture_run("rcutorture", type, params, secs);
}

/* locktorture, each lock type of guest.locktorture_types= in turn, with hotplug. */
int torture_lock(void)
{
	const char *v = cmdline_get("guest.locktorture_types");
	char types[128], list[128], *t, *save, params[128];
	long secs;
	int n = 0;

	snprintf(list, sizeof(list), "%s", v && *v ? v : "spin_lock,mutex_lock,rwsem_lock");
	snprintf(types, sizeof(types), "%s", list);	/* before the next cmdline_get() */
	secs = secs_opt() / 3 > 20 ? secs_opt() / 3 : 20;
	snprintf(params, sizeof(params), "onoff_interval=%d onoff_holdoff=5 stat_interval=%ld",
		 possible_cpus() > 1 ? 3 : 0, secs);
	for (t = strtok_r(types, ",", &save); t; t = strtok_r(NULL, ",", &save), n++)
		if (torture_run("locktorture", t, params, secs))
			return FAIL;
	return result(PASS, "%d lock types, End of test: SUCCESS for each (%s)", n, list);
}
