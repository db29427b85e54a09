#!/bin/bash
# Install the three kernels' packages in the Debian system as a user would
# (issue 60): on a fresh overlay of the image (build/distro/run/disk.qcow2,
# kept for bench.sh), booted on Debian's own kernel, `dpkg -i` of each
# linux-image and linux-headers .deb of build/distro/deb/NAME/; the packages'
# postinst runs initramfs-tools, which must make /boot/initrd.img-RELEASE with
# the disk's modules in it. The kernels and initramfs images are copied out for
# bench.sh's boots (QEMU loads them as an LPAR's firmware loads /boot's).
# Prints KTAP.
# Usage: install.sh
. "$(dirname "$0")/../common.sh"
. "$TOP/scripts/distro/common-distro.sh"
need dpkg-deb; need qemu-img
run=$DISTRO_RUN/install
rm -rf "$run"
mkdir -p "$run/job/debs"
names=(base patched rcu)
for n in "${names[@]}"; do
	mkdir -p "$run/job/debs/$n"
	for f in "$BUILD/distro/deb/$n"/linux-image-*.deb "$BUILD/distro/deb/$n"/linux-headers-*.deb; do
		case $f in *-dbg_*) continue ;; esac
		[ -e "$f" ] || die "install: no $f: run scripts/distro/deb.sh $n"
		cp "$f" "$run/job/debs/$n/"
	done
	img=$(find "$run/job/debs/$n" -name 'linux-image-*.deb' | sed -n 1p)
	dpkg-deb -f "$img" Package | sed 's/^linux-image-//' >"$run/job/debs/$n/release"
done
cat >"$run/job/job.sh" <<'JOB'
res() { echo "$*" >>out/results; }
for n in base patched rcu; do
	r=$(cat debs/$n/release)
	echo "== dpkg -i: $n ($r)"
	if dpkg -i debs/$n/*.deb; then res "ok dpkg-i-$n $r"; else res "not-ok dpkg-i-$n dpkg -i failed"; continue; fi
	if [ -s /boot/initrd.img-$r ] && [ -s /boot/vmlinux-$r ]; then
		res "ok initramfs-$n /boot/initrd.img-$r, $(du -k /boot/initrd.img-$r | cut -f1) KiB"
	else
		res "not-ok initramfs-$n no /boot/vmlinux-$r or /boot/initrd.img-$r: $(ls /boot | xargs)"
		continue
	fi
	# The disk's driver and the root file system's must be in it (or built in).
	lsinitramfs /boot/initrd.img-$r >out/initramfs-$n.txt
	for ms in virtio_blk:VIRTIO_BLK ext4:EXT4_FS; do
		m=${ms%%:*}
		if grep -q "/$m\.ko" out/initramfs-$n.txt; then
			res "ok initramfs-$m-$n $m.ko in the initramfs"
		elif grep -q "^CONFIG_${ms#*:}=y" /boot/config-$r; then
			res "ok initramfs-$m-$n $m built in"
		else
			res "not-ok initramfs-$m-$n $m neither in the initramfs nor built in"
		fi
	done
	mkdir -p out/$n
	cp /boot/vmlinux-$r /boot/initrd.img-$r /boot/config-$r out/$n/
done
ls -l /boot
dmesg >out/dmesg.txt
echo 0 >out/rc
JOB
overlay "$DISTRO_RUN/disk.qcow2"
img=$("$TOP/scripts/distro/stage2.sh") || die "install: no image"
[ -s "$DISTRO_RUN/lsmod/vmlinux-$(cat "$DISTRO_RUN/lsmod/job/out/uname-r" 2>/dev/null)" ] ||
	die "install: no Debian kernel read out of the image: run scripts/distro/lsmod.sh first"
ver=$(cat "$DISTRO_RUN/lsmod/job/out/uname-r")
VM_TIMEOUT=${VM_TIMEOUT:-2400} "$TOP/scripts/distro/vm.sh" "$DISTRO_RUN/disk.qcow2" "$run/job" "$run/console.log" \
	"$DISTRO_RUN/lsmod/vmlinux-$ver" "$DISTRO_RUN/lsmod/initrd.img-$ver" >&2 || die "install: the install job failed (console: $run/console.log)"
ktap_begin
while read -r st name detail; do ktap "$st" "$name" "$detail"; done <"$run/job/out/results"
for n in "${names[@]}"; do
	[ -s "$run/job/out/$n/initrd.img-$(cat "$run/job/debs/$n/release")" ] || ktap not-ok "copied-$n" "no initramfs copied out"
done
[ "$(wc -l <"$run/job/out/results")" -ge 12 ] || ktap not-ok results "$(wc -l <"$run/job/out/results") of 12 results"
[ "$ktap_bad" = 0 ] || exit 1
