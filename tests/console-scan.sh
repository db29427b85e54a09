#!/bin/bash
# Self-test of scripts/boot/console.sh on recorded consoles (tests/console/*.log):
# a known base splat is reported and its lockdep-off is a known failure, not a
# pass; a new splat fails with its line shown; a guest that never finished fails
# with the last console lines; a boot hung in KUnit still gets every result.
. "$(dirname "$0")/lib.sh"
export LINUX=$MAIN_LINUX	# kunit.py comes from the kernel tree
logs=$TOP/tests/console

"$TOP/scripts/boot/console.sh" "$logs/known.log" >"$T/out" 2>&1 || { cat "$T/out"; fail "known.log: a known base splat failed the boot"; }
cat "$T/out"
expect_line '^ok [0-9]+ splats # no new splat; known base splat: DEBUG_LOCKS_WARN_ON'
expect_line '^not ok [0-9]+ lockdep-alive # TODO known base failure'
expect_line '^ok [0-9]+ kunit-console # .*Ran 2 tests'
expect_line ': 5 passed, 0 failed, 0 skipped, 1 known base failures$'
pass "a known base splat is reported; the lockdep-alive failure it causes is a known failure, not a pass"

expect_fail "a new splat" "$TOP/scripts/boot/console.sh" "$logs/new.log"
expect_line '^not ok [0-9]+ splats # 1 new splat'
expect_line '^#   22: .*BUG: scheduling while atomic'
expect_line '^not ok [0-9]+ lockdep-alive # debug_locks: 0'
pass "a new splat fails with its line; lockdep-alive then fails for real"

expect_fail "a guest that never finished" "$TOP/scripts/boot/console.sh" "$logs/hang.log"
expect_line '^not ok [0-9]+ guest-done # TIMEOUT'
expect_line '^# last 50 console lines:'
pass "a timeout fails with the last console lines"

KUNIT_SUITES="preempt_count_demo missing_suite" expect_fail "a required KUnit suite that did not run" \
	"$TOP/scripts/boot/console.sh" "$logs/known.log"
expect_line '^ok [0-9]+ kunit-preempt_count_demo # pass:2 fail:0 skip:0 total:2$'
expect_line '^not ok [0-9]+ kunit-missing_suite # the suite did not run at boot$'
pass "each KUnit suite the kernel must run is one result; a missing one fails"

# kdump's intended panic (INTENDED): not a splat; any other splat still is.
kd=$T/kdump.log
printf '%s\n' '[    9.000000] sysrq: Trigger a crash' \
	'[    9.000001] Kernel panic - not syncing: sysrq triggered crash' \
	'[    0.000000] Linux version 7.3.4 (capture kernel)' \
	'[    2.000000] guest: KTAP version 1' '[    2.000001] guest: 1..1' \
	'[    2.000002] guest: ok 1 kdump-capture # /proc/vmcore: 1 bytes' '[    2.000003] guest: GUEST-DONE' >"$kd"
panic='Kernel panic - not syncing: sysrq triggered crash$'
INTENDED=$panic "$TOP/scripts/boot/console.sh" "$kd" >"$T/out" 2>&1 || { cat "$T/out"; fail "the intended panic failed the boot"; }
expect_line '^ok [0-9]+ splats # none$'
expect_fail "the panic, not declared intended" "$TOP/scripts/boot/console.sh" "$kd"
expect_line '^not ok [0-9]+ splats # 1 new splat'
sed -i '2a [    9.000002] WARNING: arch/powerpc/kernel/smp.c:600 at crash_send_ipi+0x40/0x60' "$kd"
INTENDED=$panic expect_fail "another splat beside the intended panic" "$TOP/scripts/boot/console.sh" "$kd"
expect_line '^#   3: .*WARNING: arch/powerpc/kernel/smp.c:600'
! grep -q '^#   2: ' "$T/out" || fail "the intended panic was listed as a splat"
pass "the intended panic (INTENDED) is not a splat; another splat beside it still fails"

# A known splat whose fix (its 'fixed-by:' subject) is in the booted tree is new.
fixed=$T/fixed-tree
git init -q "$fixed" && git -C "$fixed" commit -q --allow-empty -m base && git -C "$fixed" tag base
git -C "$fixed" commit -q --allow-empty -m "$(sed -nE 's/^fixed-by: \^?([^$]*)\$?$/\1/p' "$TOP/tests/known-splats.txt" | sed -n 1p)"
KERNEL_TREE=$fixed expect_fail "a known splat in a kernel that has its fix" "$TOP/scripts/boot/console.sh" "$logs/known.log"
expect_line '^not ok [0-9]+ splats # [0-9]+ new splat'
expect_line '^not ok [0-9]+ lockdep-alive # debug_locks: 0'
pass "a kernel with the fix of a known splat fails on that splat and on lockdep-alive"

# sysrq-l's NMI backtraces: a CPU caught in preempt_count_add is no splat
# (frames are not scanned); a guest run short of its plan, or without the
# REQUIRE line, fails.
nb=$T/nmi.log
printf '%s\n' '[    3.000000] guest: KTAP version 1' '[    3.000001] guest: 1..2' \
	'[    3.100000] NMI backtrace for cpu 1' '[    3.100001] NIP [c0000000001d1e00] preempt_count_add+0x20/0x80' \
	'[    3.100002] LR [c0000000001d1e44] preempt_count_sub+0x54/0x80' '[    3.100003] Call Trace:' \
	'[    3.100004] [c000000002f4f8a0] [c0000000001d1e44] preempt_count_sub+0x54/0x80' \
	'[    3.200000] guest: ok 1 nmi-ipi # 50 rounds' '[    3.200001] guest: ok 2 lockdep-alive' \
	'[    3.200002] guest: GUEST-DONE' >"$nb"
"$TOP/scripts/boot/console.sh" "$nb" >"$T/out" 2>&1 || { cat "$T/out"; fail "an NMI backtrace through preempt_count_add failed the boot"; }
expect_line '^ok [0-9]+ splats # none$'
REQUIRE='^ok [0-9]+ nmi-ipi # 50 rounds' "$TOP/scripts/boot/console.sh" "$nb" >"$T/out" 2>&1 || { cat "$T/out"; fail "REQUIRE of a line that is there failed"; }
expect_line '^ok [0-9]+ required # ok 1 nmi-ipi # 50 rounds$'
REQUIRE='^ok [0-9]+ kexec # round 3 ' expect_fail "a REQUIRE line that is not there" "$TOP/scripts/boot/console.sh" "$nb"
expect_line '^not ok [0-9]+ required # no guest line matches /\^ok \[0-9\]\+ kexec # round 3 /$'
sed -i 's/guest: 1\.\.2$/guest: 1..3/' "$nb"
expect_fail "a guest run short of its plan" "$TOP/scripts/boot/console.sh" "$nb"
expect_line '^not ok [0-9]+ guest-plan # guest run 1 of 1: planned 3 results, printed 2$'
pass "stack frames are not splats; REQUIRE and each run's '1..N' plan are enforced"

# A BUG: without a cut-here line is a block up to the end of its call trace:
# known as a whole by a frame in it (the kvm-hv-pmu base bug), and only it.
kb=$T/bug.log
printf '%s\n' '[    1.0] BUG: sleeping function called from invalid context at include/linux/sched/mm.h:322' \
	'[    1.1] preempt_count: 1, expected: 0' '[    1.2] Call Trace:' \
	'[    1.3] [c00000000445fb70] [c00000000011c60c] kvmppc_gsm_new+0x54/0x98' \
	'[    1.4] [c00000000445fbb0] [c00000000095ad24] kvmppc_register_pmu+0xd4/0x270' \
	'[    1.5] ---- interrupt: 0 at 0x0' '[    1.6] kvmppc-pmu: Registered kvm-hv pmu' \
	'[    2.0] guest: KTAP version 1' '[    2.1] guest: 1..1' '[    2.2] guest: ok 1 smp' '[    2.3] guest: GUEST-DONE' >"$kb"
"$TOP/scripts/boot/console.sh" "$kb" >"$T/out" 2>&1 || { cat "$T/out"; fail "the known kvm-hv-pmu BUG block failed the boot"; }
expect_line '^ok [0-9]+ splats # no new splat; known base splat: BUG: sleeping function called'
sed -i 's/\[    1.6\] kvmppc-pmu: Registered kvm-hv pmu/[    1.6] BUG: scheduling while atomic: swapper\/0\/1\/0x00000002/' "$kb"
expect_fail "a second BUG after the known block" "$TOP/scripts/boot/console.sh" "$kb"
expect_line '^not ok [0-9]+ splats # 1 new splat'
pass "a BUG block is known by a frame in it, and a BUG after it is new"

# KERNEL_REQUIRE / KERNEL_FORBID: a kernel console line (here the second
# series' boot line, tab and all) must or must not be there; guest lines don't count.
kr=$T/kreq.log
printf '%s\n' '[    0.100000] rcu: Preemptible hierarchical RCU implementation.' \
	$'[    0.100001] rcu: \tRead-side nesting kept per CPU, out of line.' \
	'[    2.000000] guest: KTAP version 1' '[    2.000001] guest: 1..1' \
	'[    2.000002] guest: ok 1 smp # Read-side nesting? guest lines are not the kernel' '[    2.000003] guest: GUEST-DONE' >"$kr"
KERNEL_REQUIRE=$'^rcu: \tRead-side nesting kept per CPU' "$TOP/scripts/boot/console.sh" "$kr" >"$T/out" 2>&1 ||
	{ cat "$T/out"; fail "KERNEL_REQUIRE of a kernel line that is there failed"; }
expect_line '^ok [0-9]+ kernel-required # rcu:  Read-side nesting kept per CPU, out of line\.$'
KERNEL_FORBID='Read-side nesting' expect_fail "a forbidden kernel line" "$TOP/scripts/boot/console.sh" "$kr"
expect_line '^not ok [0-9]+ kernel-forbidden # rcu:  Read-side nesting'
sed -i '2d' "$kr"
KERNEL_REQUIRE='Read-side nesting' expect_fail "a required kernel line that only the guest prints" "$TOP/scripts/boot/console.sh" "$kr"
expect_line '^not ok [0-9]+ kernel-required # no kernel line matches /Read-side nesting/$'
KERNEL_FORBID='Read-side nesting' "$TOP/scripts/boot/console.sh" "$kr" >"$T/out" 2>&1 ||
	{ cat "$T/out"; fail "KERNEL_FORBID failed on a kernel without the line"; }
expect_line '^ok [0-9]+ kernel-forbidden # no kernel line matches'
pass "KERNEL_REQUIRE and KERNEL_FORBID judge the kernel's own lines, not the guest's"

# A timed-out boot whose vCPU lines (scripts/boot/boot.sh) match tests/known-hangs.txt
# is a known base failure; another hang, or the same hang in a tree with its
# fix, fails.
kh=$T/hang.log
printf '%s\n' '[    2.000000] guest: KTAP version 1' '[    2.000001] guest: 1..1' '[    2.000002] guest: ok 1 kexec # round 0 of 3' \
	'[    3.322462] kexec: Starting switchover sequence.' '# boot: TIMEOUT: QEMU killed after 900 s' \
	'# boot: CPU#0 NIP c000000000008f60 program_check_common_real+0x0 LR c000000000022688 kernel_fp_unavailable_exception+0x54' >"$kh"
REQUIRE='round 3' "$TOP/scripts/boot/console.sh" "$kh" >"$T/out" 2>&1 || { cat "$T/out"; fail "a known base hang failed the boot"; }
expect_line '^not ok [0-9]+ guest-done # TODO known base failure: TIMEOUT.*a known base hang .*kernel_fp_unavailable_exception'
expect_line '^not ok [0-9]+ required # TODO known base failure'
sed -i 's/kernel_fp_unavailable_exception+0x54/do_page_fault+0x54/' "$kh"
expect_fail "a hang that is not known" "$TOP/scripts/boot/console.sh" "$kh"
expect_line '^not ok [0-9]+ guest-done # TIMEOUT: QEMU killed after 900 s: the guest hung or was too slow$'
sed -i 's/do_page_fault+0x54/kernel_fp_unavailable_exception+0x54/' "$kh"
git -C "$fixed" commit -q --allow-empty -m "$(sed -nE 's/^fixed-by: \^?([^$]*)\$?$/\1/p' "$TOP/tests/known-hangs.txt" | sed -n 1p)"
KERNEL_TREE=$fixed expect_fail "the known hang in a kernel that has its fix" "$TOP/scripts/boot/console.sh" "$kh"
expect_line '^not ok [0-9]+ guest-done # TIMEOUT: QEMU killed after 900 s: the guest hung or was too slow$'
# The same hang sampled in the SLB miss vector, translation off (the third run).
sed -i 's/^# boot: CPU#0 .*/# boot: CPU#0 NIP 0000000000001e50 entry_flush_fallback+0x0 (real mode) LR 00000000000003b8 exc_real_0x380_data_access_slb+0x38 (real mode)/' "$kh"
REQUIRE='round 3' "$TOP/scripts/boot/console.sh" "$kh" >"$T/out" 2>&1 || { cat "$T/out"; fail "the known base hang, sampled in real mode, failed the boot"; }
expect_line '^not ok [0-9]+ guest-done # TODO known base failure: TIMEOUT.*a known base hang .*exc_real_0x380_data_access_slb'
KERNEL_TREE=$fixed expect_fail "the known hang, in real mode, in a kernel that has its fix" "$TOP/scripts/boot/console.sh" "$kh"
expect_line '^not ok [0-9]+ guest-done # TIMEOUT: QEMU killed after 900 s: the guest hung or was too slow$'
# The same vCPU state in a boot that stopped elsewhere (not at the kexec
# switchover, 'after:'): another hang, not the known one.
sed -i 's/kexec: Starting switchover sequence\./rcu: INFO: rcu_preempt self-detected stall on CPU/' "$kh"
expect_fail "a real-mode SLB miss loop that is not the kexec hang" "$TOP/scripts/boot/console.sh" "$kh"
expect_line '^not ok [0-9]+ guest-done # TIMEOUT: QEMU killed after 900 s: the guest hung or was too slow$'
# A kernel tree whose history cannot be read: no known list is trusted.
KERNEL_TREE=$T/no-such-tree expect_fail "a kernel tree without history" "$TOP/scripts/boot/console.sh" "$logs/known.log"
expect_line 'no git history base..HEAD: cannot tell which known splats and hangs its fixes cover'
pass "a known base hang is a known failure, not a pass; an unknown hang, the known one after its fix, its vCPU state where the boot stopped elsewhere, or a tree without history, fails"

# A boot that hangs in KUnit, a one-case suite done before the hang and 200 KiB
# of soft-lockup dumps after it (a real negative control's console): every
# result is still printed. The judge once died of SIGPIPE here, silently.
ku=$T/kunit-hang.log
{
	printf '%s\n' '[    2.000000] KTAP version 1' '[    2.000001] 1..2' \
		'[    2.000002]     KTAP version 1' '[    2.000003]     # Subtest: powerpc_irq_replay' \
		'[    2.000004]     1..1' '[    2.000005]     ok 1 replay_preempts' '[    2.000006] ok 1 powerpc_irq_replay' \
		'[    2.000007]     KTAP version 1' '[    2.000008]     # Subtest: powerpc_preempt' '[    2.000009]     1..9'
	for i in $(seq 2000); do
		printf '[   28.%06d] GPR%02d: c00000000004e1dc c00000000669ff20 c000000000888000 0000000000000000\n' "$i" $((i % 32))
	done
	echo '[   28.500000] watchdog: BUG: soft lockup - CPU#0 stuck for 26s! [preempt_hog/0:108]'
	echo '# boot: TIMEOUT: QEMU killed after 300 s'
} >"$ku"
KUNIT_SUITES="powerpc_irq_replay powerpc_preempt" expect_fail "a boot hung in KUnit" "$TOP/scripts/boot/console.sh" "$ku"
expect_line '^not ok [0-9]+ guest-done # TIMEOUT'
expect_line '^ok [0-9]+ kunit-powerpc_irq_replay # 1 of 1 cases passed$'
expect_line '^not ok [0-9]+ kunit-powerpc_preempt # the suite did not run at boot$'
expect_line '^not ok [0-9]+ splats # 1 new splat'
! grep -q 'internal error' "$T/out" || fail "console.sh failed on its own: see above"
pass "a boot hung in KUnit behind a long console still gets every result"
