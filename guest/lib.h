/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the guest init and its scenarios. */
#ifndef GUEST_LIB_H
#define GUEST_LIB_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum { PASS, FAIL, SKIP };

/* Output: one line per call, to /dev/kmsg (so it never interleaves with kernel lines). */
void out_init(void);
void line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void diag_text(const char *prefix, const char *text, int last_lines);

/* The reason printed after '#' on a scenario's result line. */
extern char reason[512];
int result(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

uint64_t now_ns(void);
void sleep_ms(long ms);

int read_str(const char *path, char *buf, size_t size);
int write_str(const char *path, const char *s);
const char *cmdline_get(const char *key);

int online_cpus(void);
int possible_cpus(void);
int pin_to(int cpu);

/* Busy loops, each in its own process; cpu < 0 leaves them unpinned. */
int spin_start(pid_t *pids, int n, int cpu);
int spin_stop(pid_t *pids, int n);

/* Runs argv with a timeout; stdout+stderr into out. Returns the wait status, or -1. */
int run_cmd(char *const argv[], int timeout_s, char *out, size_t outsz);

/* The kernel's log from /dev/kmsg: records printed after kmsg_open(). */
int kmsg_open(void);
int kmsg_next(int fd, char *buf, size_t size, long timeout_ms);
int kmsg_wait(int fd, const char *what, char *buf, size_t size, long timeout_ms,
	      const char *const *note);

#endif
