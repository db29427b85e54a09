#!/bin/bash
# The profile of the running kernel, as bench-host.sh records it (issue 60):
# 'key: value' lines naming what makes two runs comparable or not. 'kernel'
# and 'build' name the kernel under test; bench-compare.sh refuses two runs
# whose other lines differ (scripts/bench/bench-compare.sh).
# Usage: profile-host.sh   (reads /boot/config-$(uname -r) or /proc/config.gz)
cfg=/boot/config-$(uname -r)
conf=
if [ -r "$cfg" ]; then conf=$(cat "$cfg"); elif [ -r /proc/config.gz ]; then conf=$(zcat /proc/config.gz); fi
kconf() {
	local v
	[ -n "$conf" ] || { echo "unknown (no /boot/config-$(uname -r), no /proc/config.gz)"; return; }
	v=$(sed -n "s/^CONFIG_$1=//p" <<<"$conf")
	echo "${v:-n}"
}
# The preemption mode in force: /sys/kernel/debug/sched/preempt marks it as (mode).
preempt=unknown
[ -d /sys/kernel/debug/sched ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null || true
if p=$(cat /sys/kernel/debug/sched/preempt 2>/dev/null); then
	preempt=$(sed -n 's/.*(\([a-z]*\)).*/\1/p' <<<"$p")
	preempt="${preempt:-unknown} (of: $p)"
elif [ "$(kconf PREEMPT_DYNAMIC)" != y ]; then
	preempt="fixed at build: $(for m in PREEMPT_NONE PREEMPT_VOLUNTARY PREEMPT PREEMPT_LAZY PREEMPT_RT; do
		[ "$(kconf $m)" != y ] || echo "$m"; done | xargs)"
else
	preempt="unknown (no /sys/kernel/debug/sched/preempt: run as root with debugfs)"
fi
if [ -r /sys/fs/selinux/enforce ]; then
	case $(cat /sys/fs/selinux/enforce) in 1) selinux=enforcing ;; *) selinux=permissive ;; esac
	[ -e /sys/fs/selinux/policyvers ] && [ -n "$(ls /sys/fs/selinux/class 2>/dev/null)" ] ||
		selinux="$selinux, no policy loaded"
else
	selinux=off
fi
auditarg=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^audit=//p')
auditd="not running"
pgrep -x auditd >/dev/null 2>&1 && auditd=running
echo "kernel: $(uname -r)"
echo "build: $(uname -v)"
echo "preempt: $preempt"
echo "preempt-dynamic: $(kconf PREEMPT_DYNAMIC)"
echo "preempt-rcu: $(kconf PREEMPT_RCU)"
echo "lsm: $(cat /sys/kernel/security/lsm 2>/dev/null || echo "unknown (no /sys/kernel/security/lsm)")"
echo "selinux: $selinux"
echo "audit: CONFIG_AUDIT=$(kconf AUDIT), AUDITSYSCALL=$(kconf AUDITSYSCALL), audit=${auditarg:-unset} on the command line, auditd $auditd"
echo "hz: $(kconf HZ)"
echo "page-size: $(getconf PAGESIZE)"
echo "cpus: $(nproc)"
echo "cpu: $(sed -n 's/^\(cpu\|model name\)[[:space:]]*: //p' /proc/cpuinfo | sort -u | xargs)"
echo "machine: $(sed -n 's/^\(machine\|platform\)[[:space:]]*: //p' /proc/cpuinfo | sort -u | xargs)"
