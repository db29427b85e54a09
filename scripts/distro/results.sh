#!/bin/bash
# The distro check's results (issue 60) into results/<revision>/distro-<time>/:
# what the guest's make bench-compare wrote (table.md, plot.png) for base
# against each series, each kernel's profile, uname and preemption mode, and
# the install's initramfs lines. Stamped (scripts/report/stamp.sh).
# Usage: results.sh
. "$(dirname "$0")/../common.sh"
. "$TOP/scripts/distro/common-distro.sh"
stamp=$("$TOP/scripts/report/stamp.sh") || die "distro results: cannot stamp"
id=$(sed -n 's/^# stamp: id //p' <<<"$stamp")
dest=$TOP/results/$id/distro-$(date -u +%Y%m%dT%H%MZ)
mkdir -p "$dest"
{
	echo "# make test-distro: the LPAR kit in a Debian sid ppc64el system under QEMU pseries"
	echo
	echo "Command: \`make test-distro\` (docs/distro.md). Revision:"
	echo
	sed 's/^/    /' <<<"$stamp"
	echo
	echo "## The kernels, as the guest saw them"
	echo
	for n in base patched rcu; do
		o=$DISTRO_RUN/bench-$n/job/out
		[ -d "$o" ] || continue
		echo "- $n: \`$(sed -n 's/^== uname -a: //p' "$o/job.log" | tr -d '\r')\`; /sys/kernel/debug/sched/preempt: \`$(cat "$o/preempt")\`"
	done
	echo
	echo "Profile (bench-host, base):"
	echo
	sed 's/^/    /' "$DISTRO_RUN/bench-base/job/out/host-base/profile-base.txt"
	echo
	echo "Install (dpkg -i, initramfs-tools):"
	echo
	sed 's/^/    /' "$DISTRO_RUN/install/job/out/results"
	for n in patched rcu; do
		t=$DISTRO_RUN/bench-$n/job/out/compare-base-$n/table.md
		[ -s "$t" ] || continue
		echo
		echo "## make bench-compare A=host-base B=host-$n, in the guest"
		echo
		sed 's/^###* /#### /' "$t"
		cp "$DISTRO_RUN/bench-$n/job/out/compare-base-$n/plot.png" "$dest/plot-base-$n.png" 2>/dev/null || true
	done
} >"$dest/README.md"
for n in base patched rcu; do
	cp "$DISTRO_RUN/bench-$n/job/out/host-$n/profile-$n.txt" "$dest/" 2>/dev/null || true
done
cp "$BUILD/distro/trim.txt" "$dest/localmodconfig.txt" 2>/dev/null || true
say "distro results: $dest"
grep -c '^| ' "$dest/README.md" >/dev/null || die "distro results: no compare table from the guest"
