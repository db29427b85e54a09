#!/bin/bash
# Write Debian's ppc64el kernel config (kernel/distro.env: the package pinned by
# SHA-256, fetched through apt from this machine's mirror) to FILE.
# Usage: distro-config.sh FILE
. "$(dirname "$0")/../common.sh"
# shellcheck source=../../kernel/distro.env
. "$TOP/kernel/distro.env"
dest=${1:?usage: distro-config.sh FILE}
need dpkg-deb; need xz

# In its own folder: fetch_deb takes the one ${DISTRO_PKG}_*.deb there.
deb=$BUILD/dl/distro/${DISTRO_PKG}_${DISTRO_DEB_VERSION}_$DISTRO_ARCH.deb
fetch_deb distro-config "$DISTRO_SUITE" "$DISTRO_ARCH" "$DISTRO_PKG" "$DISTRO_DEB_VERSION" "$DISTRO_SHA256" "$deb" kernel/distro.env
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
