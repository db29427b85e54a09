#!/bin/bash
# The Debian system's own lsmod (issue 60): boot the image on Debian's own
# kernel (linux-image-powerpc64le, with the initramfs its postinst made in
# stage two), as an LPAR installed from Debian first runs, and keep lsmod's
# output in build/distro/lsmod.txt: what make localmodconfig keeps of the
# distribution's modules (scripts/distro/kconfig.sh). Prints KTAP.
# Usage: lsmod.sh
. "$(dirname "$0")/../common.sh"
. "$TOP/scripts/distro/common-distro.sh"
need debugfs; need qemu-img
img=$("$TOP/scripts/distro/stage2.sh") || die "lsmod: no image"
run=$DISTRO_RUN/lsmod
rm -rf "$run"
mkdir -p "$run/job"
# Debian's kernel and initramfs, read out of the image (no mount).
ver=$(debugfs -R 'ls -p /boot' "$img" 2>/dev/null | tr '/' '\n' | sed -n 's/^initrd\.img-//p' | sed -n 1p)
[ -n "$ver" ] || die "lsmod: no /boot/initrd.img-* in $img"
for f in "vmlinux-$ver" "initrd.img-$ver"; do
	debugfs -R "dump /boot/$f $run/$f" "$img" >/dev/null 2>&1
	[ -s "$run/$f" ] || die "lsmod: cannot read /boot/$f out of $img"
done
cat >"$run/job/job.sh" <<'JOB'
{
	uname -a
	cat /sys/kernel/debug/sched/preempt 2>/dev/null || echo "no /sys/kernel/debug/sched/preempt"
	lsmod >out/lsmod.txt
	echo "lsmod: $(($(wc -l <out/lsmod.txt) - 1)) modules"
	dmesg >out/dmesg.txt
	uname -r >out/uname-r
} && echo 0 >out/rc
JOB
overlay "$run/disk.qcow2"
"$TOP/scripts/distro/vm.sh" "$run/disk.qcow2" "$run/job" "$run/console.log" "$run/vmlinux-$ver" "$run/initrd.img-$ver" >&2 ||
	die "lsmod: Debian's own kernel $ver did not run the job (console: $run/console.log)"
ktap_begin
ktap_grep_fixed debian-kernel "Linux version $ver " "$run/console.log" "$ver"
ktap_grep initramfs "Run /init as init process|Running /scripts/init-premount" "$run/console.log" "the initramfs ran"
ktap_grep systemd "systemd\[1\]: .*(Reached target|Started)|Reached target .*Multi-User" "$run/console.log"
if [ "$(cat "$run/job/out/uname-r" 2>/dev/null)" = "$ver" ]; then ktap ok uname "$ver"; else ktap not-ok uname "uname -r: $(cat "$run/job/out/uname-r" 2>/dev/null)"; fi
n=$(($(wc -l <"$run/job/out/lsmod.txt") - 1))
if grep -q '^virtio_blk ' "$run/job/out/lsmod.txt"; then
	ktap ok lsmod "$n modules, virtio_blk among them (loaded by udev from the initramfs)"
else
	ktap not-ok lsmod "no virtio_blk in lsmod ($n modules)"
fi
ktap_splats "$run/job/out/dmesg.txt"
[ "$ktap_bad" = 0 ] || exit 1
cp "$run/job/out/lsmod.txt" "$BUILD/distro/lsmod.txt"
say "lsmod: $n modules of Debian's $ver in $BUILD/distro/lsmod.txt"
