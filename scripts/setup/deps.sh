#!/bin/bash
# Install, idempotently, what the harness needs from Debian packages.
# Usage: deps.sh [clang|cross|distro]
. "$(dirname "$0")/../common.sh"

PKGS="make gcc git ccache flex bison bc cpio xz-utils zstd libelf-dev libssl-dev
python3 python3-ply python3-git sparse perl gawk kmod rsync dwarves
gcc-powerpc64le-linux-gnu binutils-powerpc64le-linux-gnu
gcc-powerpc64-linux-gnu binutils-powerpc64-linux-gnu
gcc-powerpc-linux-gnu binutils-powerpc-linux-gnu
libc6-dev-ppc64el-cross libc6-dev-ppc64-cross
gnuplot-nox debhelper dpkg-dev fakeroot clang checkpolicy"
# deps.sh clang: also Debian's LLVM 19, for the clang builds of make check.
[ "${1:-}" != clang ] || PKGS="$PKGS clang-19 lld-19 llvm-19"
# deps.sh cross: also the arm64 compiler, for make check-wide's identity check.
[ "${1:-}" != cross ] || PKGS="$PKGS gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu"
# deps.sh distro: also what make test-distro's Debian image needs (scripts/distro).
# libssl-dev:ppc64el: the linux-headers package builds scripts/sign-file for
# ppc64el (module signing: lockdown selects it), against the target's OpenSSL.
[ "${1:-}" != distro ] || PKGS="$PKGS debootstrap debian-archive-keyring e2fsprogs qemu-utils libssl-dev:ppc64el"
# QEMU 10 comes from the backports of this Debian release: 7.2 has a PMU fault.
QEMU_SUITE=${QEMU_SUITE:-$(. /etc/os-release && echo "${VERSION_CODENAME}-backports")}

missing=
for p in $PKGS; do
	[[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" == *'ok installed' ]] || missing="$missing $p"
done
qemu_ok() {
	command -v qemu-system-ppc64 >/dev/null &&
		[ "$(qemu-system-ppc64 --version | sed -nE 's/.*version ([0-9]+).*/\1/p')" -ge 8 ]
}

if [ -z "$missing" ] && qemu_ok; then
	say "deps: everything is installed"
	exit 0
fi
[ "$(id -u)" = 0 ] || die "deps: need root to install:$missing qemu-system-ppc"

# The backports suite for QEMU, on this machine's own mirror.
list=/etc/apt/sources.list.d/paca-preempt-backports.list
want="deb $(apt_mirror) $QEMU_SUITE main"
if ! grep -qxF "$want" "$list" 2>/dev/null; then
	say "deps: adding $QEMU_SUITE from $(apt_mirror)"
	echo "$want" >"$list"
fi
case " $missing " in
*:ppc64el*) [ "$(dpkg --print-foreign-architectures | grep -cx ppc64el || true)" != 0 ] || { say "deps: dpkg --add-architecture ppc64el"; dpkg --add-architecture ppc64el; } ;;
esac
say "deps: apt-get update"
apt-get update -qq || die "deps: apt-get update failed"
if [ -n "$missing" ]; then
	say "deps: installing$missing"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
		die "deps: apt-get install failed for:$missing"
fi
if ! qemu_ok; then
	say "deps: installing qemu-system-ppc from $QEMU_SUITE"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		-t "$QEMU_SUITE" qemu-system-ppc >/dev/null || die "deps: cannot install qemu-system-ppc from $QEMU_SUITE"
	qemu_ok || die "deps: qemu-system-ppc64 is older than 8: $(qemu-system-ppc64 --version | sed -n 1p)"
fi
say "deps: done ($(qemu-system-ppc64 --version | sed -n 1p))"
