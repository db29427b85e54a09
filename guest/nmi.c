// SPDX-License-Identifier: GPL-2.0
/*
 * nmi-ipi: sysrq-l (all-CPU backtraces), guest.nmi_rounds= times (default
 * 50) while every CPU runs a load: each time, every online CPU must answer
 * with its 'NMI backtrace for cpu N'. On ppc64 the backtrace request goes
 * through smp_send_safe_nmi_ipi(): an NMI IPI that pseries delivers as a
 * message IPI and the target handles in smp_handle_nmi_ipi(). The system
 * reset NMI proper (H_SIGNAL_SYS_RESET) is what crash and kexec send.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib.h"
#include "scenarios.h"

#define MAX_CPUS 64

int nmi_ipi(void)
{
	const char *v = cmdline_get("guest.nmi_rounds");
	int rounds = v && *v ? atoi(v) : 50, n = online_cpus(), r, fd, cpu, got;
	char rec[512], seen[MAX_CPUS];
	pid_t spin[MAX_CPUS];
	uint64_t t0 = now_ns();

	if (access("/proc/sysrq-trigger", W_OK))
		return result(SKIP, "no /proc/sysrq-trigger: kernel without MAGIC_SYSRQ");
	if (n < 2 || n > MAX_CPUS)
		return result(SKIP, "%d CPUs online: wants 2 to %d", n, MAX_CPUS);
	spin_start(spin, n, -1);
	for (r = 1; r <= rounds; r++) {
		fd = kmsg_open();
		if (fd < 0)
			break;
		memset(seen, 0, sizeof(seen));
		got = 0;
		int e = write_str("/proc/sysrq-trigger", "l");

		if (e) {
			close(fd);
			spin_stop(spin, n);
			return result(FAIL, "round %d: writing 'l' to /proc/sysrq-trigger: %s", r, strerror(-e));
		}
		/* 'NMI backtrace for cpu N' (or '... cpu N skipped: idling at ...') */
		while (got < n && !kmsg_next(fd, rec, sizeof(rec), 10000)) {
			const char *p = strstr(rec, "NMI backtrace for cpu ");

			if (!p)
				continue;
			cpu = atoi(p + strlen("NMI backtrace for cpu "));
			if (cpu >= 0 && cpu < n && !seen[cpu]) {
				seen[cpu] = 1;
				got++;
			}
		}
		close(fd);
		if (got < n)
			break;
	}
	if (spin_stop(spin, n))
		return result(FAIL, "a load process died during the NMI IPIs");
	if (r <= rounds) {
		char missing[256] = "";

		for (cpu = 0; cpu < n; cpu++)
			if (!seen[cpu])
				snprintf(missing + strlen(missing), sizeof(missing) - strlen(missing), " %d", cpu);
		return result(FAIL, "round %d of %d: no backtrace within 10 s from CPU(s)%s", r, rounds, missing);
	}
	return result(PASS, "%d rounds of sysrq-l under load: all %d CPUs answered each time (%.1f s)",
		      rounds, n, (now_ns() - t0) / 1e9);
}
