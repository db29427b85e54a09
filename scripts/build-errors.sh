#!/bin/bash
# The errors of a failed kernel build, in a form two builds can compare: the
# distinct compiler, assembler and linker error lines of make log LOG and the
# targets make names as failed, sorted,
# each ROOT/ (source tree, output folder) removed and line:column numbers and
# section offsets dropped (the series moves lines). wide-build.sh compares the
# series' errors with the base's this way. Usage: build-errors.sh LOG [ROOT...]
. "$(dirname "$0")/common.sh"
log=${1:?usage: build-errors.sh LOG [ROOT...]}
shift
[ -r "$log" ] || die "build-errors: no log $log"
strip=
for r in "$@"; do
	r=$(realpath -m "$r")
	strip="$strip s#${r//#/\\#}/##g;"
done
# make's own line names each target that failed (a check of an object, not
# only a compiler, can fail a build): "make: TARGET failed".
grep -E ': (fatal )?error:|undefined reference to|multiple definition of|ld: .*(error|failed)|^ERROR: |^make(\[[0-9]+\])?: \*\*\* \[' "$log" |
	grep -v '__sub-make\] Error' |
	sed -E 's#^make(\[[0-9]+\])?: \*\*\* \[[^]]*:[0-9]+: (.*)\] Error [0-9]+$#make: \2 failed#' |
	sed -E "$strip"' s#:[0-9]+(:[0-9]+)?:#:#g; s#\([.a-zA-Z0-9_]+\+0x[0-9a-f]+\)##g' |
	LC_ALL=C sort -u || true
