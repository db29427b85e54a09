// SPDX-License-Identifier: GPL-2.0
/*
 * user-selinux (issue 58, the user's kernel): SELinux enforcing for real and
 * audit in Fedora's default state, then kill() through both.
 * - mounts selinuxfs, loads /etc/selinux/policy.bin (guest/selinux/policy.conf,
 *   compiled by scripts/boot/rootfs.sh) with one write() to its 'load', moves
 *   PID 1 into bench_t, sets enforcing and reads it back;
 * - audit: by default Fedora's '-a task,never' rule (added here through the
 *   audit netlink socket, then audit enabled as auditd would); with audit=1
 *   on the kernel command line, that state with no rule at all;
 * - a kill() loop and stress-ng --kill: /sys/fs/selinux/avc/cache_stats's
 *   lookups before and after each must grow by at least one per kill().
 * A policy that does not load or enforcing that does not stick fails the
 * scenario, never a figure. user.kills= (default 20000), user.secs= (3).
 * user-selinux-end, after the bench's scenarios in the same boot: enforcing
 * must still read 1, and the AVC must have seen lookups since user-selinux.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/netlink.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib.h"
#include "scenarios.h"

#define SELINUXFS "/sys/fs/selinux"
#define POLICY "/etc/selinux/policy.bin"
#define DOMAIN "system_u:system_r:bench_t"

static char out[16384];
static long long lookups_at_start = -1;	/* after user-selinux's own loops */

/* The sum of the 'lookups' column of cache_stats (one line per CPU), or -1. */
static long long avc_lookups(void)
{
	char buf[8192], *p;
	long long sum = 0;

	if (read_str(SELINUXFS "/avc/cache_stats", buf, sizeof(buf)) < 0)
		return -1;
	p = strchr(buf, '\n');	/* the header: lookups hits misses ... */
	while (p && *++p)
		sum += strtoll(p, &p, 10), p = strchr(p, '\n');
	return sum;
}

/* One audit netlink request with an ack; a reply of type 'want' into rep. */
static int audit_req(int fd, int type, const void *data, size_t len, int want, void *rep, size_t replen)
{
	char buf[8192] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct nlmsghdr *nh = (struct nlmsghdr *)buf;
	struct sockaddr_nl kern = { .nl_family = AF_NETLINK };
	int acked = 0, got = !want;
	ssize_t n;

	memset(buf, 0, NLMSG_SPACE(len));
	nh->nlmsg_len = NLMSG_LENGTH(len);
	nh->nlmsg_type = type;
	nh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nh->nlmsg_seq = type;
	memcpy(NLMSG_DATA(nh), data, len);
	if (sendto(fd, buf, nh->nlmsg_len, 0, (struct sockaddr *)&kern, sizeof(kern)) < 0)
		return -errno;
	while (!acked || !got) {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0)
			return -errno;
		for (nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, n); nh = NLMSG_NEXT(nh, n)) {
			if (nh->nlmsg_type == NLMSG_ERROR) {
				int err = ((struct nlmsgerr *)NLMSG_DATA(nh))->error;

				if (err)
					return err;
				acked = 1;
			} else if (nh->nlmsg_type == want) {
				memcpy(rep, NLMSG_DATA(nh), replen);
				got = 1;
			}
		}
	}
	return 0;
}

/* Fedora's default: '-a task,never' (no audit context for any new task), audit on. */
static int audit_setup(int *rule, struct audit_status *st)
{
	const char *on = cmdline_get("audit");
	struct audit_rule_data r;
	struct audit_status set;
	int fd, err = 0;

	*rule = !on || strcmp(on, "1");	/* audit=1: the second state, no rule */
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);
	if (fd < 0)
		return -errno;
	if (*rule) {
		memset(&r, 0, sizeof(r));
		r.flags = AUDIT_FILTER_TASK;
		r.action = AUDIT_NEVER;
		memset(r.mask, 0xff, sizeof(r.mask));	/* auditctl's 'all syscalls' */
		err = audit_req(fd, AUDIT_ADD_RULE, &r, sizeof(r), 0, NULL, 0);
		if (!err) {
			memset(&set, 0, sizeof(set));
			set.mask = AUDIT_STATUS_ENABLED;
			set.enabled = 1;
			err = audit_req(fd, AUDIT_SET, &set, sizeof(set), 0, NULL, 0);
		}
	}
	if (!err)
		err = audit_req(fd, AUDIT_GET, NULL, 0, AUDIT_GET, st, sizeof(*st));
	close(fd);
	return err;
}

/* kill(getpid(), SIGUSR1) n times, ignored, in a child (stress-ng's kill stressor's call). */
static int kill_loop(long n)
{
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		signal(SIGUSR1, SIG_IGN);
		for (long i = 0; i < n; i++)
			if (kill(getpid(), SIGUSR1))
				_exit(1);
		_exit(0);
	}
	return pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st);
}

int user_selinux(void)
{
	long kills = bench_param("user.kills", 20000), secs = bench_param("user.secs", 3);
	char buf[256], t[16];
	long long a, b, c;
	struct audit_status st;
	struct stat sb;
	int fd, rule, err;
	ssize_t n;
	char *pol;

	mkdir(SELINUXFS, 0755);
	if (mount("selinuxfs", SELINUXFS, "selinuxfs", 0, NULL) && errno != EBUSY)
		return result(FAIL, "cannot mount selinuxfs (%s): a kernel without SELinux?", strerror(errno));
	fd = open(POLICY, O_RDONLY);
	if (fd < 0 || fstat(fd, &sb) || !(pol = malloc(sb.st_size)) || read(fd, pol, sb.st_size) != sb.st_size)
		return result(FAIL, "no policy %s in the initramfs", POLICY);
	close(fd);
	fd = open(SELINUXFS "/load", O_WRONLY);
	n = fd < 0 ? -1 : write(fd, pol, sb.st_size);
	if (n != sb.st_size)
		return result(FAIL, "the policy did not load: write() of %lld bytes to %s/load: %s",
			      (long long)sb.st_size, SELINUXFS, n < 0 ? strerror(errno) : "short write");
	close(fd);
	free(pol);
	diag("SELINUX policy=loaded bytes=%lld", (long long)sb.st_size);
	buf[0] = 0;
	err = write_str("/proc/self/attr/current", DOMAIN);
	if (err || read_str("/proc/self/attr/current", buf, sizeof(buf)) < 0 || strncmp(buf, DOMAIN, strlen(DOMAIN)))
		return result(FAIL, "PID 1 did not move to %s (%s; /proc/self/attr/current reads '%s')", DOMAIN,
			      strerror(-err), buf);
	err = audit_setup(&rule, &st);
	if (err)
		return result(FAIL, "audit: netlink request failed: %s", strerror(-err));
	if (st.enabled != 1)
		return result(FAIL, "audit: enabled=%u, not 1", st.enabled);
	diag("SELINUX audit=%s enabled=%u pid=%u backlog=%u", rule ? "task-never-rule" : "on-no-rules", st.enabled,
	     st.pid, st.backlog);
	buf[0] = 0;
	if (write_str(SELINUXFS "/enforce", "1") || read_str(SELINUXFS "/enforce", buf, sizeof(buf)) < 0 ||
	    strtol(buf, NULL, 10) != 1)
		return result(FAIL, "enforcing did not stick: wrote 1 to %s/enforce, read back '%s'", SELINUXFS, buf);
	diag("SELINUX enforce=%ld", strtol(buf, NULL, 10));

	a = avc_lookups();
	if (a < 0)
		return result(FAIL, "no %s/avc/cache_stats (CONFIG_SECURITY_SELINUX_AVC_STATS)", SELINUXFS);
	if (kill_loop(kills))
		return result(FAIL, "the kill() loop failed");
	b = avc_lookups();
	diag("SELINUX kill-loop kills=%ld avc_lookups_before=%lld after=%lld delta=%lld", kills, a, b, b - a);
	if (b - a < kills)
		return result(FAIL, "AVC lookups grew by %lld over %ld kill() calls: kill() is not checked by SELinux",
			      b - a, kills);

	if (access("/usr/bin/stress-ng", X_OK))
		return result(FAIL, "no stress-ng in the initramfs");
	{
		char *ver[] = { "stress-ng", "--version", NULL };
		char *sng[] = { "stress-ng", "--kill", "1", "-t", t, "--metrics-brief", "--temp-path", "/tmp", NULL };

		run_cmd(ver, 30, out, sizeof(out));
		diag_text("stress-ng: ", out, 1);
		snprintf(t, sizeof(t), "%ld", secs);
		if (run_cmd(sng, secs + 60, out, sizeof(out))) {
			diag_text("stress-ng: ", out, 20);
			return result(FAIL, "stress-ng --kill failed");
		}
		diag_text("stress-ng: ", out, 6);
	}
	c = avc_lookups();
	diag("SELINUX stress-ng-kill secs=%ld avc_lookups_before=%lld after=%lld delta=%lld", secs, b, c, c - b);
	buf[0] = 0;
	if (read_str(SELINUXFS "/enforce", buf, sizeof(buf)) < 0 || strtol(buf, NULL, 10) != 1)
		return result(FAIL, "enforcing did not stick through the run: %s/enforce reads '%s'", SELINUXFS, buf);
	if (c - b < 1000)
		return result(FAIL, "AVC lookups grew by only %lld during stress-ng --kill", c - b);
	lookups_at_start = c;
	return result(PASS, "enforcing, audit %s; AVC lookups +%lld over %ld kill() calls, +%lld in stress-ng",
		      rule ? "with the task,never rule" : "on with no rules", b - a, kills, c - b);
}

int user_selinux_end(void)
{
	char buf[64] = "";
	long long now = avc_lookups();

	if (lookups_at_start < 0)
		return result(FAIL, "user-selinux did not pass in this boot: no policy, or not enforcing");
	if (read_str(SELINUXFS "/enforce", buf, sizeof(buf)) < 0 || strtol(buf, NULL, 10) != 1)
		return result(FAIL, "enforcing did not stick through the bench: %s/enforce reads '%s'", SELINUXFS, buf);
	diag("SELINUX end enforce=1 avc_lookups_since=%lld", now - lookups_at_start);
	return result(PASS, "still enforcing; AVC lookups +%lld since user-selinux", now - lookups_at_start);
}
