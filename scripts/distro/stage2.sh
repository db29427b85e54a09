#!/bin/bash
# Stage two of the Debian ppc64el image (issue 60): boot the distro-stage
# kernel (kernel/configs/distro-stage.config: virtio disk, ext4) under QEMU
# pseries (kernel/qemu/debian) on a copy of image.sh's stage-one image, with scripts/distro/stage2
# as init, which runs debootstrap --second-stage (the packages' maintainer
# scripts, on ppc64el: no binfmt needed here). Keeps the image only if the
# guest printed "STAGE2: ok".
# Usage: stage2.sh   -> prints the finished image's path
. "$(dirname "$0")/../common.sh"
. "$TOP/scripts/distro/common-distro.sh"
need qemu-system-ppc64
stage1=$("$TOP/scripts/distro/image.sh")
img=${stage1%-stage1.raw}.raw
if [ -s "$img" ]; then
	say "stage2: cached: $img"
	echo "$img"
	exit 0
fi
out=${OUT:-$BUILD/out/distro-stage}
OUT=$out "$TOP/scripts/build/build.sh" distro-stage >&2 || die "stage2: the distro-stage kernel does not build"
cp --sparse=always "$stage1" "$img.tmp"
log=$BUILD/distro/stage2-console.log
say "stage2: debootstrap --second-stage in QEMU (console: $log)"
distro_qemu "${STAGE2_TIMEOUT:-3600}" "$log" -kernel "$out/vmlinux" \
	-append "console=hvc0 root=/dev/vda rw init=/stage2 panic=-1" -drive "file=$img.tmp,format=raw,if=virtio" || true
if ! grep -q 'STAGE2: ok' "$log"; then
	tail -30 "$log"
	mv "$img.tmp" "$BUILD/distro/stage2-failed.raw"	# to read with debugfs -c
	die "stage2: the second stage did not finish (console: $log; the image: $BUILD/distro/stage2-failed.raw)"
fi
mv "$img.tmp" "$img"
say "stage2: $img"
echo "$img"
