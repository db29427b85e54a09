#!/bin/bash
# The errors of a failed kernel build, in a form two builds can compare: the
# compiler, assembler, linker and modpost error lines of make log LOG and the
# leaf targets make names as failed (Error 1: a check of an object can fail a
# build without a compiler error; the Error 2 roll-ups of sub-makes are left
# out), sorted, duplicates kept (comm then counts them), each ROOT/ (source
# tree, output folder) removed and line numbers and offsets dropped (the
# series moves lines). wide-build.sh compares the series' errors with the
# base's this way, both built with make -k -Otarget (build.sh's KEEP_GOING).
# Usage: build-errors.sh LOG [ROOT...]
. "$(dirname "$0")/../common.sh"
log=${1:?usage: build-errors.sh LOG [ROOT...]}
shift
[ -r "$log" ] || die "build-errors: no log $log"
strip=
# The longest root first (an output folder may lie inside the tree), each
# escaped: a root is a path, not a regular expression.
while read -r r; do
	[ -n "$r" ] || continue
	r=$(sed 's/[][\\.*^$+?(){}|#]/\\&/g' <<<"$r")
	strip="$strip s#$r/##g;"
done < <(for r in "$@"; do realpath -m "$r"; done | awk '{ print length, $0 }' | sort -rn | cut -d' ' -f2-)
pat=': ([Ff]atal )?[Ee]rror:|undefined reference to|multiple definition of|relocation truncated|ld: .*(error|failed)'
pat="$pat|No rule to make target|^ERROR: |^WARNING: modpost: .*[Ss]ection mismatch|^make(\[[0-9]+\])?: \*\*\* \[.*\] Error [013-9]"
grep -E "$pat" "$log" |
	sed -E 's#^make(\[[0-9]+\])?: \*\*\* \[[^]]*:[0-9]+: (.*)\] Error [0-9]+$#make: \2 failed#' |
	sed -E "$strip"' s#:[0-9]+(:[0-9]+)?:#:#g; s#\([.a-zA-Z0-9_]+\+0x[0-9a-f]+\)##g; s#\+0x[0-9a-f]+##g' |
	LC_ALL=C sort || true
