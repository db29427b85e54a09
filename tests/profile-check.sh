#!/bin/bash
# Self-test of scripts/bench/profile-check.sh (issue 58): a config holding the
# user profile and a console of a passing user-selinux scenario are accepted;
# the same config without SELinux, with another LSM list or without
# PREEMPT_DYNAMIC, and a console without the loaded policy or whose enforcing
# did not stick, are each refused, naming what is missing; with -b (a bench
# boot), a console without user-selinux-end's enforcing at the end is refused
# too. No kernel build.
. "$(dirname "$0")/../scripts/common.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
check=$TOP/scripts/bench/profile-check.sh
fail=0

# The profile's values as a .config would hold them.
sed -n 's/[[:space:]]*#.*//; /^CONFIG_/p' "$CONFIGS/user.config" >"$tmp/good.config"
cat >"$tmp/good.log" <<'EOF'
[    3.100000] guest: # SELINUX policy=loaded bytes=2089
[    3.110000] guest: # SELINUX audit=task-never-rule enabled=1 pid=0 backlog=0
[    3.120000] guest: # SELINUX enforce=1
[    4.000000] guest: # SELINUX kill-loop kills=20000 avc_lookups_before=812 after=20815 delta=20003
[    9.000000] guest: ok 1 user-selinux # enforcing
EOF
# expect WHAT STATUS PATTERN CONFIG [LOG]: profile-check's status and a line of its output.
expect() {
	local what=$1 want=$2 pat=$3 rc=0
	shift 3
	"$check" "$@" >"$tmp/out" 2>&1 || rc=$?
	if [ "$rc" = "$want" ] && grep -qE -- "$pat" "$tmp/out"; then
		echo "ok: $what"
	else
		echo "FAIL: $what: status $rc (want $want), /$pat/ ${pat:+in the output:}"
		sed 's/^/    /' "$tmp/out"
		fail=1
	fi
}
expect "the profile and a passing boot are accepted" 0 "ok: user-le's profile, enforcing" \
	"$tmp/good.config" "$tmp/good.log"
sed 's/^CONFIG_SECURITY_SELINUX=y$/# CONFIG_SECURITY_SELINUX is not set/' "$tmp/good.config" >"$tmp/no-selinux.config"
expect "a kernel without SELinux is refused" 1 "REFUSED: .*CONFIG_SECURITY_SELINUX=y" "$tmp/no-selinux.config"
sed 's/^CONFIG_LSM=.*/CONFIG_LSM="landlock,lockdown,yama,apparmor,bpf"/' "$tmp/good.config" >"$tmp/lsm.config"
expect "another LSM list is refused" 1 'REFUSED: .*CONFIG_LSM="landlock,lockdown,yama,integrity,selinux,bpf"' "$tmp/lsm.config"
grep -v '^CONFIG_PREEMPT_DYNAMIC=' "$tmp/good.config" >"$tmp/no-dynamic.config"
expect "a kernel without PREEMPT_DYNAMIC is refused" 1 "REFUSED: .*CONFIG_PREEMPT_DYNAMIC=y" "$tmp/no-dynamic.config"
expect "the reference's preemption is asked of user-le-reference" 1 "REFUSED: .*PREEMPT_VOLUNTARY=y" \
	-t user-le-reference "$tmp/good.config"
grep -v 'policy=loaded' "$tmp/good.log" >"$tmp/no-policy.log"
expect "a boot without the loaded policy is refused" 1 "REFUSED: the boot did not show the SELinux policy loaded" \
	"$tmp/good.config" "$tmp/no-policy.log"
sed 's/enforce=1/enforce=0/; s/^.*ok 1 user-selinux.*$/[ 3.2] guest: not ok 1 user-selinux # enforcing did not stick/' \
	"$tmp/good.log" >"$tmp/permissive.log"
expect "a boot whose enforcing did not stick is refused" 1 "REFUSED: the boot did not show enforcing read back as 1" \
	"$tmp/good.config" "$tmp/permissive.log"
{ cat "$tmp/good.log"; echo '[ 5.0] audit: type=1400 audit(0:2): avc:  denied  { signal } for pid=80'; } >"$tmp/denied.log"
expect "a boot with an AVC denial is refused" 1 "REFUSED: the boot logged an AVC denial" "$tmp/good.config" "$tmp/denied.log"
# A bench boot (-b): enforcing must also be read back after the bench's loops.
{ cat "$tmp/good.log"; printf '%s\n' '[ 20.0] guest: # SELINUX end enforce=1 avc_lookups_since=34508' \
	'[ 20.1] guest: ok 3 user-selinux-end # still enforcing'; } >"$tmp/bench.log"
expect "a bench boot still enforcing at its end is accepted" 0 "ok: user-le's profile, enforcing" \
	-b "$tmp/good.config" "$tmp/bench.log"
expect "a bench boot without user-selinux-end is refused" 1 "REFUSED: the boot did not show enforcing read back as 1 after the bench's loops" \
	-b "$tmp/good.config" "$tmp/good.log"
sed 's/^.*ok 3 user-selinux-end.*$/[ 20.1] guest: not ok 3 user-selinux-end # enforcing did not stick through the bench/; /SELINUX end/d' \
	"$tmp/bench.log" >"$tmp/bench-permissive.log"
expect "a bench boot whose enforcing did not last is refused" 1 "REFUSED: .*guest: not ok 3 user-selinux-end" \
	-b "$tmp/good.config" "$tmp/bench-permissive.log"
exit $fail
