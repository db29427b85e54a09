#!/bin/bash
# The user profile's check (issue 58): refuses a kernel that is not the user's
# kernel, or a boot in which SELinux did not enforce, so that no figure comes
# from either. CONFIG (a built kernel's .config) must hold every value of the
# profile's fragments as the target TARGET (kernel/targets, default user-le)
# merges them, the last word on a symbol winning (the reference's preemption
# replaces the user's): SELinux, the LSM list, audit, PREEMPT_DYNAMIC, cgroups,
# HZ and the page size among them. LOG (a guest console of the user-selinux
# scenario, guest/selinux.c), when given, must show the policy loaded,
# enforcing read back as 1, the audit state, AVC lookups growing, no AVC
# denial and the scenario passed. -b: LOG is a bench boot's (scripts/bench/bench.sh),
# whose loops ran after user-selinux: user-selinux-end must also have passed
# (enforcing read back as 1 after the last loop).
# Usage: profile-check.sh [-t TARGET] [-b] CONFIG [LOG]   (exit 1: refused, each reason printed)
. "$(dirname "$0")/../common.sh"

target=user-le bench=
while :; do
	case ${1:-} in
	-t) target=${2:?-t needs a target}; shift 2 ;;
	-b) bench=1; shift ;;
	*) break ;;
	esac
done
config=${1:?usage: profile-check.sh [-t TARGET] [-b] CONFIG [LOG]}
log=${2:-}
[ -f "$config" ] || die "profile-check: no config $config"
target_info "$target"
[[ ,$T_FRAGS, == *,user,* ]] || die "profile-check: $target is not a user-profile target (its fragments: $T_FRAGS)"
bad=0
refuse() { echo "profile-check: REFUSED: $*"; bad=$((bad + 1)); }

# The fragments from 'user' on (pseries-boot and bench are the minimal profile's).
frags=()
on=
for f in ${T_FRAGS//,/ }; do
	[ "$f" != user ] || on=1
	[ -z "$on" ] || frags+=("$CONFIGS/$f.config")
done
declare -A want=()
order=()
while IFS= read -r l; do
	l=${l%%[[:space:]]#*}
	case $l in
	CONFIG_*=* | "# CONFIG_"*" is not set")
		s=${l#\# }; s=${s%%[= ]*}
		[ -n "${want[$s]+x}" ] || order+=("$s")
		want[$s]=$l ;;
	esac
done < <(cat "${frags[@]}")
for s in "${order[@]}"; do
	l=${want[$s]}
	got=$(grep -E "^$s=|^# $s is not set" "$config" || echo "absent")
	case $l in
	*" is not set" | *=n) ! grep -qE "^$s=" "$config" || refuse "$s must be off for $target, $config has $got" ;;
	*) grep -qxF -- "$l" "$config" || refuse "$target needs $l, $config has: $got" ;;
	esac
done
echo "profile-check: $config: ${#order[@]} options of ${frags[*]#"$TOP"/} checked, $bad refused"

if [ -n "$log" ]; then
	[ -f "$log" ] || die "profile-check: no console log $log"
	n=$bad
	con=$(tr -d '\r' <"$log")	# a serial console's lines end in CR LF
	# mark PATTERN WHAT: the console must hold a line matching PATTERN.
	mark() { grep -qE -- "$1" <<<"$con" || refuse "the boot did not show $2 (no /$1/ in $log)"; }
	mark 'SELINUX policy=loaded' "the SELinux policy loaded"
	mark 'SELINUX enforce=1$' "enforcing read back as 1"
	mark 'SELINUX audit=(task-never-rule|on-no-rules) enabled=1' "the audit state"
	mark 'SELINUX kill-loop .* delta=[1-9]' "AVC lookups growing in the kill() loop"
	mark 'guest: ok [0-9]+ user-selinux( |$)' "the user-selinux scenario passed"
	if [ -n "$bench" ]; then
		mark 'SELINUX end enforce=1 ' "enforcing read back as 1 after the bench's loops"
		mark 'guest: ok [0-9]+ user-selinux-end( |$)' "the user-selinux-end scenario passed"
	fi
	if d=$(grep -m1 -E 'avc: +denied' <<<"$con"); then refuse "the boot logged an AVC denial: $d"; fi
	if d=$(grep -m1 -E 'guest: not ok [0-9]+ user-selinux' <<<"$con"); then refuse "$d"; fi	# -end too
	echo "profile-check: $log: $((bad - n)) refused"
fi
[ "$bad" = 0 ] || exit 1
echo "profile-check: ok: $target's profile${log:+, enforcing in the boot}"
