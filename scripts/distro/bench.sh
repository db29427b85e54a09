#!/bin/bash
# The LPAR kit as a user runs it, in the Debian system (issue 60): boot the
# installed kernel NAME (install.sh) through its own initramfs, its modules
# loaded by udev; from a clone of this repository (HEAD, git clone) in
# /root/paca-preempt, `make bench-host NAME=NAME`, its results in
# /root/results/host-NAME on the system disk; after base, also
# `make bench-compare` of base against NAME. Copies the guest's results to
# build/distro/run/bench-NAME/. Prints KTAP.
# Usage: bench.sh base|patched|rcu   (BENCH_REPS=, BENCH_SECS=, ... as bench-host.sh)
. "$(dirname "$0")/../common.sh"
. "$TOP/scripts/distro/common-distro.sh"
name=${1:?usage: bench.sh base|patched|rcu}
inst=$DISTRO_RUN/install/job
[ -s "$inst/debs/$name/release" ] || die "distro bench: no $name kernel installed: run scripts/distro/install.sh"
rel=$(cat "$inst/debs/$name/release")
k=$inst/out/$name
[ -s "$k/vmlinux-$rel" ] && [ -s "$k/initrd.img-$rel" ] || die "distro bench: no kernel or initramfs of $rel copied out by install.sh"
[ -s "$DISTRO_RUN/disk.qcow2" ] || die "distro bench: no system disk $DISTRO_RUN/disk.qcow2: run scripts/distro/install.sh"
run=$DISTRO_RUN/bench-$name
rm -rf "$run"
mkdir -p "$run/job"
[ -z "$(git -C "$TOP" status --porcelain -- . ':!results' ':!docs')" ] ||
	say "distro bench: uncommitted changes here are not in the guest's clone (it clones HEAD)"
git clone -q --no-hardlinks "$TOP" "$run/job/repo" || die "distro bench: cannot clone $TOP"
echo "$name" >"$run/job/name"
echo "$rel" >"$run/job/release"
env | grep -E '^BENCH_[A-Z]+=' >"$run/job/bench.env" || true
cat >"$run/job/job.sh" <<'JOB'
export HOME=/root	# a systemd unit without User= has none; common.sh needs it
n=$(cat name) r=$(cat release)
res() { echo "$*" >>/mnt/job/out/results; }
echo "== uname -a: $(uname -a)"
uname -r >out/uname-r
cat /proc/cmdline
cat /sys/kernel/debug/sched/preempt >out/preempt 2>&1
echo "== /sys/kernel/debug/sched/preempt: $(cat out/preempt)"
lsmod >out/lsmod.txt
rm -rf /root/paca-preempt
git clone -q /mnt/job/repo /root/paca-preempt && cd /root/paca-preempt || { res "not-ok clone git clone failed"; echo 0 >/mnt/job/out/rc; exit 0; }
set -a; . /mnt/job/bench.env; set +a
if make bench-host NAME=$n DIR=/root/results/host-$n >/mnt/job/out/bench-host.log 2>&1; then
	res "ok bench-host make bench-host NAME=$n"
else
	res "not-ok bench-host make bench-host NAME=$n failed: $(tail -n 2 /mnt/job/out/bench-host.log | tr '\n' ' ')"
fi
cp -r /root/results/host-$n /mnt/job/out/ 2>/dev/null
if [ "$n" != base ]; then
	if make bench-compare A=/root/results/host-base B=/root/results/host-$n OUT=/root/results/compare-base-$n \
		>/mnt/job/out/bench-compare.log 2>&1; then
		res "ok bench-compare base against $n"
	else
		res "not-ok bench-compare $(tail -n 2 /mnt/job/out/bench-compare.log | tr '\n' ' ')"
	fi
	cp -r /root/results/compare-base-$n /mnt/job/out/ 2>/dev/null
fi
cd /mnt/job
dmesg >out/dmesg.txt
echo 0 >out/rc
JOB
VM_TIMEOUT=${VM_TIMEOUT:-3600} "$TOP/scripts/distro/vm.sh" "$DISTRO_RUN/disk.qcow2" "$run/job" "$run/console.log" \
	"$k/vmlinux-$rel" "$k/initrd.img-$rel" >&2 || die "distro bench: the $name boot's job failed (console: $run/console.log)"
o=$run/job/out
ktap_begin
ktap_grep_fixed kernel "Linux version $rel " "$run/console.log" "$rel"
ktap_grep initramfs "Begin: Loading essential drivers|Run /init as init process" "$run/console.log" "booted through its initramfs"
if [ "$(cat "$o/uname-r" 2>/dev/null)" = "$rel" ]; then ktap ok uname "$rel"; else ktap not-ok uname "running $(cat "$o/uname-r" 2>/dev/null)"; fi
if grep -q '^virtio_blk ' "$o/lsmod.txt"; then
	ktap ok modules "$(($(wc -l <"$o/lsmod.txt") - 1)) modules, virtio_blk among them"
else
	ktap not-ok modules "no virtio_blk in lsmod"
fi
if grep -q '(' "$o/preempt" 2>/dev/null; then ktap ok preempt "$(cat "$o/preempt")"; else ktap not-ok preempt "$(cat "$o/preempt" 2>/dev/null)"; fi
while read -r st nm detail; do ktap "$st" "$nm" "$detail"; done <"$o/results"
ktap_splats "$o/dmesg.txt"
[ "$ktap_bad" = 0 ] || exit 1
