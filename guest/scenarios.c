// SPDX-License-Identifier: GPL-2.0
/* Scenarios that read or drive the kernel through /proc, /sys and debugfs. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib.h"
#include "scenarios.h"

#define KUNIT_DIR "/sys/kernel/debug/kunit"
#define PREEMPT_FILE "/sys/kernel/debug/sched/preempt"

/* KUnit ran at boot; each suite's KTAP is in debugfs. */
int kunit(void)
{
	static char buf[65536];
	int suites = 0, failed = 0, tests = 0, tfail = 0, tskip = 0;
	struct dirent *d;
	DIR *dir = opendir(KUNIT_DIR);

	if (!dir)
		return result(SKIP, "no %s: KUnit not built in", KUNIT_DIR);
	while ((d = readdir(dir))) {
		char path[512], *l, *last = NULL;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), KUNIT_DIR "/%s/results", d->d_name);
		if (read_str(path, buf, sizeof(buf)) < 0)
			continue;
		suites++;
		for (l = strtok(buf, "\n"); l; l = strtok(NULL, "\n")) {
			/* Test cases are indented once; the suite's own line is not. */
			if (!strncmp(l, "    ok ", 7) || !strncmp(l, "    not ok ", 11)) {
				tests++;
				tfail += l[4] == 'n';
				tskip += !!strstr(l, "# SKIP");
				if (l[4] == 'n')
					diag("kunit: %s:%s", d->d_name, l + 4);
			} else if (!strncmp(l, "ok ", 3) || !strncmp(l, "not ok ", 7)) {
				last = l;
			}
		}
		if (!last || strncmp(last, "ok ", 3)) {
			failed++;
			diag("kunit: suite %s: %s", d->d_name, last ? last : "no result line");
		} else {
			diag("kunit: %s", last);
		}
	}
	closedir(dir);
	if (!suites)
		return result(SKIP, "no KUnit suite ran");
	if (failed || tfail)
		return result(FAIL, "%d of %d suites failed, %d of %d tests", failed, suites, tfail, tests);
	return result(PASS, "%d suites, %d tests, %d skipped", suites, tests, tskip);
}

/* All the CPUs QEMU was given are online. */
int smp(void)
{
	const char *want = cmdline_get("guest.cpus");
	int n = online_cpus();

	if (!want)
		return result(SKIP, "no guest.cpus= on the command line");
	if (n != atoi(want))
		return result(FAIL, "%d CPUs online, QEMU has %s", n, want);
	return result(PASS, "%d CPUs online", n);
}

/* The mode in parentheses of /sys/kernel/debug/sched/preempt, e.g. "full (lazy)". */
int preempt_get(char *mode, size_t size)
{
	char buf[128], *open, *close;
	int ret = read_str(PREEMPT_FILE, buf, sizeof(buf));

	if (ret < 0)
		return ret;
	open = strchr(buf, '(');
	close = open ? strchr(open, ')') : NULL;
	if (!close)
		return -EINVAL;
	snprintf(mode, size, "%.*s", (int)(close - open - 1), open + 1);
	return 0;
}

int preempt_set(const char *mode)
{
	char now[32];
	int ret = write_str(PREEMPT_FILE, mode);

	if (ret)
		return ret;
	ret = preempt_get(now, sizeof(now));
	if (ret)
		return ret;
	return strcmp(now, mode) ? -EINVAL : 0;
}

/* The boot mode matches preempt= (default lazy); full <-> lazy at runtime under load. */
int preempt_modes(void)
{
	const char *want = cmdline_get("preempt");
	char mode[32], all[128];
	int rounds = 20, ret, i;
	pid_t spin[4];

	if (read_str(PREEMPT_FILE, all, sizeof(all)) < 0 || preempt_get(mode, sizeof(mode)))
		return result(FAIL, "cannot read %s (PREEMPT_DYNAMIC and DEBUG_FS needed)", PREEMPT_FILE);
	all[strcspn(all, "\n")] = 0;
	diag("preempt: %s reads '%s', command line preempt=%s", PREEMPT_FILE, all, want ? want : "(none)");
	if (strcmp(mode, want ? want : "lazy"))
		return result(FAIL, "boot mode is %s, expected %s", mode, want ? want : "lazy (the default)");

	spin_start(spin, 4, -1);
	for (i = 0; i < rounds; i++) {
		const char *m = i % 2 ? mode : (strcmp(mode, "full") ? "full" : "lazy");

		ret = preempt_set(m);
		if (ret) {
			spin_stop(spin, 4);
			preempt_set(mode);
			return result(FAIL, "switch %d to %s: %s", i + 1, m, strerror(-ret));
		}
		sleep_ms(20);
	}
	if (spin_stop(spin, 4))
		return result(FAIL, "a load process died while switching modes");
	return result(PASS, "boot mode %s; %d runtime switches full<->lazy under load read back", mode, rounds);
}

static int cpu_online_set(int cpu, int on)
{
	char path[128], buf[8];
	int ret, tries = 0;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	do {
		ret = write_str(path, on ? "1" : "0");
		if (ret == -EBUSY || ret == -EAGAIN)
			sleep_ms(20);
	} while ((ret == -EBUSY || ret == -EAGAIN) && ++tries < 5);
	if (ret)
		return ret;
	if (read_str(path, buf, sizeof(buf)) < 0 || atoi(buf) != on)
		return -EIO;
	return 0;
}

/* Offline and online every non-boot CPU, over and over, while a load runs. */
int hotplug(void)
{
	const char *t = cmdline_get("guest.hotplug");
	int want = t ? atoi(t) : 120, n = possible_cpus(), done = 0, ret = 0, cpu = 0;
	uint64_t start = now_ns();
	pid_t spin[4];

	if (n < 2)
		return result(SKIP, "one CPU only");
	spin_start(spin, 4, -1);
	while (done < want && !ret) {
		for (cpu = 1; cpu < n && !ret; cpu++) {
			ret = cpu_online_set(cpu, 0);
			if (!ret) {
				done++;
				ret = cpu_online_set(cpu, 1);
				done += !ret;
			}
		}
	}
	if (spin_stop(spin, 4))
		return result(FAIL, "a load process died during hotplug");
	if (ret)
		return result(FAIL, "cpu%d after %d transitions: %s", cpu - 1, done, strerror(-ret));
	if (online_cpus() != n)
		return result(FAIL, "%d of %d CPUs online after hotplug", online_cpus(), n);
	return result(PASS, "%d transitions of CPUs 1-%d in %.1f s under load; all %d online",
		      done, n - 1, (now_ns() - start) / 1e9, n);
}

/* Lockdep still on: a lockdep report or DEBUG_LOCKS_WARN_ON turns it off for good. */
int lockdep_alive(void)
{
	static char buf[8192];
	char *p;

	if (read_str("/proc/lockdep_stats", buf, sizeof(buf)) < 0)
		return result(SKIP, "no /proc/lockdep_stats: lockdep not built in");
	p = strstr(buf, "debug_locks:");
	if (!p)
		return result(FAIL, "no debug_locks line in /proc/lockdep_stats");
	p += strlen("debug_locks:");
	if (atoi(p) != 1)
		return result(FAIL, "debug_locks: %d: lockdep turned itself off (see the first splat on the console)", atoi(p));
	return result(PASS, "debug_locks: 1");
}

/*
 * Runs a KUnit suite again, synchronously, by writing its debugfs 'run'
 * file, and reads that run's KTAP into buf. Returns 0, -ENOENT if the
 * kernel has no such suite, or another -errno.
 */
int kunit_rerun(const char *suite, char *buf, size_t size)
{
	char path[256];
	int ret;

	snprintf(path, sizeof(path), KUNIT_DIR "/%s/run", suite);
	if (access(path, W_OK))
		return -ENOENT;
	ret = write_str(path, "1");
	if (ret)
		return ret;
	snprintf(path, sizeof(path), KUNIT_DIR "/%s/results", suite);
	return read_str(path, buf, size) < 0 ? -EIO : 0;
}

#define REPLAY_SUITE "powerpc_irq_replay"

/*
 * The series' replay test (powerpc_irq_replay) once more, after a switch to
 * mode: it ran at boot in the boot's mode only. Writing its debugfs 'run'
 * file runs it again, synchronously; 'results' then holds that run's KTAP.
 */
static int irq_replay(const char *mode)
{
	static char buf[16384];
	char boot_mode[32], *l, *info = NULL;
	int ret, status = -1;

	if (access(KUNIT_DIR "/" REPLAY_SUITE "/run", W_OK))
		return result(SKIP, "no suite %s: kernel without the replay test", REPLAY_SUITE);
	if (preempt_get(boot_mode, sizeof(boot_mode)))
		return result(FAIL, "cannot read the preempt mode");
	ret = preempt_set(mode);
	if (ret)
		return result(FAIL, "cannot switch to %s mode: %s", mode, strerror(-ret));
	ret = kunit_rerun(REPLAY_SUITE, buf, sizeof(buf));
	preempt_set(boot_mode);
	if (ret)
		return result(FAIL, "rerun of %s: %s", REPLAY_SUITE, strerror(-ret));
	diag_text("irq-replay: ", buf, 12);
	for (l = strtok(buf, "\n"); l; l = strtok(NULL, "\n")) {
		if (strstr(l, "# replay_preempts: CPU"))
			info = strstr(l, "CPU");
		else if (!strncmp(l, "    ok ", 7) && strstr(l, " replay_preempts"))
			status = strstr(l, "# SKIP") ? SKIP : PASS;
		else if (!strncmp(l, "    not ok ", 11) && strstr(l, " replay_preempts"))
			status = FAIL;
	}
	if (status < 0)
		return result(FAIL, "no replay_preempts result from %s", REPLAY_SUITE);
	return result(status, "%s mode: %s", mode, info ? info : "(no trial counts)");
}

int irq_replay_full(void) { return irq_replay("full"); }
int irq_replay_lazy(void) { return irq_replay("lazy"); }
