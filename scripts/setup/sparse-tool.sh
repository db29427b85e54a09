#!/bin/bash
# Print the path of a sparse that the kernel accepts, building it first if needed.
# Linux 7.3 wants __typeof_unqual__ (scripts/checker-valid.sh): Debian 12's sparse
# 0.6.4 lacks it and the kernel then silently skips C=2. 0.6.5-rc1 has it; Debian
# ships it only in sid, built for a newer glibc, so build it here from the pinned
# upstream tarball of Debian's source package, into build/tools/sparse.
. "$(dirname "$0")/../common.sh"
SPARSE_SUITE=sid
SPARSE_DEB_VERSION=0.6.5~rc1-2
SPARSE_ORIG=sparse_0.6.5~rc1.orig.tar.gz
SPARSE_SHA256=3ac8855ec7f3ab92f325be0f64347ccc2b10f8b4d7c2906783ee8e2bdab3f0de

dir=$BUILD/tools/sparse
bin=$dir/sparse
valid() { [ -x "$bin" ] && [ "$(sh "$LINUX/scripts/checker-valid.sh" "$bin" -m64 2>/dev/null)" = 1 ]; }
need_tree "$LINUX"
if valid; then echo "$bin"; exit 0; fi
need apt-get; need make; need gcc; need sha256sum

dl=$BUILD/dl/sparse
mkdir -p "$dl"
if [ ! -f "$dl/$SPARSE_ORIG" ]; then
	# A private apt configuration with the source suite, on this machine's mirror.
	apt=$BUILD/apt/$SPARSE_SUITE-src
	mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$apt/etc"
	echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $(apt_mirror) $SPARSE_SUITE main" \
		>"$apt/etc/sources.list"
	opts=(-o "Dir::Etc::SourceList=$apt/etc/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State::Lists=$apt/lists" -o "Dir::Cache::Archives=$apt/archives" -o Dir::State::status=/dev/null -o APT::Sandbox::User=root)
	say "sparse-tool: apt-get update for the $SPARSE_SUITE sources" >&2
	apt-get "${opts[@]}" update -qq >&2 || die "sparse-tool: cannot read the $SPARSE_SUITE sources from $(apt_mirror)"
	say "sparse-tool: downloading the source of sparse=$SPARSE_DEB_VERSION" >&2
	(cd "$dl" && apt-get "${opts[@]}" source --download-only -qq "sparse=$SPARSE_DEB_VERSION") >&2 ||
		die "sparse-tool: sparse $SPARSE_DEB_VERSION is not in $SPARSE_SUITE any more: pin the new version in scripts/setup/sparse-tool.sh"
fi
got=$(sha256sum "$dl/$SPARSE_ORIG" | cut -d' ' -f1)
if [ "$got" != "$SPARSE_SHA256" ]; then
	rm -f "$dl/$SPARSE_ORIG"
	die "sparse-tool: SHA-256 mismatch for $SPARSE_ORIG: got $got, want $SPARSE_SHA256"
fi
say "sparse-tool: building sparse ${SPARSE_DEB_VERSION%-*} in $dir" >&2
rm -rf "$dir"
mkdir -p "$dir"
tar -xf "$dl/$SPARSE_ORIG" -C "$dir" --strip-components=1
make -C "$dir" -j"$JOBS" sparse >"$dir/build.log" 2>&1 || { tail -n 20 "$dir/build.log" >&2; die "sparse-tool: the sparse build failed (log: $dir/build.log)"; }
valid || die "sparse-tool: $bin does not pass the kernel's scripts/checker-valid.sh"
say "sparse-tool: sparse ${SPARSE_DEB_VERSION%-*} ready: $bin" >&2
echo "$bin"
