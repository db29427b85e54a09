#!/bin/bash
# The distribution-shaped packages of one kernel (issue 60): make deb
# (scripts/build/deb.sh) with scripts/distro/kconfig.sh's config, into
# build/distro/deb/NAME/. Kernel releases: 7.3.4-base, 7.3.4-paca (series/),
# 7.3.4-paca-rcu (series/ and series-rcu/).
# Usage: deb.sh base|patched|rcu
. "$(dirname "$0")/../common.sh"
name=${1:?usage: deb.sh base|patched|rcu}
case $name in
base) lv=-base ;;
patched) lv=-paca ;;
rcu) lv=-paca-rcu ;;
*) die "distro deb: $name: base, patched or rcu" ;;
esac
[ -s "$BUILD/distro/config" ] || "$TOP/scripts/distro/kconfig.sh" || die "distro deb: no config"
DEB_KERNEL=$name CONFIG=$BUILD/distro/config DEB_OUT=$BUILD/distro/deb/$name LOCALVERSION=$lv \
	"$TOP/scripts/build/deb.sh" || die "distro deb: make deb of the $name kernel failed"
