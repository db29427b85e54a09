#!/bin/bash
# make bench-rcu: make bench with the second series as a fourth kernel, 'rcu':
# the patches of series/ then those of series-rcu/, renumbered into
# build/rcu-series/ and applied to base as bench.sh's EXTRA (EXTRA_NAME=rcu).
. "$(dirname "$0")/common.sh"
dir=$BUILD/rcu-series
rm -rf "$dir" && mkdir -p "$dir"
k=0
for p in $(SERIES=$TOP/series series_patches) $(SERIES=$TOP/series-rcu series_patches); do
	k=$((k + 1))
	cp "$p" "$dir/$(printf %04d $k)-${p##*/}"
done
[ -n "$(SERIES=$TOP/series-rcu series_patches)" ] || die "bench-rcu: no patches in series-rcu/"
say "bench-rcu: $k patches (series/ + series-rcu/) in $dir"
EXTRA=$dir EXTRA_NAME=rcu exec "$TOP/scripts/bench.sh"
