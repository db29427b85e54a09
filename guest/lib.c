// SPDX-License-Identifier: GPL-2.0
/* Helpers shared by the guest init and its scenarios. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib.h"

static int out_fd = -1;
char reason[512];

void out_init(void)
{
	/* Userspace writes to /dev/kmsg are rate limited unless this is on. */
	write_str("/proc/sys/kernel/printk_devkmsg", "on\n");
	out_fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
}

static void vline(const char *pre, const char *fmt, va_list ap)
{
	char buf[1024];
	int n;

	/* <5>: KERN_NOTICE, shown on the console at the default loglevel. */
	n = snprintf(buf, sizeof(buf), "%sguest: %s", out_fd >= 0 ? "<5>" : "", pre);
	n += vsnprintf(buf + n, sizeof(buf) - n - 1, fmt, ap);
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	if (out_fd < 0 || write(out_fd, buf, n) < 0)
		(void)!write(1, buf, n);
}

void line(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline("", fmt, ap);
	va_end(ap);
}

void diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline("# ", fmt, ap);
	va_end(ap);
}

/* Prints the last lines of a program's output as diagnostics. */
void diag_text(const char *prefix, const char *text, int last_lines)
{
	const char *p = text + strlen(text), *end;
	int n = 0;

	while (p > text && n <= last_lines)
		if (*--p == '\n' && p[1])
			n++;
	if (*p == '\n')
		p++;
	for (; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, '\n');
		if (end > p)
			diag("%s%.*s", prefix, (int)(end - p), p);
	}
}

int result(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	return status;
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Reads a small file into buf (NUL-terminated). Returns its length or -errno. */
int read_str(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), n = 0, len = 0;

	if (fd < 0)
		return -errno;
	while (len < (int)size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	n = n < 0 ? -errno : len;
	close(fd);
	buf[len] = 0;
	return n;
}

/* Writes s to a file in one write(). Returns 0 or -errno. */
int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* The value of key=value on the kernel command line, or NULL. */
const char *cmdline_get(const char *key)
{
	static char cmdline[4096];
	static char val[256];
	size_t klen = strlen(key);
	char *p;

	if (!cmdline[0] && read_str("/proc/cmdline", cmdline, sizeof(cmdline)) < 0)
		return NULL;
	for (p = cmdline; (p = strstr(p, key)); p += klen) {
		if ((p == cmdline || p[-1] == ' ') && p[klen] == '=') {
			size_t n = strcspn(p + klen + 1, " \n");

			if (n >= sizeof(val))
				n = sizeof(val) - 1;
			memcpy(val, p + klen + 1, n);
			val[n] = 0;
			return val;
		}
	}
	return NULL;
}

static int count_cpus(const char *path)
{
	char buf[256], *p = buf;
	int n = 0, a, b, len;

	if (read_str(path, buf, sizeof(buf)) < 0)
		return -1;
	/* A cpu list such as "0-3,5". */
	while (sscanf(p, "%d%n", &a, &len) == 1) {
		p += len;
		b = a;
		if (*p == '-' && sscanf(p + 1, "%d%n", &b, &len) == 1)
			p += len + 1;
		n += b - a + 1;
		if (*p != ',')
			break;
		p++;
	}
	return n;
}

int online_cpus(void) { return count_cpus("/sys/devices/system/cpu/online"); }
int possible_cpus(void) { return count_cpus("/sys/devices/system/cpu/present"); }

/* Pins the calling task to one CPU, or to all of them with cpu < 0. */
int pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	for (int i = 0; i < CPU_SETSIZE; i++)
		if (i == cpu || cpu < 0)
			CPU_SET(i, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

int spin_start(pid_t *pids, int n, int cpu)
{
	for (int i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			return -errno;
		if (pids[i] == 0) {
			volatile unsigned long x = 0;

			if (cpu >= 0)
				pin_to(cpu);
			for (;;)
				x++;
		}
	}
	return 0;
}

/* Stops the spinners; returns how many had died before being stopped. */
int spin_stop(pid_t *pids, int n)
{
	int dead = 0, st;

	for (int i = 0; i < n; i++) {
		if (pids[i] <= 0)
			continue;
		if (waitpid(pids[i], &st, WNOHANG) == pids[i])
			dead++;
		else {
			kill(pids[i], SIGKILL);
			waitpid(pids[i], &st, 0);
		}
		pids[i] = 0;
	}
	return dead;
}

int run_cmd(char *const argv[], int timeout_s, char *out, size_t outsz)
{
	uint64_t deadline = now_ns() + timeout_s * 1000000000ull;
	size_t len = 0;
	int fds[2], st;
	pid_t pid;

	out[0] = 0;
	if (pipe2(fds, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		setpgid(0, 0);
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		execvp(argv[0], argv);
		fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	for (;;) {
		struct pollfd pfd = { fds[0], POLLIN, 0 };
		int64_t left = (int64_t)(deadline - now_ns()) / 1000000;
		char buf[4096];
		ssize_t n;

		if (left <= 0) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			snprintf(out + len, outsz - len, "\n[killed after %d s timeout]\n", timeout_s);
			break;
		}
		if (poll(&pfd, 1, left) <= 0)
			continue;
		n = read(fds[0], buf, sizeof(buf));
		if (n <= 0)
			break;
		/* Keep the tail when the output is larger than the buffer. */
		if (len + n >= outsz) {
			size_t drop = len + n - outsz + 1;

			if (drop > len)
				drop = len;
			memmove(out, out + drop, len - drop);
			len -= drop;
			if ((size_t)n > outsz - 1 - len)
				n = outsz - 1 - len;
		}
		memcpy(out + len, buf, n);
		len += n;
		out[len] = 0;
	}
	close(fds[0]);
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	/* Whatever the program left behind in its process group. */
	kill(-pid, SIGKILL);
	return st;
}

/* /dev/kmsg from now on: the records printed after this call, or -1. */
int kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/*
 * The text of the next record into buf (cut to size), waiting up to
 * timeout_ms for one; 0, or -1 when none came. Records lost to the ring
 * buffer's overwriting are skipped.
 */
int kmsg_next(int fd, char *buf, size_t size, long timeout_ms)
{
	uint64_t end = now_ns() + timeout_ms * 1000000ull;
	char rec[2048];

	while (now_ns() < end) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;
		char *msg;
		size_t len;

		if (poll(&p, 1, 100) != 1)
			continue;
		n = read(fd, rec, sizeof(rec) - 1);
		if (n <= 0)
			continue;	/* EPIPE: overwritten, read on; EAGAIN: none yet */
		rec[n] = 0;
		msg = strchr(rec, ';');	/* 'level,seq,usec,flags;text' */
		msg = msg ? msg + 1 : rec;
		len = strcspn(msg, "\n");
		if (len >= size)
			len = size - 1;
		memcpy(buf, msg, len);
		buf[len] = 0;
		return 0;
	}
	return -1;
}

/*
 * Reads records until one holds what, within timeout_ms; that record's text
 * into buf. Records holding any of the note strings are printed on the way.
 */
int kmsg_wait(int fd, const char *what, char *buf, size_t size, long timeout_ms,
	      const char *const *note)
{
	uint64_t end = now_ns() + timeout_ms * 1000000ull;

	while (now_ns() < end) {
		if (kmsg_next(fd, buf, size, (end - now_ns()) / 1000000 + 1))
			break;
		if (!strncmp(buf, "guest: ", 7))
			continue;	/* our own lines, the notes echoed among them */
		for (int i = 0; note && note[i]; i++)
			if (strstr(buf, note[i])) {
				diag("  %s", buf);
				break;
			}
		if (strstr(buf, what))
			return 0;
	}
	return -1;
}
