// SPDX-License-Identifier: GPL-2.0
/*
 * The bench scenarios (make bench, guest.run=bench-*): never run by default.
 * bench-count: instructions per kill(), per message, per getppid(), per
 *   1-byte read() of /dev/zero and per round trip of a byte between two
 *   tasks (two context switches), from the guest PMU (perf_event_open, this
 *   task only: the round trip's other task is not counted), for 1 vCPU. QEMU's TCG PMU ignores
 *   exclude_user, so the kill() loop is measured against a calibration loop
 *   of the same user-side shape without the syscall.
 * bench-load: stress-ng --kill and hackbench, timed (emulated time).
 * Results are '# BENCH key=value...' lines, parsed by scripts/bench/bench_report.py.
 * Settings on the kernel command line: bench.reps= (default 5),
 * bench.calls= (kill() calls per count, 20000), bench.msgs= (messages per
 * count, 5000), bench.groups= (hackbench group counts, 1,2,4),
 * bench.loops= (hackbench -l, 50), bench.secs= (stress-ng -t, 3).
 * Built with -DBENCH_HOST, it is a program of its own for a booted machine
 * (scripts/bench/bench-host.sh), the settings then taken from the environment.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib.h"
#include "scenarios.h"

static char out[65536];

/* A setting: bench.X= of the kernel command line, or of the environment (host). */
const char *bench_opt(const char *key)
{
	const char *v = getenv(key);

	return v ? v : cmdline_get(key);
}

long bench_param(const char *key, long def)
{
	const char *v = bench_opt(key);

	return v && *v ? strtol(v, NULL, 0) : def;
}

static int counter(int exclude_user, int inherit)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_HARDWARE;
	a.size = sizeof(a);
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.disabled = 1;
	a.exclude_user = exclude_user;
	a.inherit = inherit;
	return syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

static void start(int fd)
{
	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
}

static uint64_t stop(int fd)
{
	uint64_t v = 0;

	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return 0;
	return v;
}

/* The calibration: a call of the same shape as kill(), without the syscall. */
__attribute__((noinline)) static int nokill(pid_t pid, int sig)
{
	asm volatile("" : : "r"(pid), "r"(sig) : "memory");
	return 0;
}

typedef int (*killfn)(pid_t, int);

static uint64_t kill_loop(int fd, killfn fn, long calls)
{
	pid_t me = getpid();

	start(fd);
	for (long i = 0; i < calls; i++)
		fn(me, SIGUSR1);
	return stop(fd);
}

/* One message of hackbench's size (100 bytes) written and read back by the same task. */
int bench_msg(int wfd, int rfd)
{
	char buf[100] = { 0 };

	return write(wfd, buf, sizeof(buf)) != sizeof(buf) || read(rfd, buf, sizeof(buf)) != sizeof(buf);
}

static uint64_t msg_loop(int fd, int wfd, int rfd, long msgs)
{
	start(fd);
	for (long i = 0; i < msgs; i++)
		if (bench_msg(wfd, rfd))
			return 0;
	return stop(fd);
}

/* The null system call (it cannot fail; the guest's init has parent 0). */
int bench_null(void *arg)
{
	(void)arg;
	getppid();
	return 0;
}

/* An fd lookup and a 1-byte read(); arg: an fd of /dev/zero. */
int bench_read1(void *arg)
{
	char c;

	return read(*(int *)arg, &c, 1) != 1;
}

/*
 * Writes every page of the writable private mappings (/proc/self/maps) once,
 * so that the copies on write that a fork() leaves behind happen now, not in
 * a measured loop (they showed as page faults and copy_mc_generic in one
 * trace window and not the other).
 */
static void break_cow(void)
{
	char l[512];
	FILE *f = fopen("/proc/self/maps", "r");

	while (f && fgets(l, sizeof(l), f)) {
		unsigned long a, b;
		char perm[8];

		if (sscanf(l, "%lx-%lx %7s", &a, &b, perm) != 3 || strcmp(perm, "rw-p"))
			continue;
		for (; a < b; a += 4096)
			*(volatile char *)a = *(volatile char *)a;
	}
	if (f)
		fclose(f);
}

/* A task that sends back every byte it reads: one round trip, two switches. */
int pingpong_start(struct pingpong *pp)
{
	char c;

	if (pipe(pp->to) || pipe(pp->from))
		return -1;
	pp->pid = fork();
	if (pp->pid < 0)
		return -1;
	if (!pp->pid) {
		close(pp->to[1]);
		close(pp->from[0]);
		while (read(pp->to[0], &c, 1) == 1 && write(pp->from[1], &c, 1) == 1)
			;
		_exit(0);
	}
	close(pp->to[0]);
	close(pp->from[1]);
	break_cow();
	return 0;
}

int bench_pingpong(void *arg)
{
	struct pingpong *pp = arg;
	char c = 1;

	return write(pp->to[1], &c, 1) != 1 || read(pp->from[0], &c, 1) != 1;
}

/*
 * Both tasks of the round trip to SCHED_FIFO 1 (on) or back to SCHED_OTHER:
 * the RT class picks the next task without the fair scheduler's vruntime
 * arithmetic, whose paths vary from run to run, so that the context
 * switch itself is what the loop measures.
 */
int pingpong_fifo(struct pingpong *pp, int on)
{
	struct sched_param sp = { .sched_priority = on ? 1 : 0 };
	int policy = on ? SCHED_FIFO : SCHED_OTHER;

	return sched_setscheduler(pp->pid, policy, &sp) || sched_setscheduler(0, policy, &sp);
}

void pingpong_stop(struct pingpong *pp)
{
	close(pp->to[1]);
	close(pp->from[0]);
	waitpid(pp->pid, NULL, 0);
}

static uint64_t step_loop(int fd, int (*step)(void *), void *arg, long n)
{
	start(fd);
	for (long i = 0; i < n; i++)
		if (step(arg))
			return 0;
	return stop(fd);
}

int bench_count(void)
{
	long reps = bench_param("bench.reps", 5), calls = bench_param("bench.calls", 20000);
	long msgs = bench_param("bench.msgs", 5000);
	int fd = counter(0, 0), fdk = counter(1, 0), sv[2], pv[2], zero;
	struct pingpong pp;
	uint64_t empty, all, kern;

	if (fd < 0)
		return result(FAIL, "perf_event_open(instructions): %s: no PMU in this guest", strerror(errno));
	if (online_cpus() != 1)
		diag("BENCH warning: %d CPUs online: the counts want 1 vCPU", online_cpus());
	signal(SIGUSR1, SIG_IGN);
	empty = kill_loop(fd, nokill, 0);
	/* Does the PMU honour exclude_user? Count the pure user loop both ways. */
	all = kill_loop(fd, nokill, calls);
	kern = fdk >= 0 ? kill_loop(fdk, nokill, calls) : 0;
	diag("BENCH pmu exclude_user=%s all=%llu kernel_only=%llu (calibration loop, %ld calls)",
	     fdk < 0 ? "unsupported" : kern * 2 < all ? "honoured" : "ignored",
	     (unsigned long long)all, (unsigned long long)kern, calls);
	zero = open("/dev/zero", O_RDONLY | O_CLOEXEC);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) || pipe(pv) || zero < 0 || pingpong_start(&pp))
		return result(FAIL, "socketpair/pipe/open(/dev/zero)/fork: %s", strerror(errno));
	for (long r = 1; r <= reps; r++) {
		uint64_t k = kill_loop(fd, kill, calls), c = kill_loop(fd, nokill, calls);
		uint64_t s = msg_loop(fd, sv[0], sv[1], msgs), p = msg_loop(fd, pv[1], pv[0], msgs);
		uint64_t n = step_loop(fd, bench_null, NULL, calls), z = step_loop(fd, bench_read1, &zero, calls);
		uint64_t x = step_loop(fd, bench_pingpong, &pp, msgs);

		if (!k || !c || !s || !p || !n || !z || !x) {
			pingpong_stop(&pp);
			return result(FAIL, "a counted loop failed: kill %llu, calibration %llu, socket %llu, pipe %llu, "
				      "getppid %llu, read %llu, round trip %llu",
				      (unsigned long long)k, (unsigned long long)c, (unsigned long long)s,
				      (unsigned long long)p, (unsigned long long)n, (unsigned long long)z,
				      (unsigned long long)x);
		}
		diag("BENCH count=kill rep=%ld value=%.2f total=%llu calls=%ld", r,
		     (double)(k - empty) / calls, (unsigned long long)k, calls);
		diag("BENCH count=kill-calibration rep=%ld value=%.2f", r, (double)(c - empty) / calls);
		diag("BENCH count=kill-syscall rep=%ld value=%.2f", r, (double)((int64_t)k - (int64_t)c) / calls);
		diag("BENCH count=msg-socket rep=%ld value=%.2f", r, (double)(s - empty) / msgs);
		diag("BENCH count=msg-pipe rep=%ld value=%.2f", r, (double)(p - empty) / msgs);
		diag("BENCH count=null rep=%ld value=%.2f", r, (double)(n - empty) / calls);
		diag("BENCH count=read-zero rep=%ld value=%.2f", r, (double)(z - empty) / calls);
		diag("BENCH count=ctxsw rep=%ld value=%.2f", r, (double)(x - empty) / msgs);
	}
	pingpong_stop(&pp);
	close(zero);
	close(fd);
	if (fdk >= 0)
		close(fdk);
	return result(PASS, "%ld repetitions of %ld kill(), getppid() and read() calls, %ld messages and round trips",
		      reps, calls, msgs);
}

/* Runs argv, counting the instructions of its whole process tree (inherit=1). */
static int run_counted(char *const argv[], int timeout_s, uint64_t *instr, double *secs)
{
	int fd = counter(0, 1), st;
	uint64_t t0 = now_ns();

	if (fd >= 0)
		start(fd);
	st = run_cmd(argv, timeout_s, out, sizeof(out));
	*instr = fd >= 0 ? stop(fd) : 0;
	*secs = (now_ns() - t0) / 1e9;
	if (fd >= 0)
		close(fd);
	if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		diag_text("  ", out, 10);
		return result(FAIL, "%s %s failed (wait status %#x) after %.1f s", argv[0], argv[1], st, *secs);
	}
	return PASS;
}

static const char *modes[][2] = {
	{ "process", "socket" }, { "process", "pipe" }, { "thread", "socket" }, { "thread", "pipe" },
};

int bench_load(void)
{
	long reps = bench_param("bench.reps", 5), loops = bench_param("bench.loops", 50);
	long secs = bench_param("bench.secs", 3);
	const char *gl = bench_opt("bench.groups");
	char groups[64], l[16], t[16], g[16], *save, *gp;
	uint64_t instr;
	double el;

	snprintf(groups, sizeof(groups), "%s", gl && *gl ? gl : "1,2,4");
	snprintf(l, sizeof(l), "%ld", loops);
	snprintf(t, sizeof(t), "%ld", secs);
	if (access("/usr/bin/stress-ng", X_OK) || access("/usr/bin/hackbench", X_OK))
		return result(FAIL, "stress-ng or hackbench missing from the initramfs");
	for (long r = 1; r <= reps; r++) {
		char *sng[] = { "stress-ng", "--kill", "1", "-t", t, "--metrics", "--temp-path", "/tmp", NULL };
		const char *p;
		double bogo = 0;

		if (run_counted(sng, 60 + secs, &instr, &el))
			return FAIL;
		/* The metrics line: 'kill  N  real usr sys  bogo/s(real) bogo/s(usr+sys) ...' */
		p = strstr(out, "] kill ");
		if (!p || sscanf(p + 7, "%*f %*f %*f %*f %lf", &bogo) != 1) {
			diag_text("  ", out, 12);
			return result(FAIL, "no 'kill' metrics line in stress-ng's output");
		}
		diag("BENCH load=stress-ng-kill rep=%ld value=%.2f secs=%.2f instr=%llu", r, bogo, el,
		     (unsigned long long)instr);
	}
	for (long r = 1; r <= reps; r++)
		for (int m = 0; m < 4; m++) {
			snprintf(groups, sizeof(groups), "%s", gl && *gl ? gl : "1,2,4");
			for (gp = strtok_r(groups, ",", &save); gp; gp = strtok_r(NULL, ",", &save)) {
				char *hb[] = { "hackbench", "-g", g, "-l", l, m >= 2 ? "-T" : "-P",
					       m % 2 ? "-p" : NULL, NULL };
				const char *p;
				double tm;

				snprintf(g, sizeof(g), "%s", gp);
				if (run_counted(hb, 300, &instr, &el))
					return FAIL;
				p = strstr(out, "Time:");
				if (!p || sscanf(p, "Time: %lf", &tm) != 1) {
					diag_text("  ", out, 8);
					return result(FAIL, "no 'Time:' line in hackbench's output");
				}
				/* -f 20 (the default): 20 senders x 20 receivers per group. */
				diag("BENCH load=hackbench-%s-%s-g%s rep=%ld value=%.3f instr_per_msg=%.1f", modes[m][0],
				     modes[m][1], g, r, tm, (double)instr / (atol(g) * 400.0 * loops));
			}
		}
	return result(PASS, "%ld repetitions of stress-ng --kill (%ld s) and hackbench (-g %s -l %ld)", reps, secs,
		      gl && *gl ? gl : "1,2,4", loops);
}

#ifdef BENCH_HOST
/* scripts/bench/bench-host.sh: the same scenarios on the running kernel, lines to stdout. */
int main(int argc, char **argv)
{
	int st = PASS;

	for (int i = 1; i < argc; i++) {
		int (*fn)(void) = !strcmp(argv[i], "bench-count") ? bench_count :
				  !strcmp(argv[i], "bench-load") ? bench_load : NULL;

		if (!fn) {
			fprintf(stderr, "usage: %s bench-count|bench-load...\n", argv[0]);
			return 2;
		}
		diag("%s: start", argv[i]);
		reason[0] = 0;
		if (fn() != PASS)
			st = FAIL;
		line("%s %d %s # %s", st == PASS ? "ok" : "not ok", i, argv[i], reason);
	}
	return st == PASS ? 0 : 1;
}
#endif
