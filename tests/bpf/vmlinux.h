/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A stand-in for the vmlinux.h that bpftool dumps from a kernel's BTF: only
 * the types bpf_experimental.h needs to compile for a powerpc BPF target.
 * CO-RE relocations resolve the real layouts at load time, so the fields
 * here only have to exist. As in bpftool's vmlinux.h, every struct is
 * preserve_access_index: each field access is a CO-RE relocation, which
 * scripts/check/bpf-header.sh reads back from the object.
 *
 * It follows the tree under test (scripts/check/bpf-header.sh): a ppc64 kernel with
 * the preempt count in the PACA (STUB_PACA_PREEMPT_COUNT) has none in
 * thread_info; one without it keeps thread_info.preempt_count.
 */
#ifndef STUB_VMLINUX_H
#define STUB_VMLINUX_H

#pragma clang attribute push (__attribute__((preserve_access_index)), apply_to = record)

typedef unsigned char __u8;
typedef unsigned short __u16;
typedef unsigned int __u32;
typedef unsigned long long __u64;
typedef signed char __s8;
typedef short __s16;
typedef int __s32;
typedef long long __s64;
typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s32 s32;
typedef __s64 s64;
typedef __u16 __be16;
typedef __u32 __be32;
typedef __u32 __wsum;
typedef unsigned long size_t;
typedef _Bool bool;
enum { false = 0, true = 1 };

struct pt_regs {
	unsigned long gpr[32];
	unsigned long nip, msr, orig_gpr3, ctr, link, xer, ccr, softe, trap;
};
typedef struct pt_regs bpf_user_pt_regs_t;

struct thread_info {
#ifndef STUB_PACA_PREEMPT_COUNT
	int preempt_count;
#endif
	unsigned long flags;
};
#ifdef STUB_PACA_PREEMPT_COUNT
struct paca_struct {
	struct task_struct *__current;
	union {
		u64 preempt_count;
		struct {
			u32 count;
			u32 need_resched;
		} preempt;
	};
};
#endif
struct task_struct { struct thread_info thread_info; int pid; };

struct bpf_list_head { __u64 a, b; };
struct bpf_list_node { __u64 a, b, c; };
struct bpf_rb_root { __u64 a, b; };
struct bpf_rb_node { __u64 a, b, c, d; };
struct bpf_refcount { __u32 a; };

#pragma clang attribute pop

#endif
