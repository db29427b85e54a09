// SPDX-License-Identifier: GPL-2.0
/*
 * bench-trace (make bench): the loops of bench-count between markers, for
 * scripts/bench/bench_trace.py, which turns QEMU's execution log on at
 * '# BENCH trace-start=LOOP loops=N' and off at '# BENCH trace-stop=LOOP'
 * and counts the instructions of each kernel function. After a start
 * marker the guest waits for a line on hvc0, which the host sends once the
 * log is on. Each loop runs twice, N and 2N times (N = bench.trace_loops=,
 * default 1000): the difference of the two windows is N loops without the
 * fixed costs of a window (the wait's return, the stop marker's write).
 * Each loop first calls loop_mark() through a pointer; the start marker
 * gives its address, so that the host can also count each loop alone.
 * bench.trace_only=NAME,... traces only the loops named.
 * bench.stress_ops=N (default 0: not run; the user profile, issue 58): also
 * the real 'stress-ng --kill 1', N and 2N bogo-ops (--kill-ops) per window,
 * the whole stress-ng run inside the window (its start and exit are the
 * windows' fixed costs, which the difference removes): 'stress-kill' at the
 * guest's own process count, then 'stress-kill-P' with sleeping processes
 * (pause()) forked so that P processes (bench.stress_procs=, default 300;
 * kernel threads, PID 1 and stress-ng's three included) exist during the run.
 * kill(-1, 0), one of each bogo-op's calls, checks every one of them. Each
 * count is the most /proc listed during an untraced run of the same shape
 * just before: '# BENCH stress=LOOP procs=P sleepers=S ops=N'. stress-ng runs
 * without address randomization (ADDR_NO_RANDOMIZE), so that its windows
 * differ in fewer paths, and by default under SCHED_FIFO (bench.stress_fifo=1;
 * 0: SCHED_OTHER): on 1 vCPU the stressor's child (which it signals with
 * SIGSTOP, SIGCONT and SIGUSR1 every bogo-op) would otherwise run between
 * bogo-ops as often as the fair scheduler's state lets it, a mix that moves
 * the count per bogo-op by half from run to run; at the stressor's priority
 * it does not preempt it, as on the reporter's 8 vCPUs, where it ran on
 * another CPU. The count is then the stressor's own path (its wakeups of an
 * already runnable child, not of a sleeping one).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib.h"
#include "scenarios.h"

static int kill_step(void *arg)
{
	return kill(*(pid_t *)arg, SIGUSR1);
}

/* The message of bench-count; arg: the write and the read end. */
static int msg_step(void *arg)
{
	int *fds = arg;

	return bench_msg(fds[0], fds[1]);
}

/* Its one block in QEMU's log marks the start of each loop. */
static __attribute__((noinline)) void loop_mark(void)
{
	__asm__ volatile("" ::: "memory");
}

static void (*volatile mark)(void) = loop_mark;

/* Is NAME in bench.trace_only= (or is that unset)? */
static int wanted(const char *name)
{
	const char *p = bench_opt("bench.trace_only");
	size_t n = strlen(name);

	if (!p || !*p)
		return 1;
	while (p) {
		if (!strncmp(p, name, n) && (p[n] == ',' || !p[n]))
			return 1;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return 0;
}

static int hvc = -1;	/* opened before the first marker, not inside a window */

/* Waits for the host's line on hvc0: the log is on. */
static int host_ready(const char *name)
{
	struct pollfd p;
	char c = 0;

	p.fd = hvc;
	p.events = POLLIN;
	while (c != '\n') {
		if (poll(&p, 1, 60000) != 1)
			return result(FAIL, "%s: no word from the host in 60 s: run through scripts/bench/bench_trace.py",
				      name);
		if (read(hvc, &c, 1) != 1)
			return result(FAIL, "%s: reading /dev/hvc0: %s", name, strerror(errno));
	}
	return PASS;
}

static int window(const char *name, long loops, int (*step)(void *), void *arg)
{
	diag("BENCH trace-start=%s loops=%ld mark=%p", name, loops, (void *)loop_mark);
	if (host_ready(name))
		return FAIL;
	for (long i = 0; i < loops; i++) {
		mark();
		if (step(arg))
			return result(FAIL, "%s: the loop failed: %s", name, strerror(errno));
	}
	diag("BENCH trace-stop=%s", name);
	return host_ready(name);
}

static int traced(const char *name, long loops, int (*step)(void *), void *arg)
{
	if (!wanted(name))
		return PASS;
	for (long i = 0; i < 1000; i++)	/* warm the caches */
		if (step(arg))
			return result(FAIL, "%s: the loop failed: %s", name, strerror(errno));
	return window(name, loops, step, arg) || window(name, 2 * loops, step, arg);
}

/* The processes /proc lists now: kernel threads included. */
static int procs_now(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] >= '1' && e->d_name[0] <= '9';
	closedir(d);
	return n;
}

#define SNG_OUT "/tmp/stress-ng-trace.out"

/*
 * stress-ng --kill 1 --kill-ops OPS, its output into SNG_OUT. *peak: when not
 * NULL, the most processes seen while it ran (polled: an untraced run only).
 * Checks that it ran OPS bogo-ops. Returns PASS or FAIL.
 */
static int stress_kill_run(const char *name, long ops, int *peak)
{
	char o[32], buf[4096], *p;
	char *argv[] = { "stress-ng", "--kill", "1", "--kill-ops", o, "--metrics-brief", "--temp-path", "/tmp", NULL };
	pid_t pid;
	int st, fd;
	long got = -1;

	snprintf(o, sizeof(o), "%ld", ops);
	pid = fork();
	if (pid < 0)
		return result(FAIL, "%s: fork: %s", name, strerror(errno));
	if (pid == 0) {
		fd = open(SNG_OUT, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0)
			dup2(fd, 1), dup2(fd, 2);
		/* The same addresses in every run: fewer paths that differ between windows. */
		personality(ADDR_NO_RANDOMIZE);
		if (bench_param("bench.stress_fifo", 1)) {
			struct sched_param sp = { .sched_priority = 1 };

			if (sched_setscheduler(0, SCHED_FIFO, &sp))
				_exit(126);
		}
		execv("/usr/bin/stress-ng", argv);
		_exit(127);
	}
	if (peak) {
		*peak = 0;
		while (waitpid(pid, &st, WNOHANG) == 0) {
			int n = procs_now();

			*peak = n > *peak ? n : *peak;
			sleep_ms(1);
		}
	} else if (waitpid(pid, &st, 0) != pid) {
		return result(FAIL, "%s: waitpid: %s", name, strerror(errno));
	}
	buf[0] = 0;
	read_str(SNG_OUT, buf, sizeof(buf));
	/* --metrics-brief: 'stress-ng: metrc: [PID] kill  OPS  real usr sys ...' */
	for (p = strstr(buf, "] kill "); p; p = strstr(p + 1, "] kill "))
		got = strtol(p + 7, NULL, 10);
	if (!WIFEXITED(st) || WEXITSTATUS(st) || got != ops) {
		diag_text("stress-ng: ", buf, 20);
		return result(FAIL, "%s: stress-ng --kill 1 --kill-ops %ld: status %#x, %ld bogo-ops", name, ops, st, got);
	}
	return PASS;
}

/* One window: the whole stress-ng run between the markers (no loop mark). */
static int stress_window(const char *name, long ops)
{
	diag("BENCH trace-start=%s loops=%ld", name, ops);
	if (host_ready(name))
		return FAIL;
	if (stress_kill_run(name, ops, NULL))
		return FAIL;
	diag("BENCH trace-stop=%s", name);
	return host_ready(name);
}

/*
 * stress-ng --kill 1 at the guest's own process count, then with sleepers
 * forked up to bench.stress_procs processes in all.
 */
static int stress_traced(long ops)
{
	long want = bench_param("bench.stress_procs", 300);
	char name[32], ver[256];
	char *argv[] = { "stress-ng", "--version", NULL };
	pid_t *sl = NULL;
	int own = 0, peak = 0, n = 0, st = PASS;

	run_cmd(argv, 30, ver, sizeof(ver));
	diag_text("stress-ng: ", ver, 1);
	for (int pass = 0; pass < 2 && !st; pass++) {
		if (pass == 0) {
			snprintf(name, sizeof(name), "stress-kill");
		} else {
			snprintf(name, sizeof(name), "stress-kill-%ld", want);
			if (!wanted(name))
				break;
			n = want - own;
			if (n < 0)
				return result(FAIL, "%s: the guest runs %d processes already, more than %ld", name, own, want);
			sl = calloc(n ? n : 1, sizeof(*sl));
			if (!sl)
				return result(FAIL, "%s: out of memory", name);
			for (int i = 0; i < n && !st; i++) {
				sl[i] = fork();
				if (sl[i] == 0) {
					for (;;)
						pause();
				}
				if (sl[i] < 0)
					n = i, st = result(FAIL, "%s: fork of sleeper %d: %s", name, i, strerror(errno));
			}
		}
		/* Untraced first: warms the caches, counts the processes of a run. */
		if (!st)
			st = stress_kill_run(name, ops, &peak);
		if (st)
			break;
		if (pass == 0)
			own = peak;
		diag("BENCH stress=%s procs=%d sleepers=%d ops=%ld sched=%s", name, peak, n, ops,
		     bench_param("bench.stress_fifo", 1) ? "fifo" : "other");
		if (pass == 1 && peak != want)
			diag("%s: %d processes during the run, not %ld (a process came or went)", name, peak, want);
		if (wanted(name))
			st = stress_window(name, ops) || stress_window(name, 2 * ops);
	}
	for (int i = 0; sl && i < n; i++)
		kill(sl[i], SIGKILL);
	for (int i = 0; sl && i < n; i++)
		waitpid(sl[i], NULL, 0);
	free(sl);
	return st;
}

int bench_trace(void)
{
	long loops = bench_param("bench.trace_loops", 1000);
	int sv[2], pv[2], pipe_fds[2], zero, st;
	pid_t me = getpid();
	struct pingpong pp;

	signal(SIGUSR1, SIG_IGN);
	hvc = open("/dev/hvc0", O_RDONLY | O_NOCTTY | O_CLOEXEC);
	if (hvc < 0)
		return result(FAIL, "/dev/hvc0: %s", strerror(errno));
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) || pipe(pv))
		return result(FAIL, "socketpair/pipe: %s", strerror(errno));
	pipe_fds[0] = pv[1], pipe_fds[1] = pv[0];
	zero = open("/dev/zero", O_RDONLY | O_CLOEXEC);
	if (zero < 0 || pingpong_start(&pp))
		return result(FAIL, "open(/dev/zero)/fork: %s", strerror(errno));
	st = traced("kill", loops, kill_step, &me) || traced("msg-socket", loops, msg_step, sv) ||
	     traced("msg-pipe", loops, msg_step, pipe_fds) || traced("null", loops, bench_null, NULL) ||
	     traced("read-zero", loops, bench_read1, &zero) || traced("ctxsw", loops, bench_pingpong, &pp);
	if (!st && wanted("ctxsw-fifo") && pingpong_fifo(&pp, 1))
		st = result(FAIL, "sched_setscheduler(SCHED_FIFO): %s", strerror(errno));
	else if (!st)
		st = traced("ctxsw-fifo", loops, bench_pingpong, &pp);
	pingpong_fifo(&pp, 0);
	pingpong_stop(&pp);
	close(zero);
	if (!st && bench_param("bench.stress_ops", 0) > 0)
		st = stress_traced(bench_param("bench.stress_ops", 0));
	if (st)
		return FAIL;
	if (bench_opt("bench.trace_only") && *bench_opt("bench.trace_only"))
		return result(PASS, "bench.trace_only=%s: %ld loops each between trace markers",
			      bench_opt("bench.trace_only"), loops);
	return result(PASS, "kill(), socket and pipe messages, getppid(), read() of /dev/zero and a round trip "
		      "between two tasks, SCHED_OTHER and SCHED_FIFO: %ld loops each between trace markers", loops);
}
