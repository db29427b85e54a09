// SPDX-License-Identifier: GPL-2.0
/*
 * kexec and kdump (guest.run= must name them; make test-full).
 * kexec:  the kernel loads itself (/boot/vmlinux of the initramfs) with the
 *         initramfs it booted from (/sys/firmware/initrd: boot with
 *         retain_initrd) and its command line plus guest.kexec_round=N+1;
 *         init runs the other scenarios, then kexec_finish() executes it.
 *         The next kernel runs them all again, guest.kexec_rounds= times
 *         (default 3); the last round's result says how many it took.
 *         guest.kexec_append= adds a word to the next kernels' command line;
 *         guest.kexec_from=child kexecs from a child of init, not init.
 * kdump:  loads the same kernel as the capture kernel (boot with
 *         crashkernel=), its command line asking for kdump-capture only;
 *         after the other scenarios, kexec_finish() loads every CPU and
 *         crashes the kernel with sysrq-c; with guest.kdump_by=reset it
 *         prints "kdump: waiting for a system reset" instead and waits for
 *         the host to send one (QEMU's monitor 'nmi': scripts/boot/boot.sh
 *         MONITOR_AT=), the crash then taken in every CPU's system reset
 *         handler, an NMI.
 * kdump-capture: in the capture kernel, /proc/vmcore is an ELF core file
 *         that reads.
 * The loader is Debian's kexec-tools (kexec_load) where the initramfs has
 * it (LE), else the kexec_file_load() system call (BE: Debian has no ppc64
 * userspace); both end in the same machine_kexec().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/kexec.h>
#include <linux/reboot.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib.h"
#include "scenarios.h"

#define KERNEL	"/boot/vmlinux"
#define INITRD	"/tmp/initrd"
#define RESET_WAIT_S	60	/* the host sends the reset within a second or two */
#define KEXEC	"/usr/sbin/kexec"

static enum { NONE, KEXEC_NEXT, CRASH } armed;
static char out[8192];

static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), o = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	ssize_t n = 0;
	long total = 0;

	while (in >= 0 && o >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(o, buf, n) != n) {
			n = -1;
			break;
		}
		else
			total += n;
	if (in >= 0)
		close(in);
	if (o >= 0)
		close(o);
	return in < 0 || o < 0 || n < 0 || !total ? -1 : 0;
}

/* /proc/cmdline without the words starting with any of drop[], plus add. */
static int next_cmdline(char *buf, size_t size, const char *const *drop, const char *add)
{
	char line[4096], *w, *save;
	size_t len = 0;

	if (read_str("/proc/cmdline", line, sizeof(line)) < 0)
		return -1;
	buf[0] = 0;
	for (w = strtok_r(line, " \n", &save); w; w = strtok_r(NULL, " \n", &save)) {
		int skip = 0;

		for (int i = 0; drop[i]; i++)
			skip |= !strncmp(w, drop[i], strlen(drop[i]));
		if (!skip)
			len += snprintf(buf + len, size - len, "%s ", w);
	}
	snprintf(buf + len, size - len, "%s", add);
	return len >= size ? -1 : 0;
}

/* Loads KERNEL with INITRD and cmdline, for a kexec or as the crash kernel. */
static int load(int crash, const char *cmdline, const char **how)
{
	if (!access(KEXEC, X_OK)) {
		char cl[4200];
		/* -c: the kexec_load() syscall, which kexec-tools would otherwise
		 * try only after kexec_file_load(), the path of the BE guest. */
		char *argv[] = { "kexec", "-c", crash ? "-p" : "-l", KERNEL, "--initrd=" INITRD, cl, NULL };
		int st;

		*how = crash ? "kexec-tools, kexec -c -p (kexec_load)" : "kexec-tools, kexec -c -l (kexec_load)";
		snprintf(cl, sizeof(cl), "--command-line=%s", cmdline);
		st = run_cmd(argv, 60, out, sizeof(out));
		if (st) {
			diag_text("  kexec: ", out, 10);
			return result(FAIL, "%s failed (wait status %#x)", *how, st);
		}
		return PASS;
	} else {
		int k = open(KERNEL, O_RDONLY | O_CLOEXEC), i = open(INITRD, O_RDONLY | O_CLOEXEC), rc;

		*how = crash ? "kexec_file_load(KEXEC_FILE_ON_CRASH)" : "kexec_file_load()";
		rc = syscall(SYS_kexec_file_load, k, i, strlen(cmdline) + 1, cmdline,
			     crash ? KEXEC_FILE_ON_CRASH : 0);
		if (rc)
			rc = errno;
		close(k);
		close(i);
		if (rc)
			return result(FAIL, "%s: %s", *how, strerror(rc));
		return PASS;
	}
}

/* The kernel and the initramfs to load: both must be there. */
static int prepare(void)
{
	if (access(KERNEL, R_OK))
		return result(FAIL, "no %s in the initramfs", KERNEL);
	if (access("/sys/firmware/initrd", R_OK))
		return result(FAIL, "no /sys/firmware/initrd: boot with retain_initrd");
	if (copy_file("/sys/firmware/initrd", INITRD))
		return result(FAIL, "copying /sys/firmware/initrd to %s: %s", INITRD, strerror(errno));
	return PASS;
}

int kexec_scenario(void)
{
	static const char *const drop[] = { "guest.kexec_round=", NULL };
	const char *v = cmdline_get("guest.kexec_round"), *how;
	int round = v ? atoi(v) : 0, rounds;
	char cl[4096], add[320];

	v = cmdline_get("guest.kexec_rounds");
	rounds = v ? atoi(v) : 3;
	if (round >= rounds)
		return result(round ? PASS : SKIP, "round %d: the kernel kexec'd %d times ran the scenarios", round,
			      round);
	if (prepare())
		return FAIL;
	v = cmdline_get("guest.kexec_append");	/* the negative control's 'loglevel=0' */
	snprintf(add, sizeof(add), "guest.kexec_round=%d%s%s", round + 1, v ? " " : "", v ? v : "");
	if (next_cmdline(cl, sizeof(cl), drop, add))
		return result(FAIL, "the next command line does not fit");
	if (load(0, cl, &how))
		return FAIL;
	armed = KEXEC_NEXT;
	return result(PASS, "round %d of %d: %s loaded; kexec -e after the other scenarios", round, rounds, how);
}

/* guest.kdump_by=reset: the host's system reset crashes the kernel, not sysrq-c. */
static int by_reset(void)
{
	const char *by = cmdline_get("guest.kdump_by");

	return by && !strcmp(by, "reset");
}

int kdump(void)
{
	static const char *const drop[] = { "guest.run=", "crashkernel=", "guest.kexec", NULL };
	char cl[4096], size[32] = "";
	const char *how;

	if (read_str("/sys/kernel/kexec_crash_size", size, sizeof(size)) < 0 || atol(size) <= 0)
		return result(FAIL, "no crash kernel memory (/sys/kernel/kexec_crash_size %s): boot with crashkernel=",
			      size);
	if (prepare())
		return FAIL;
	/* The capture kernel: one CPU, the capture scenario only, no KUnit suites. */
	if (next_cmdline(cl, sizeof(cl), drop, "nr_cpus=1 kunit.enable=0 guest.run=kdump-capture"))
		return result(FAIL, "the capture command line does not fit");
	if (load(1, cl, &how))
		return FAIL;
	armed = CRASH;
	return result(PASS, "%s: capture kernel loaded in %ld MiB; %s under load after the other scenarios", how,
		      atol(size) >> 20, by_reset() ? "a system reset from the host" : "sysrq-c");
}

int kdump_capture(void)
{
	unsigned char hdr[64];
	static char buf[1 << 20];
	struct stat st;
	ssize_t n;
	long total = 0;
	int fd;

	if (stat("/proc/vmcore", &st))
		return result(FAIL, "no /proc/vmcore: %s (not a capture kernel?)", strerror(errno));
	fd = open("/proc/vmcore", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || read(fd, hdr, sizeof(hdr)) != sizeof(hdr))
		return result(FAIL, "reading /proc/vmcore: %s", strerror(errno));
	if (memcmp(hdr, "\177ELF", 4) || hdr[4] != 2)	/* ELFCLASS64 */
		return result(FAIL, "/proc/vmcore is not an ELF64 core file: %02x %02x %02x %02x %02x",
			      hdr[0], hdr[1], hdr[2], hdr[3], hdr[4]);
	while (total < 64L << 20 && (n = read(fd, buf, sizeof(buf))) > 0)
		total += n;
	close(fd);
	if (total < 1 << 20)
		return result(FAIL, "/proc/vmcore: only %ld bytes read after the header", total);
	return result(PASS, "/proc/vmcore: %lld bytes, ELF64 core, the first %ld MiB read", (long long)st.st_size,
		      total >> 20);
}

/*
 * Called by init after the last scenario: the kexec or the crash, if one is
 * armed; returns only if it did not happen (-1), or if none was armed (0).
 */
int kexec_finish(void)
{
	pid_t spin[64];
	int n = online_cpus();

	if (armed == KEXEC_NEXT) {
		const char *from = cmdline_get("guest.kexec_from");

		diag("kexec: executing the loaded kernel%s",
		     from && !strcmp(from, "child") ? " from a child of init" : "");
		sync();
		if (from && !strcmp(from, "child")) {
			/*
			 * A task forked last, whose task_struct is not among
			 * the first allocations (README: the base's kexec hang).
			 */
			pid_t c = fork();

			if (c == 0) {
				reboot(LINUX_REBOOT_CMD_KEXEC);
				diag("kexec: reboot(LINUX_REBOOT_CMD_KEXEC) returned: %s", strerror(errno));
				_exit(1);
			}
			if (c > 0)
				waitpid(c, NULL, 0);
			return -1;
		}
		reboot(LINUX_REBOOT_CMD_KEXEC);
		diag("kexec: reboot(LINUX_REBOOT_CMD_KEXEC) returned: %s", strerror(errno));
		return -1;
	} else if (armed == CRASH) {
		if (n > 64)
			n = 64;
		spin_start(spin, n, -1);
		sleep_ms(1000);
		if (by_reset()) {
			diag("kdump: waiting for a system reset, %d CPUs loaded", n);
			sync();
			sleep_ms(RESET_WAIT_S * 1000);
			spin_stop(spin, n);
			diag("kdump: no system reset came in %d s", RESET_WAIT_S);
			return -1;
		}
		diag("kdump: crashing with sysrq-c, %d CPUs loaded", n);
		sync();
		write_str("/proc/sysrq-trigger", "c");
		spin_stop(spin, n);
		diag("kdump: still running after sysrq-c");
		return -1;
	}
	return 0;
}
