#!/bin/bash
# checkpatch.pl --strict on each patch of the series (or on the patches given),
# one verdict line per patch; fails if any patch reports anything at all.
# Usage: checkpatch.sh [PATCH...]
. "$(dirname "$0")/common.sh"
need perl
need_tree "$LINUX"

if [ $# -gt 0 ]; then patches=("$@"); else mapfile -t patches < <(series_patches); fi
if [ ${#patches[@]} = 0 ]; then
	say "checkpatch: no patches in $SERIES: nothing to check"
	exit 0
fi
bad=0
for p in "${patches[@]}"; do
	[ -f "$p" ] || die "checkpatch: no file $p"
	p=$(cd "$(dirname "$p")" && pwd)/${p##*/}
	name=${p##*/}
	# checkpatch must run from the top of the kernel tree to find its data files.
	# The base has no history, so a changelog cites mainline commits by subject.
	# Debian's python3 first, for spdxcheck.py's ply and git.
	rc=0
	out=$(cd "$LINUX" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict --no-color "$p" 2>&1) || rc=$?
	if printf '%s\n' "$out" | grep -q '^Traceback'; then
		printf '%s\n' "$out" >&2
		die "checkpatch: a helper script of checkpatch crashed on $name: run 'make deps'"
	fi
	total=$(printf '%s\n' "$out" | sed -n 's/^total: \([0-9]*\) errors, \([0-9]*\) warnings, \([0-9]*\) checks, .*/\1 \2 \3/p' | tail -n1)
	if [ "$rc" = 0 ] && [ "$total" = "0 0 0" ]; then
		echo "checkpatch: $name: clean"
	else
		read -r e w c <<<"${total:-? ? ?}"
		echo "checkpatch: $name: $e errors, $w warnings, $c checks"
		printf '%s\n' "$out" | sed 's/^/    /' >&2
		bad=$((bad + 1))
	fi
done
[ "$bad" = 0 ] || die "checkpatch: $bad of ${#patches[@]} patches have something to fix"
say "checkpatch: all ${#patches[@]} patches clean"
