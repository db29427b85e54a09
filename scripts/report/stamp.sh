#!/bin/bash
# What a run ran on, as '# stamp: KEY VALUE' lines (scripts/report/report.py
# reads them): the project commit; a hash of its code (every tracked file but
# results/, prose and the cover letters, so that committing a run's results
# and the figures they give keeps the id); the patch-id sum of each series;
# the base's SHA-256; the toolchain. 'id' hashes all of these but the commit
# and clang (installed only by make check): parts of a suite that share it
# ran on one revision. Uncommitted code makes it '-dirty'; a setting that
# changes what the checks run (N=, SEED=, SERIES=, ...) makes it another id.
# Usage: stamp.sh
. "$(dirname "$0")/../common.sh"
need git; need sha256sum

cd "$TOP"
code=(. ':!results' ':!docs' ':!*.md' ':!*/0000-cover-letter.patch')
h() { sha256sum | cut -c1-"${1:-64}"; }
# HEAD's code files, with their blob ids.
files() { git ls-tree -r HEAD | awk -F'\t' '$2 !~ /^(results|docs)\// && $2 !~ /(\.md|\/0000-cover-letter\.patch)$/'; }
tree=$(files | h 40)
dirty=
if [ -n "$(git status --porcelain -- "${code[@]}")" ]; then
	tree=$( { files; git diff --no-color --no-ext-diff HEAD -- "${code[@]}"
		git ls-files -z -o --exclude-standard -- "${code[@]}" | xargs -0 -r sha256sum; } | h 40)
	dirty=-dirty
fi
# The patch-ids of one series (git patch-id --stable: the diffs, not the mail
# headers), summed.
pid() {
	local p
	for p in "$1"/[0-9]*.patch; do
		[ -e "$p" ] && [ "${p##*/}" != 0000-cover-letter.patch ] || continue
		git patch-id --stable <"$p" | cut -d' ' -f1
	done | h 16
}
patches() {
	[ -n "$1" ] || { echo none; return; }
	echo "$(find "$1" -maxdepth 1 -name '[0-9]*.patch' ! -name 0000-cover-letter.patch | wc -l) patches, patch-id sum $(pid "$1")"
}
ver() { { "$@" --version 2>/dev/null || echo "not installed"; } | sed -n 1p; }
# The settings that change what the checks run, where they differ from the
# defaults: such a run is another revision.
env=
for v in N SEED PROBABILITY BISECT_FROM APPLY_ONTO CONFIG_FROM GOALS SPARSE_PLAN \
	ROOTFS_SUITE KNOWN KNOWN_HANGS PATTERNS KUNIT_SUITES BOOT_KUNIT_SUITES GUEST_KERNEL GUEST_MODULES; do
	[ -z "${!v:-}" ] || env="$env $v=${!v}"
done
[ "$SERIES" = "$TOP/series" ] || env="$env SERIES=$SERIES"
[ "$SERIES_ON_TOP" = "$TOP/series-rcu" ] || env="$env SERIES_ON_TOP=$SERIES_ON_TOP"
[ "$LINUX" = "$BUILD/linux" ] || env="$env LINUX=$LINUX"
[ "$CONFIGS" = "$TOP/kernel/configs" ] || env="$env CONFIGS=$CONFIGS"

s_series=$(patches "$SERIES")
s_rcu=$(patches "$SERIES_ON_TOP")
s_base="$BASE_PKG $BASE_DEB_VERSION sha256 $BASE_SHA256"
s_gcc="$(ver powerpc64le-linux-gnu-gcc); $(ver powerpc64-linux-gnu-gcc); $(ver powerpc-linux-gnu-gcc)"
s_qemu=$(ver qemu-system-ppc64)
s_clang=$(ver clang-19)
id=rev-$(printf '%s\n' "$tree" "$s_series" "$s_rcu" "$s_base" "$s_gcc" "$s_qemu" "$env" | h 12)$dirty

echo "# stamp: id $id"
echo "# stamp: project $(git rev-parse HEAD)$dirty ($(git log -1 --format=%cs HEAD))"
echo "# stamp: code $tree"
echo "# stamp: series $s_series"
echo "# stamp: series-rcu $s_rcu"
echo "# stamp: base $s_base"
echo "# stamp: gcc $s_gcc"
echo "# stamp: qemu $s_qemu"
echo "# stamp: clang $s_clang"
[ -z "$env" ] || echo "# stamp: env${env}"
