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
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
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
	if (st)
		return FAIL;
	if (bench_opt("bench.trace_only") && *bench_opt("bench.trace_only"))
		return result(PASS, "bench.trace_only=%s: %ld loops each between trace markers",
			      bench_opt("bench.trace_only"), loops);
	return result(PASS, "kill(), socket and pipe messages, getppid(), read() of /dev/zero and a round trip "
		      "between two tasks, SCHED_OTHER and SCHED_FIFO: %ld loops each between trace markers", loops);
}
