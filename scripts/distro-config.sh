#!/bin/bash
# Write Debian's ppc64el kernel config (kernel/distro.env: the package pinned by
# SHA-256, fetched through apt from this machine's mirror) to FILE.
# Usage: distro-config.sh FILE
. "$(dirname "$0")/common.sh"
# shellcheck source=../kernel/distro.env
. "$TOP/kernel/distro.env"
dest=${1:?usage: distro-config.sh FILE}
need apt-get; need dpkg-deb; need sha256sum; need xz

deb=$BUILD/dl/${DISTRO_PKG}_${DISTRO_DEB_VERSION}_$DISTRO_ARCH.deb
mkdir -p "$BUILD/dl"
if [ ! -f "$deb" ]; then
	opts=$(apt_private "$DISTRO_SUITE" "$DISTRO_ARCH")
	say "distro-config: apt-get update for $DISTRO_SUITE $DISTRO_ARCH"
	# shellcheck disable=SC2086
	apt-get $opts update -qq || die "distro-config: cannot read $DISTRO_SUITE from $(apt_mirror)"
	say "distro-config: downloading $DISTRO_PKG=$DISTRO_DEB_VERSION"
	# shellcheck disable=SC2086
	(cd "$BUILD/dl" && apt-get $opts download "$DISTRO_PKG:$DISTRO_ARCH=$DISTRO_DEB_VERSION") ||
		die "distro-config: $DISTRO_PKG $DISTRO_DEB_VERSION is no longer in $DISTRO_SUITE: pin the newest ppc64el linux-config-7.x in kernel/distro.env"
	f=$(ls "$BUILD/dl/${DISTRO_PKG}_"*"_$DISTRO_ARCH.deb" | sed -n 1p)
	[ "$f" = "$deb" ] || mv "$f" "$deb"
fi
got=$(sha256sum "$deb" | cut -d' ' -f1)
if [ "$got" != "$DISTRO_SHA256" ]; then
	rm -f "$deb"
	die "distro-config: SHA-256 mismatch for ${deb##*/}: got $got, kernel/distro.env pins $DISTRO_SHA256"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dpkg-deb -x "$deb" "$tmp"
src=$(find "$tmp" \( -name "$DISTRO_CONFIG.xz" -o -name "$DISTRO_CONFIG" \) | sed -n 1p)
[ -n "$src" ] || die "distro-config: no $DISTRO_CONFIG in ${deb##*/}"
case $src in
*.xz) xz -dc "$src" >"$dest" ;;
*) cp "$src" "$dest" ;;
esac
say "distro-config: $DISTRO_PKG $DISTRO_DEB_VERSION: ${src##*/} -> $dest ($(grep -c '^CONFIG_' "$dest") options)"
