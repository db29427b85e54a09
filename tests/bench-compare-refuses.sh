#!/bin/bash
# Self-test of scripts/bench/bench-compare.sh's profile check (issue 60): two
# bench-host folders whose profiles differ only in the kernel's name are
# compared; a second run in another preemption mode, one with another LSM
# list, one with audit on, and a folder with no profile against one with a
# profile, are each refused (exit 1), naming the line that differs. No guest.
. "$(dirname "$0")/../scripts/common.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
# run DIR NAME BOGO: a bench-host folder with the profile below, NAME's kernel, a few rows.
run() {
	mkdir -p "$1"
	printf 'kernel\trun\tkind\tmetric\trep\tvalue\n' >"$1/runs.tsv"
	for r in 1 2 3; do printf 'base\t2\tload\tstress-ng-kill\t%s\t%s\n' "$r" "$(($3 + r))" >>"$1/runs.tsv"; done
	sed "s/^kernel: .*/kernel: 7.3.4-$2/" "$tmp/profile" >"$1/profile-base.txt"
}
cat >"$tmp/profile" <<'EOF2'
kernel: 7.3.4-base
build: #1 SMP PREEMPT_DYNAMIC
preempt: lazy (of: none voluntary full (lazy))
preempt-dynamic: y
preempt-rcu: y
lsm: lockdown,capability,landlock,yama,selinux,bpf
selinux: permissive, no policy loaded
audit: CONFIG_AUDIT=y, AUDITSYSCALL=y, audit=unset on the command line, auditd not running
hz: 100
page-size: 65536
cpus: 2
cpu: POWER10 (architected), altivec supported
machine: CHRP IBM pSeries (emulated by qemu)
EOF2
run "$tmp/base" base 100
run "$tmp/paca" paca 130
# expect WHAT STATUS PATTERN A B
expect() {
	local what=$1 want=$2 pat=$3 rc=0
	"$TOP/scripts/bench/bench-compare.sh" "$4" "$5" "$tmp/out-$what" >"$tmp/log" 2>&1 || rc=$?
	if [ "$rc" = "$want" ] && grep -qE -- "$pat" "$tmp/log"; then
		echo "ok: $what"
	else
		echo "FAIL: $what: exit $rc (want $want), /$pat/ $(grep -qE -- "$pat" "$tmp/log" && echo found || echo "not found"):"
		sed 's/^/    /' "$tmp/log"
		fail=1
	fi
}
expect same-profile 0 'profiles agree' "$tmp/base" "$tmp/paca"
if ! grep -q 'stress-ng --kill 1' "$tmp/out-same-profile/table.md" 2>/dev/null; then
	echo "FAIL: same-profile: no stress-ng row in its table"
	fail=1
fi
cp -r "$tmp/paca" "$tmp/full"
sed -i 's/^preempt: .*/preempt: full (of: none voluntary (full) lazy)/' "$tmp/full/profile-base.txt"
expect preempt-mode 1 'REFUSED.*profiles differ|> preempt: full' "$tmp/base" "$tmp/full"
grep -q '^    > preempt: full' "$tmp/log" || { echo "FAIL: preempt-mode: the differing line is not printed"; fail=1; }
cp -r "$tmp/paca" "$tmp/lsm"
sed -i 's/^lsm: .*/lsm: lockdown,capability,landlock,yama,apparmor,bpf/' "$tmp/lsm/profile-base.txt"
expect lsm 1 '> lsm: .*apparmor' "$tmp/base" "$tmp/lsm"
cp -r "$tmp/paca" "$tmp/audit"
sed -i 's/audit=unset/audit=1/' "$tmp/audit/profile-base.txt"
expect audit 1 '> audit: .*audit=1' "$tmp/base" "$tmp/audit"
cp -r "$tmp/paca" "$tmp/none"
rm "$tmp/none/profile-base.txt"
expect one-profile 1 'REFUSED: only one' "$tmp/base" "$tmp/none"
[ "$fail" = 0 ] || exit 1
echo "bench-compare: refuses runs in other profiles: ok"
