// SPDX-License-Identifier: GPL-2.0
/*
 * kvm-l2 (guest.run=kvm-l2, never run by default): the guest kernel, itself
 * a pseries guest under QEMU, runs a tiny L2 guest through /dev/kvm. KVM-HV
 * does so through QEMU's nested API (cap-nested-papr: PAPR nested API v2,
 * or cap-nested-hv: v1), KVM-PR by emulation (hash MMU: boot with
 * disable_radix). Both save and load PACA fields around the L2, the fields
 * the series moved. The L2 runs in real mode: it puts "L2 hello" on its
 * console with the H_PUT_TERM_CHAR hypercall, which reaches us as
 * KVM_EXIT_PAPR_HCALL, then makes hypercall 0, our "halt".
 * guest.kvm_type=hv|pr|any picks the VM type (default any: HV, then PR).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib.h"
#include "scenarios.h"

#define H_PUT_TERM_CHAR	0x58
#define L2_MEM		(1 << 20)
#define MSR_SF		(1ull << 63)
#define MSR_ME		(1ull << 12)
#define MSR_LE		1ull

/* addi/addis/ori/oris rD,rA,imm and the others the L2 needs. */
#define D_FORM(op, d, a, imm)	((uint32_t)(op) << 26 | (d) << 21 | (a) << 16 | ((imm) & 0xffff))
#define LI(d, imm)		D_FORM(14, d, 0, imm)
#define LIS(d, imm)		D_FORM(15, d, 0, imm)
#define ORI(a, s, imm)		D_FORM(24, s, a, imm)
#define ORIS(a, s, imm)		D_FORM(25, s, a, imm)
#define SLDI32(a, s)		(30u << 26 | (s) << 21 | (a) << 16 | 0x3e << 5 | 1 << 2 | 1 << 1)
#define SC1			0x44000022u	/* sc 1: hypercall */
#define B_SELF			0x48000000u

/* "L2 hello" in r6, as H_PUT_TERM_CHAR takes it (big-endian bytes), 8 bytes. */
static const uint32_t l2_code[] = {
	LIS(6, 0x4c32), ORI(6, 6, 0x2068), SLDI32(6, 6), ORIS(6, 6, 0x656c), ORI(6, 6, 0x6c6f),
	LI(3, H_PUT_TERM_CHAR), LI(4, 0), LI(5, 8), SC1,
	LI(3, 0), SC1,
	B_SELF,
};

static void on_alarm(int sig)
{
	(void)sig;	/* only interrupts KVM_RUN */
}

/* One L2 run in a VM of the given type; 0, or -1 with the reason set. */
static int run_l2(int kvm, int type, char *said, size_t size, int *hcalls)
{
	struct kvm_enable_cap cap = { .cap = KVM_CAP_PPC_PAPR };
	struct kvm_userspace_memory_region region = { 0 };
	struct kvm_run *run = MAP_FAILED;
	struct kvm_regs regs;
	int vm, vcpu = -1, ret = -1;
	long runsz = 0;
	void *mem;
	size_t n = 0;

	vm = ioctl(kvm, KVM_CREATE_VM, type);
	if (vm < 0) {
		result(FAIL, "KVM_CREATE_VM(%d): %s", type, strerror(errno));
		return -1;
	}
	mem = mmap(NULL, L2_MEM, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		result(FAIL, "mmap: %s", strerror(errno));
		goto out;
	}
	memcpy(mem, l2_code, sizeof(l2_code));
	region.memory_size = L2_MEM;
	region.userspace_addr = (uintptr_t)mem;
	if (ioctl(vm, KVM_SET_USER_MEMORY_REGION, &region)) {
		result(FAIL, "KVM_SET_USER_MEMORY_REGION: %s", strerror(errno));
		goto out;
	}
	vcpu = ioctl(vm, KVM_CREATE_VCPU, 0);
	if (vcpu < 0) {
		result(FAIL, "KVM_CREATE_VCPU: %s", strerror(errno));
		goto out;
	}
	runsz = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
	if (runsz <= 0) {
		result(FAIL, "KVM_GET_VCPU_MMAP_SIZE: %s", strerror(errno));
		goto out;
	}
	run = mmap(NULL, runsz, PROT_READ | PROT_WRITE, MAP_SHARED, vcpu, 0);
	if (run == MAP_FAILED || ioctl(vcpu, KVM_ENABLE_CAP, &cap) || ioctl(vcpu, KVM_GET_REGS, &regs)) {
		result(FAIL, "vCPU setup (mmap, KVM_CAP_PPC_PAPR, KVM_GET_REGS): %s", strerror(errno));
		goto out;
	}
	regs.pc = 0;
	regs.msr = MSR_SF | MSR_ME | (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? MSR_LE : 0);
	if (ioctl(vcpu, KVM_SET_REGS, &regs)) {
		result(FAIL, "KVM_SET_REGS: %s", strerror(errno));
		goto out;
	}
	signal(SIGALRM, on_alarm);
	alarm(60);
	for (*hcalls = 0; *hcalls < 16; ++*hcalls) {
		if (ioctl(vcpu, KVM_RUN, 0)) {
			result(FAIL, "KVM_RUN: %s%s", strerror(errno), errno == EINTR ? " (60 s: the L2 hangs)" : "");
			break;
		}
		if (run->exit_reason != KVM_EXIT_PAPR_HCALL) {
			result(FAIL, "KVM_RUN exit %u, not a hypercall (after %d)", run->exit_reason, *hcalls);
			break;
		}
		if (run->papr_hcall.nr == 0) {
			ret = 0;	/* the L2's halt */
			break;
		}
		if (run->papr_hcall.nr != H_PUT_TERM_CHAR || run->papr_hcall.args[1] > 16) {
			result(FAIL, "unexpected hypercall %#llx from the L2", (unsigned long long)run->papr_hcall.nr);
			break;
		}
		for (unsigned int i = 0; i < run->papr_hcall.args[1] && n + 1 < size; i++)
			said[n++] = run->papr_hcall.args[2 + i / 8] >> (56 - 8 * (i % 8));
		said[n] = 0;
		run->papr_hcall.ret = 0;	/* H_SUCCESS */
	}
	alarm(0);
out:
	if (run != MAP_FAILED)
		munmap(run, runsz);
	if (vcpu >= 0)
		close(vcpu);
	if (mem != MAP_FAILED)
		munmap(mem, L2_MEM);
	close(vm);
	return ret;
}

int kvm_l2(void)
{
	const char *v = cmdline_get("guest.kvm_type");
	int types[2] = { KVM_VM_PPC_HV, KVM_VM_PPC_PR }, ntypes = 2, hcalls = 0, kvm;
	static const char *const name[] = { [KVM_VM_PPC_HV] = "HV", [KVM_VM_PPC_PR] = "PR" };
	char said[32] = "";
	uint64_t t0 = now_ns();

	if (v && !strcmp(v, "pr"))
		types[0] = KVM_VM_PPC_PR, ntypes = 1;
	else if (v && !strcmp(v, "hv"))
		ntypes = 1;
	kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (kvm < 0)
		return result(FAIL, "/dev/kvm: %s (a kernel without KVM?)", strerror(errno));
	for (int i = 0; i < ntypes; i++) {
		diag("KVM-%s: creating the L2", name[types[i]]);
		if (run_l2(kvm, types[i], said, sizeof(said), &hcalls)) {
			diag("KVM-%s: %s", name[types[i]], reason);	/* the next type may work */
			continue;
		}
		close(kvm);
		if (strcmp(said, "L2 hello"))
			return result(FAIL, "KVM-%s: the L2 said '%s', not 'L2 hello'", name[types[i]], said);
		return result(PASS, "KVM-%s: the L2 said '%s' and halted (%d hypercalls, %.1f s)", name[types[i]],
			      said, hcalls + 1, (now_ns() - t0) / 1e9);
	}
	close(kvm);
	return FAIL;
}
