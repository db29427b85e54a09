#!/bin/bash
# Fetch the pinned kernel base (Debian's linux-source package), check its hash,
# unpack it into build/linux and commit it there as the tag 'base'.
. "$(dirname "$0")/common.sh"

if git -C "$LINUX" rev-parse -q --verify base >/dev/null 2>&1; then
	say "source: $LINUX already holds the base ($BASE_PKG $BASE_DEB_VERSION): nothing to do"
	exit 0
fi
need apt-get; need dpkg-deb; need git; need sha256sum

deb=$BUILD/dl/${BASE_PKG}_${BASE_DEB_VERSION}_all.deb
mkdir -p "$BUILD/dl"
if [ ! -f "$deb" ]; then
	opts=$(apt_private "$BASE_SUITE" amd64)
	say "source: apt-get update for $BASE_SUITE"
	# shellcheck disable=SC2086
	apt-get $opts update -qq || die "source: cannot read $BASE_SUITE from $(apt_mirror)"
	say "source: downloading $BASE_PKG=$BASE_DEB_VERSION"
	# shellcheck disable=SC2086
	(cd "$BUILD/dl" && apt-get $opts download "$BASE_PKG=$BASE_DEB_VERSION") ||
		die "source: $BASE_PKG $BASE_DEB_VERSION is not in $BASE_SUITE: pin another version in kernel/base.env"
	f=$(ls "$BUILD/dl/${BASE_PKG}_"*"_all.deb" | sed -n 1p)
	[ "$f" = "$deb" ] || mv "$f" "$deb"
fi
got=$(sha256sum "$deb" | cut -d' ' -f1)
if [ "$got" != "$BASE_SHA256" ]; then
	rm -f "$deb"
	die "source: SHA-256 mismatch for $(basename "$deb"): got $got, kernel/base.env pins ${BASE_SHA256:-nothing}. Re-run to download again; if the archive changed on purpose, review it and update BASE_SHA256."
fi

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
