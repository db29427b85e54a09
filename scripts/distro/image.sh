#!/bin/bash
# A Debian ppc64el system as a raw ext4 disk image, without root tricks
# (issue 60), stage one: debootstrap --foreign unpacks the packages of
# kernel/distro-image.list (suite DISTRO_SUITE, default sid: trixie's pool
# as this machine's mirror serves it lacks its newest point-release .debs)
# from this machine's mirror, and mke2fs -d writes the tree into an image
# without mounting it. debootstrap's second stage, which runs the packages'
# maintainer scripts, must run on ppc64el: inside QEMU pseries (next step),
# as this machine has no binfmt for ppc64el.
# The image is cached under build/distro/, keyed by the list, the suite and
# the files it installs (the job runner of vm.sh).
# Usage: image.sh   -> prints the image's path
. "$(dirname "$0")/../common.sh"
need debootstrap; need mke2fs
list=$TOP/kernel/distro-image.list
suite=${DISTRO_SUITE:-sid}
pkgs=$(grep -v '^#' "$list" | xargs | tr ' ' ',')
[ -n "$pkgs" ] || die "image: no package in $list"
# Debian's own kernel, the system's first (its lsmod trims the distro build):
# its packages are fetched here and installed by stage2 with dpkg -i after
# the base system, so that a failing postinst shows on the console.
kpkg=${DISTRO_KERNEL_PKG:-linux-image-powerpc64le}
key=$({ printf '%s %s %s\n' "$suite" "$pkgs" "$kpkg"; cat "$TOP"/scripts/distro/{stage2,paca-job,paca-job.service}; } |
	sha256sum | cut -c1-12)
dir=$BUILD/distro
img=$dir/debian-$suite-ppc64el-$key-stage1.raw
if [ -s "$img" ]; then
	say "image: cached: $img"
	echo "$img"
	exit 0
fi
root=$dir/root-$key
rm -rf "$root"
mkdir -p "$dir"
say "image: debootstrap --foreign ppc64el $suite: $pkgs"
debootstrap --foreign --arch=ppc64el --variant=minbase --include="$pkgs" \
	"$suite" "$root" "$(apt_mirror)" >"$dir/debootstrap-$key.log" 2>&1 ||
	{ tail -20 "$dir/debootstrap-$key.log"; die "image: debootstrap's first stage failed (log: $dir/debootstrap-$key.log)"; }
[ -x "$root/debootstrap/debootstrap" ] || die "image: no debootstrap/debootstrap in $root: not a first stage"
# The kernel's packages: $kpkg and its linux-* dependencies (the others are in the list).
opts=$(apt_private "$suite" ppc64el)
# shellcheck disable=SC2086 # $opts is a list of options
apt-get $opts update -qq || die "image: cannot read $suite from $(apt_mirror)"
# shellcheck disable=SC2086
kdeps=$(apt-cache $opts depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
	--no-replaces --no-enhances "$kpkg" | sed -n 's/^\(linux-[^ <>:]*\)$/\1/p' | sort -u)
[ -n "$kdeps" ] || die "image: no packages for $kpkg in $suite"
mkdir -p "$root/root/debian-kernel"
# shellcheck disable=SC2086
(cd "$root/root/debian-kernel" && apt-get $opts download $kdeps) >>"$dir/debootstrap-$key.log" 2>&1 ||
	die "image: cannot download $kdeps"
say "image: Debian's kernel for stage two: $(cd "$root/root/debian-kernel" && echo *.deb)"
printf '/dev/vda / ext4 defaults 0 1\n' >"$root/etc/fstab"
install -m 0755 "$TOP/scripts/distro/stage2" "$root/stage2"	# init of stage2.sh's boot
echo lpar-kit >"$root/etc/hostname"
# The job runner of scripts/distro/vm.sh, started at every boot.
install -D -m 0755 "$TOP/scripts/distro/paca-job" "$root/usr/local/sbin/paca-job"
install -D -m 0644 "$TOP/scripts/distro/paca-job.service" "$root/etc/systemd/system/paca-job.service"
mkdir -p "$root/etc/systemd/system/multi-user.target.wants"
ln -sf ../paca-job.service "$root/etc/systemd/system/multi-user.target.wants/paca-job.service"
size=${DISTRO_IMAGE_SIZE:-8G}
rm -f "$img.tmp"
mke2fs -q -t ext4 -L debian -d "$root" "$img.tmp" "$size" >"$dir/mke2fs-$key.log" 2>&1 ||
	{ cat "$dir/mke2fs-$key.log"; die "image: mke2fs -d failed"; }
mv "$img.tmp" "$img"
rm -rf "$root"
say "image: $img ($size, first stage: the second runs in QEMU)"
echo "$img"
