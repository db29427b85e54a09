#!/bin/bash
# Fetch the pinned kernel base (Debian's linux-source package), check its hash,
# unpack it into build/linux and commit it there as the tag 'base'.
. "$(dirname "$0")/../common.sh"

if git -C "$LINUX" rev-parse -q --verify base >/dev/null 2>&1; then
	say "source: $LINUX already holds the base ($BASE_PKG $BASE_DEB_VERSION): nothing to do"
	exit 0
fi
need dpkg-deb; need git

deb=$BUILD/dl/${BASE_PKG}_${BASE_DEB_VERSION}_all.deb
fetch_deb source "$BASE_SUITE" amd64 "$BASE_PKG" "$BASE_DEB_VERSION" "$BASE_SHA256" "$deb" kernel/base.env

tmp=$BUILD/dl/unpack
rm -rf "$tmp" "$LINUX"
mkdir -p "$tmp"
say "source: unpacking"
dpkg-deb -x "$deb" "$tmp"
tarball=$(ls "$tmp"/usr/src/linux-source-*.tar.* | sed -n 1p)
[ -f "$tarball" ] || die "source: no kernel tarball inside $deb"
mkdir -p "$LINUX"
tar -xf "$tarball" -C "$LINUX" --strip-components=1
rm -rf "$tmp"
grep -q "^VERSION = ${BASE_KVER%%.*}$" "$LINUX/Makefile" || die "source: $LINUX is not Linux $BASE_KVER"

say "source: committing the base (about a minute)"
cd "$LINUX"
git init -q -b master
git config user.name "paca-preempt harness"
git config user.email "harness@localhost"
git config core.autocrlf false
git add -f -A
git commit -q -m "Linux $BASE_KVER ($BASE_PKG $BASE_DEB_VERSION)"
git tag base
say "source: base committed in $LINUX as tag 'base'"
