#!/bin/bash
# One boot of the Debian ppc64el image under QEMU pseries (kernel/qemu/debian)
# with a job disk (issue 60): JOBDIR (its job.sh, and whatever it needs) is
# written into an ext4 disk labelled "pacajob" by mke2fs -d; the image's
# paca-job service runs job.sh at boot and powers off (scripts/distro/paca-job).
# After the boot, the disk's out/ is copied back to JOBDIR/out by debugfs: no
# mount, no root tricks. Exit 0 only if the guest printed "PACA-JOB: rc=0".
# Usage: vm.sh DISK JOBDIR LOG VMLINUX INITRD [APPEND]
#   DISK: the system disk (a qcow2 overlay of stage2.sh's image); the kernel
#   and initramfs are given to QEMU, as an LPAR's firmware would load /boot's.
. "$(dirname "$0")/../common.sh"
. "$TOP/scripts/distro/common-distro.sh"
need qemu-system-ppc64; need mke2fs; need debugfs
disk=${1:?usage: vm.sh DISK JOBDIR LOG VMLINUX INITRD [APPEND]} job=${2:?JOBDIR} log=${3:?LOG}
kernel=${4:?VMLINUX} initrd=${5:?INITRD} append=${6:-}
[ -f "$job/job.sh" ] || die "vm: no $job/job.sh"
for f in "$disk" "$kernel" "$initrd"; do [ -s "$f" ] || die "vm: no $f"; done
img=$job.img
rm -rf "$job/out" "$img"
mkdir -p "$job/out"
mb=$(( $(du -sm "$job" | cut -f1) + 512 ))
mke2fs -q -t ext4 -L pacajob -d "$job" "$img" "${mb}M" || die "vm: mke2fs -d of $job failed"
say "vm: booting ${kernel##*/} (console: $log)"
rc=0
distro_qemu "${VM_TIMEOUT:-3600}" "$log" -kernel "$kernel" -initrd "$initrd" \
	-append "console=hvc0 root=/dev/vda ro $append" \
	-drive "file=$disk,format=qcow2,if=virtio" -drive "file=$img,format=raw,if=virtio" || rc=$?
[ "$rc" != 124 ] || say "vm: QEMU timed out after ${VM_TIMEOUT:-3600} s"
rm -rf "$job/out"
debugfs -R "rdump /out $job" "$img" >/dev/null 2>&1 || true
rm -f "$img"
grep -a -q 'PACA-JOB: rc=0' "$log" || {
	grep -a -E 'PACA-JOB|Kernel panic|BUG:|WARNING:|Oops' "$log" | tail -n 5 || true
	die "vm: the job did not finish with rc=0 (QEMU exit $rc; console: $log)"
}
say "vm: job done; its out/ in $job/out"
