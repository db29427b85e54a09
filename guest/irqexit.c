// SPDX-License-Identifier: GPL-2.0
/*
 * Interrupt-exit preemption: a task spends one long readv() of /dev/urandom in
 * the kernel (ChaCha20 blocks: it never sleeps there, and cond_resched() is a
 * no-op in full and lazy mode), and a SCHED_FIFO task on the same CPU wakes
 * from a 1 ms timer.
 * The FIFO task can only run during the readv() if the timer interrupt's exit
 * preempts the kernel. Its wakeup rate during the readv() is compared with its
 * rate just before, on the same CPU, in the same run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib.h"
#include "scenarios.h"

#define CPU		1
#define PERIOD_NS	1000000		/* the FIFO task's timer */
#define CONTROL_MS	300		/* FIFO alone before the readv() */
#define MIN_MS		200		/* shortest readv() that counts */
#define CHUNK		(1 << 20)
#define MAX_TS		20000

struct shared {
	volatile int stop;
	volatile int ready;
	int nts;
	uint64_t ts[MAX_TS];
};

/* One readv() of total bytes into the same 1 MB buffer. */
static int64_t long_readv(int fd, char *buf, long total, uint64_t *t0, uint64_t *t1)
{
	static struct iovec iov[IOV_MAX];
	int n = total / CHUNK;
	ssize_t got;

	if (n > IOV_MAX)
		n = IOV_MAX;
	for (int i = 0; i < n; i++)
		iov[i] = (struct iovec){ buf, CHUNK };
	*t0 = now_ns();
	got = readv(fd, iov, n);
	*t1 = now_ns();
	return got < 0 ? -errno : got;
}

static void fifo_task(struct shared *sh)
{
	struct sched_param sp = { .sched_priority = 50 };
	struct timespec ts = { 0, PERIOD_NS };

	if (pin_to(CPU) || sched_setscheduler(0, SCHED_FIFO, &sp))
		_exit(2);
	sh->ready = 1;
	while (!sh->stop) {
		clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
		if (sh->nts < MAX_TS)
			sh->ts[sh->nts++] = now_ns();
	}
	_exit(0);
}

/* Bytes for a readv() of about 800 ms (4x the minimum), from a timed shorter one. */
static long calibrate(int fd, char *buf)
{
	uint64_t t0, t1;
	long bytes = CHUNK;

	for (;;) {
		if (long_readv(fd, buf, bytes, &t0, &t1) < 0)
			return -1;
		if (t1 - t0 > 20000000 || bytes >= (long)IOV_MAX * CHUNK)
			break;
		bytes *= 4;
	}
	bytes = (double)bytes * 800e6 / (t1 - t0);
	bytes -= bytes % CHUNK;
	return bytes > (long)IOV_MAX * CHUNK ? (long)IOV_MAX * CHUNK : bytes < CHUNK ? CHUNK : bytes;
}

static int irqexit(const char *mode)
{
	struct shared *sh;
	uint64_t t0, t1, c0;
	int in = 0, before = 0, fd, st, ret;
	double dur_ms, rate_in, rate_before;
	char boot_mode[32];
	const char *dev;
	long bytes, next;
	int64_t got;
	char *buf;
	pid_t fifo;

	if (possible_cpus() < 2 || online_cpus() < 2)
		return result(SKIP, "needs CPU %d", CPU);
	if (preempt_get(boot_mode, sizeof(boot_mode)))
		return result(FAIL, "cannot read the preempt mode");
	ret = preempt_set(mode);
	if (ret)
		return result(FAIL, "cannot switch to %s mode: %s", mode, strerror(-ret));
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	buf = aligned_alloc(4096, CHUNK);
	/* guest.irqexit_dev= may name another device read without sleeping. */
	dev = cmdline_get("guest.irqexit_dev") ?: "/dev/urandom";
	fd = open(dev, O_RDONLY);
	if (sh == MAP_FAILED || !buf || fd < 0)
		return result(FAIL, "setup: %s", strerror(errno));
	memset(buf, 1, CHUNK);
	if (pin_to(CPU))
		return result(FAIL, "pin to CPU %d: %s", CPU, strerror(errno));
	bytes = calibrate(fd, buf);
	if (bytes < 0)
		return result(FAIL, "readv(%s): %s", dev, strerror(errno));

	fifo = fork();
	if (fifo == 0)
		fifo_task(sh);
	while (!sh->ready && waitpid(fifo, &st, WNOHANG) == 0)
		sleep_ms(1);
	/*
	 * The calibration is timed on an emulated CPU that the host may slow
	 * down or speed up meanwhile: a readv() shorter than MIN_MS measures
	 * nothing, so measure again, four times longer, up to twice.
	 */
	for (int tries = 0;; tries++) {
		c0 = now_ns();
		sleep_ms(CONTROL_MS);
		got = long_readv(fd, buf, bytes, &t0, &t1);
		if (got < 0 || (t1 - t0) / 1000000 >= MIN_MS || tries == 2 ||
		    bytes >= (long)IOV_MAX * CHUNK)
			break;
		next = bytes * 4 > (long)IOV_MAX * CHUNK ? (long)IOV_MAX * CHUNK : bytes * 4;
		diag("irqexit-%s: the readv() of %ld MB took %.0f ms, less than %d ms: again with %ld MB",
		     mode, bytes >> 20, (t1 - t0) / 1e6, MIN_MS, next >> 20);
		bytes = next;
	}
	sleep_ms(20);
	sh->stop = 1;
	waitpid(fifo, &st, 0);
	pin_to(-1);
	preempt_set(boot_mode);
	close(fd);
	free(buf);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		return result(FAIL, "the SCHED_FIFO task failed (status %#x)", st);
	if (got < 0)
		return result(FAIL, "readv(%s): %s", dev, strerror(-got));

	for (int i = 0; i < sh->nts; i++) {
		in += sh->ts[i] > t0 && sh->ts[i] < t1;
		before += sh->ts[i] > c0 && sh->ts[i] < t0;
	}
	munmap(sh, sizeof(*sh));
	dur_ms = (t1 - t0) / 1e6;
	rate_in = in / dur_ms;
	rate_before = before / ((t0 - c0) / 1e6);
	diag("irqexit-%s: one readv() of %ld MB of %s took %.0f ms on CPU %d; the 1 ms SCHED_FIFO task ran %d times during it (%.2f/ms), %d times in the %.0f ms before (%.2f/ms)",
	     mode, (long)(got >> 20), dev, dur_ms, CPU, in, rate_in, before, (t0 - c0) / 1e6, rate_before);
	if (dur_ms < MIN_MS)
		return result(FAIL, "the readv() took %.0f ms, less than %d ms: no measurement", dur_ms, MIN_MS);
	if (in == 0)
		return result(FAIL, "the FIFO task never ran during a %.0f ms syscall: interrupt-exit preemption is broken", dur_ms);
	if (rate_in < rate_before / 4 || in < 10)
		return result(FAIL, "the FIFO task ran %d times in %.0f ms (%.0f%% of its rate before): interrupt-exit preemption is late",
			      in, dur_ms, 100 * rate_in / rate_before);
	return result(PASS, "%d FIFO runs during one %.0f ms syscall (%.0f%% of its rate outside)",
		      in, dur_ms, 100 * rate_in / rate_before);
}

int irqexit_full(void) { return irqexit("full"); }
int irqexit_lazy(void) { return irqexit("lazy"); }
