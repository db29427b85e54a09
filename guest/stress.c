// SPDX-License-Identifier: GPL-2.0
/*
 * Load scenarios: a C churn of syscalls and context switches (every guest),
 * stress-ng --kill and hackbench (where the initramfs has them), and a
 * sampling PMU event on every CPU for the whole time they run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib.h"
#include "scenarios.h"

static char out[65536];

/* A tool named in guest.need= must be there; any other one may be missing. */
static int missing(const char *tool)
{
	const char *need = cmdline_get("guest.need");
	char path[128];

	snprintf(path, sizeof(path), "/usr/bin/%s", tool);
	if (!access(path, X_OK))
		return PASS;
	if (need && strstr(need, tool))
		return result(FAIL, "%s is not in the initramfs, but guest.need= asks for it", tool);
	return result(SKIP, "no %s in this initramfs", tool);
}

static int run_tool(char *const argv[], int timeout_s, const char *progress)
{
	uint64_t start = now_ns();
	int st = run_cmd(argv, timeout_s, out, sizeof(out));
	const char *p = strstr(out, progress);

	diag_text("  ", out, 6);
	if (st < 0)
		return result(FAIL, "cannot run %s", argv[0]);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		return result(FAIL, "%s: %s %d after %.1f s", argv[0],
			      WIFEXITED(st) ? "exit status" : "killed by signal",
			      WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), (now_ns() - start) / 1e9);
	if (!p)
		return result(FAIL, "%s exited 0 but printed no '%s' line", argv[0], progress);
	return result(PASS, "exit 0 in %.1f s, %.*s", (now_ns() - start) / 1e9,
		      (int)strcspn(p, "\n"), p);
}

int stress_kill(void)
{
	char *argv[] = { "stress-ng", "--kill", "1", "-t", "10", "--metrics-brief",
			 "--temp-path", "/tmp", NULL };

	int st = missing("stress-ng");

	if (st)
		return st;
	return run_tool(argv, 120, "kill ");
}

static int hackbench(char *mode, char *kind)
{
	char *argv[] = { "hackbench", "-g", "2", "-f", "10", "-l", "500", mode, kind, NULL };

	int st = missing("hackbench");

	if (st)
		return st;
	return run_tool(argv, 180, "Time:");
}

int hackbench_process_socket(void) { return hackbench("-P", NULL); }
int hackbench_process_pipe(void) { return hackbench("-P", "-p"); }
int hackbench_thread_socket(void) { return hackbench("-T", NULL); }
int hackbench_thread_pipe(void) { return hackbench("-T", "-p"); }

/*
 * churn: pairs of processes ping-pong a byte over pipes (wakeups, context
 * switches, migrations) and others loop on cheap syscalls and yields.
 */
#define CHURN_WORKERS 6
struct churn { volatile int stop; volatile unsigned long ops[CHURN_WORKERS]; };

static void churn_worker(struct churn *c, int i, int rfd, int wfd)
{
	char b = 0;

	while (!c->stop) {
		if (rfd >= 0) {
			if ((i & 1) && write(wfd, &b, 1) != 1)
				_exit(1);
			if (read(rfd, &b, 1) != 1)
				_exit(c->stop ? 0 : 1);
			if (!(i & 1) && write(wfd, &b, 1) != 1)
				_exit(1);
		} else {
			kill(getpid(), 0);
			getppid();
			sched_yield();
		}
		c->ops[i]++;
	}
	_exit(0);
}

static int churn_for(int secs)
{
	struct churn *c = mmap(NULL, sizeof(*c), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int p[2][2], q[2][2], bad = 0, st;
	unsigned long total = 0, least = ~0ul;
	pid_t pid[CHURN_WORKERS];

	if (c == MAP_FAILED)
		return result(FAIL, "mmap: %s", strerror(errno));
	for (int i = 0; i < CHURN_WORKERS; i++) {
		/* Workers 0-3: two ping-pong pairs; 4-5: syscall loops. */
		if (i < 4 && !(i & 1) && (pipe(p[i / 2]) || pipe(q[i / 2])))
			return result(FAIL, "pipe: %s", strerror(errno));
		pid[i] = fork();
		if (pid[i] == 0) {
			if (i < 4)
				churn_worker(c, i, i & 1 ? q[i / 2][0] : p[i / 2][0],
					     i & 1 ? p[i / 2][1] : q[i / 2][1]);
			churn_worker(c, i, -1, -1);
		}
	}
	sleep_ms(secs * 1000);
	c->stop = 1;
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2; j++)
			close(p[i][j]), close(q[i][j]);
	for (int i = 0; i < CHURN_WORKERS; i++) {
		/* A ping-pong worker may wait for a byte that never comes. */
		if (i < 4) {
			sleep_ms(10);
			kill(pid[i], SIGKILL);
		}
		waitpid(pid[i], &st, 0);
		bad += i >= 4 && (!WIFEXITED(st) || WEXITSTATUS(st));
		total += c->ops[i];
		least = c->ops[i] < least ? c->ops[i] : least;
	}
	munmap(c, sizeof(*c));
	if (bad)
		return result(FAIL, "%d syscall workers failed", bad);
	if (!least)
		return result(FAIL, "a worker made no progress in %d s", secs);
	return result(PASS, "%lu operations in %d s by %d processes, the slowest %lu", total, secs,
		      CHURN_WORKERS, least);
}

int churn(void)
{
	const char *s = cmdline_get("guest.churn");

	return churn_for(s ? atoi(s) : 5);
}

/* PMU: a sampling event per CPU, opened before the loads and checked after them. */
#define PMU_PERIOD 200000
#define PMU_PAGES 16
static struct {
	int n, err;
	int fd[64];
	struct perf_event_mmap_page *rb[64];
	long pmi0;
	const char *event;
} pmu;

static long pmi_total(void)
{
	static char buf[16384];
	char *p, *end;
	long sum = 0;

	if (read_str("/proc/interrupts", buf, sizeof(buf)) < 0 || !(p = strstr(buf, "PMI:")))
		return -1;
	for (p += 4;; p = end) {
		long v = strtol(p, &end, 10);

		if (end == p)
			break;
		sum += v;
	}
	return sum;
}

static int pmu_open_period(int cpu, unsigned long config, unsigned long period)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(attr),
		.config = config,
		.sample_period = period,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID,
		.disabled = 1,
	};

	return syscall(SYS_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static int pmu_open(int cpu, unsigned long config)
{
	return pmu_open_period(cpu, config, PMU_PERIOD);
}

void pmu_start(void)
{
	int cpus = online_cpus();
	unsigned long config = PERF_COUNT_HW_INSTRUCTIONS;

	pmu.event = "instructions";
	for (int cpu = 0; cpu < cpus && cpu < 64; cpu++) {
		int fd = pmu_open(cpu, config);

		if (fd < 0 && cpu == 0) {
			config = PERF_COUNT_HW_CPU_CYCLES;
			pmu.event = "cycles";
			fd = pmu_open(cpu, config);
		}
		if (fd < 0) {
			pmu.err = errno;
			return;
		}
		pmu.fd[pmu.n] = fd;
		pmu.rb[pmu.n] = mmap(NULL, (PMU_PAGES + 1) * 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (pmu.rb[pmu.n] == MAP_FAILED) {
			pmu.err = errno;
			return;
		}
		pmu.n++;
	}
	pmu.pmi0 = pmi_total();
	for (int i = 0; i < pmu.n; i++)
		ioctl(pmu.fd[i], PERF_EVENT_IOC_ENABLE, 0);
}

int pmu_finish(int loads_ran)
{
	unsigned long long count = 0, samples = 0, v;
	long pmi;

	if (pmu.err && !pmu.n)
		return result(SKIP, "perf_event_open(%s, sampling) fails: %s (errno %d): no PMU in this guest",
			      pmu.event, strerror(pmu.err), pmu.err);
	if (pmu.err)
		return result(FAIL, "PMU setup on CPU %d: %s", pmu.n, strerror(pmu.err));
	if (!loads_ran) {
		diag("pmu: no load scenario ran: churn for 3 s");
		churn_for(3);
	}
	for (int i = 0; i < pmu.n; i++) {
		ioctl(pmu.fd[i], PERF_EVENT_IOC_DISABLE, 0);
		if (read(pmu.fd[i], &v, sizeof(v)) == sizeof(v))
			count += v;
		samples += pmu.rb[i]->data_head;
		munmap(pmu.rb[i], (PMU_PAGES + 1) * 4096);
		close(pmu.fd[i]);
	}
	pmi = pmi_total() - pmu.pmi0;
	diag("pmu: %s on %d CPUs, sample_period %d: count %llu, %llu bytes of samples, %ld PMIs",
	     pmu.event, pmu.n, PMU_PERIOD, count, samples, pmi);
	if (!count)
		return result(FAIL, "the %s count stayed 0", pmu.event);
	if (pmi <= 0 || !samples)
		return result(FAIL, "no PMU interrupt (%ld PMIs, %llu bytes of samples) for %llu %s",
			      pmi, samples, count, pmu.event);
	return result(PASS, "%llu %s, %ld PMU interrupts during the loads", count, pmu.event, pmi);
}

#define STORM_PERIOD	20000	/* cycles between PMIs */
#define STORM_RUNS	5
#define PREEMPT_SUITE	"powerpc_preempt"

/*
 * The series' KUnit suite, run again and again from debugfs while every CPU
 * takes PMIs as fast as the PMU gives them. Its NMI cases push the NMI field
 * to its full depth: a PMI taken there (as an NMI, even when interrupts are
 * only soft-masked) would overflow the field and BUG in nmi_exit(), unless
 * the suite hard-disables around them.
 */
int nmi_storm(void)
{
	static char buf[65536];
	int fd[64], n = 0, bad = 0, runs;
	long pmi0, pmi;

	if (access("/sys/kernel/debug/kunit/" PREEMPT_SUITE "/run", W_OK))
		return result(SKIP, "no suite %s: kernel without the series' suite", PREEMPT_SUITE);
	/* No throttling of the PMIs by the time they take */
	write_str("/proc/sys/kernel/perf_cpu_time_max_percent", "0");
	for (int cpu = 0; cpu < online_cpus() && n < 64; cpu++) {
		fd[n] = pmu_open_period(cpu, PERF_COUNT_HW_CPU_CYCLES, STORM_PERIOD);
		if (fd[n] < 0)
			break;
		ioctl(fd[n++], PERF_EVENT_IOC_ENABLE, 0);
	}
	if (n < online_cpus()) {
		for (int i = 0; i < n; i++)
			close(fd[i]);
		return result(FAIL, "perf_event_open(cycles, period %d) on CPU %d: %s",
			      STORM_PERIOD, n, strerror(errno));
	}
	pmi0 = pmi_total();
	for (runs = 0; runs < STORM_RUNS; runs++) {
		if (kunit_rerun(PREEMPT_SUITE, buf, sizeof(buf))) {
			bad++;
			break;
		}
		if (!strstr(buf, "\nok 1 powerpc_preempt")) {
			diag_text("nmi-storm: ", buf, 20);
			bad++;
		}
	}
	pmi = pmi_total() - pmi0;
	for (int i = 0; i < n; i++)
		close(fd[i]);
	diag("nmi-storm: %d runs of powerpc_preempt, %ld PMIs on %d CPUs (period %d cycles)",
	     runs, pmi, n, STORM_PERIOD);
	if (bad)
		return result(FAIL, "the suite failed in %d of %d runs under the PMI storm", bad, runs);
	if (pmi < 100 * STORM_RUNS)
		return result(FAIL, "only %ld PMIs: no storm, nothing tested", pmi);
	return result(PASS, "%d runs of the suite, %ld PMIs meanwhile", runs, pmi);
}
