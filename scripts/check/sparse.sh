#!/bin/bash
# sparse (C=2 CHECK=sparse) and W=1 on the objects the series touches, for the
# guest-le target (ppc64le pseries, the boot tests' debug config: make test
# builds it anyway), compared with the same objects built from the base as
# guest-le-base (the same config without the series' KUnit suite): fails on
# any warning the base does not have (SPARSE_TARGET, SPARSE_BASE_TARGET: other
# targets). Touched objects: the .c/.S files that differ from tag base in the
# tree $LINUX, plus, when a header differs, a fixed list of objects that include
# the PACA and preempt headers. A *-clang target compiles them with clang
# (its W=1 warnings are clang's); OUT= names the series' build folder (make
# check-wide's builds are in build/out/wide-TARGET); SPARSE_PLAN=make-n finds
# the objects the config builds with make -n instead of a full build; SEED=
# for a randconfig target (the base then built from the series' .config).
. "$(dirname "$0")/../common.sh"
need git
need_tree "$LINUX"

target=${SPARSE_TARGET:-guest-le}
# The base is built as TARGET-base where kernel/targets has one (guest-le: the
# base lacks the series' KUnit suite), else as the same target.
base_target=${SPARSE_BASE_TARGET:-$target}
if [ -z "${SPARSE_BASE_TARGET:-}" ] && [[ " $(target_names) " == *" $target-base "* ]]; then
	base_target=$target-base
fi
HEADER_OBJS="kernel/sched/core.o kernel/rcu/tree.o kernel/softirq.o arch/powerpc/kernel/smp.o arch/powerpc/kernel/paca.o
arch/powerpc/kernel/setup_64.o arch/powerpc/kernel/irq_64.o arch/powerpc/kexec/core_64.o
arch/powerpc/xmon/xmon.o lib/smp_processor_id.o"
tree=$(cd "$LINUX" && pwd)
base_tree=$BUILD/base-tree
# The series build is the one of 'build.sh TARGET' (make test has just built it:
# no second build); another tree gets an output folder of its own.
out=${OUT:-$BUILD/out/$target}
if [ -z "${OUT:-}" ] && [ "$(readlink -f "$out/source" 2>/dev/null)" != "$tree" ] && [ "$tree" != "$(cd "$BUILD/linux" 2>/dev/null && pwd)" ]; then
	out=$BUILD/out/$target-sparse-${tree##*/}
fi
out=$(realpath -m "$out")	# make -C TREE: a relative O= would land in the tree
base_out=$BUILD/out/$base_target-sparse
logs=$BUILD/logs/sparse${SPARSE_TARGET:+-$target}
target_info "$target"
[ "$T_BASE" != randconfig ] || logs=$logs-${SEED:?sparse: $target is a randconfig target: give SEED=}
mkdir -p "$logs"

# Candidate objects, from the difference to base (committed or not).
cand=()
headers=
while read -r f; do
	case $f in
	*.c | *.S) [ -f "$tree/$f" ] && cand+=("${f%.*}.o") ;;
	*.h) headers="$headers ${f##*/}" ;;
	esac
done < <(git -C "$tree" diff --name-only base --)
if [ -n "$headers" ]; then
	say "sparse: headers changed ($headers ): adding the representative objects"
	# shellcheck disable=SC2206
	cand+=($HEADER_OBJS)
fi
mapfile -t cand < <(printf '%s\n' "${cand[@]}" | awk 'NF && !seen[$0]++')
if [ ${#cand[@]} = 0 ]; then
	say "sparse: $tree has no C, assembly or header change against base: nothing to check"
	exit 0
fi

sparse=$("$TOP/scripts/setup/sparse-tool.sh") || die "sparse: no sparse that Linux accepts"
build_lock
objs=()
case ${SPARSE_PLAN:-build} in build | make-n) ;; *) die "sparse: SPARSE_PLAN=$SPARSE_PLAN: build or make-n" ;; esac
if [ "${SPARSE_PLAN:-build}" = make-n ]; then
	# Which candidates does the config build? Ask make -n (make check-wide's
	# builds have shown that the config builds: no second full build), on
	# that build's own .config, not one configured again.
	[ -f "$out/.config" ] || die "sparse: SPARSE_PLAN=make-n needs the build of $target first: no $out/.config"
	# A build that made vmlinux (wide-build.sh deletes it first) lists its
	# objects in vmlinux.a: no make -n needed. Not an older vmlinux.a: one
	# older than the .config or than a candidate's source.
	fresh=1
	for o in "${cand[@]}"; do
		for f in "$tree/${o%.o}.c" "$tree/${o%.o}.S"; do
			[ ! -e "$f" ] || [ "$out/vmlinux.a" -nt "$f" ] || fresh=
		done
	done
	if [ -n "$fresh" ] && [ -s "$out/vmlinux" ] && [ "$out/vmlinux" -nt "$out/.config" ] && [ -f "$out/vmlinux.a" ] &&
		"${T_CROSS}ar" t "$out/vmlinux.a" 2>/dev/null | LC_ALL=C sort -u >"$logs/vmlinux.units" &&
		grep -qxF init/main.o "$logs/vmlinux.units" && grep -qxF lib/vsprintf.o "$logs/vmlinux.units"; then
		say "sparse: the objects $target builds, from its vmlinux.a ($(wc -l <"$logs/vmlinux.units"))"
	else
		say "sparse: make -n on $target to see which of ${#cand[@]} objects the config builds"
		CONFIG_FROM=$out/.config LIST=$logs/vmlinux.units "$TOP/scripts/build/count-units.sh" "$target" >"$logs/units.log" 2>&1 ||
			{ cat "$logs/units.log" >&2; die "sparse: make -n of $target failed (log: $logs/units.log)"; }
	fi
	built() { grep -qxF "$1" "$logs/vmlinux.units"; }
else
	# Which candidates does the config build? Ask a full build of the tree.
	say "sparse: building $target from $tree to see which of ${#cand[@]} objects the config builds"
	OUT=$out "$TOP/scripts/build/build.sh" "$target" "$tree" >"$logs/build.log" 2>&1 ||
		{ tail -n 40 "$logs/build.log" >&2; die "sparse: $target does not build from $tree (log: $logs/build.log)"; }
	built() { [ -f "$out/$(dirname "$1")/.${1##*/}.cmd" ]; }
fi
for o in "${cand[@]}"; do
	if built "$o"; then objs+=("$o"); else say "sparse: skipping $o: not built in the $target config"; fi
done
[ ${#objs[@]} -gt 0 ] || { say "sparse: none of the touched objects is built in the $target config: nothing to check"; exit 0; }

# The base, in its own work tree.
worktree_at "$base_tree" base

# Compile the objects with sparse and W=1, from scratch and without ccache (a
# hit replays the warnings of the first compile, with the paths of the tree it
# ran in, maybe another checkout's), and keep the diagnostics, without line
# numbers and tree paths. -Wno-error: a
# config with CONFIG_WERROR (a randconfig's, half of them) would stop at the
# first W=1 warning the base has too; the comparison with the base judges them.
# from_config: the base's .config for a randconfig (SEED=): the series' own,
# since the seed would draw another config from the base's Kconfig.
from_config=
check_objs() { # name target tree out objs...
	local name=$1 target=$2 src=$3 o=$4 log=$logs/$1.log
	shift 4
	target_info "$target"
	CONFIG_FROM=$from_config "$TOP/scripts/build/config.sh" "$target" "$src" "$o" >"$logs/$name-config.log" 2>&1 ||
		{ cat "$logs/$name-config.log" >&2; die "sparse: config of $name failed"; }
	kmake "$src" "$o" -j"$JOBS" W=1 KCFLAGS=-Wno-error prepare >"$logs/$name-prepare.log" 2>&1 ||
		{ tail -n 30 "$logs/$name-prepare.log" >&2; die "sparse: make prepare failed for $name (log: $logs/$name-prepare.log)"; }
	(cd "$o" && rm -f "$@")
	say "sparse: $name: sparse + W=1 on $*"
	CCACHE_DISABLE=1 kmake "$src" "$o" -j"$JOBS" W=1 KCFLAGS=-Wno-error C=2 CHECK="$sparse" "$@" >"$log" 2>&1 ||
		{ grep -E -A3 'error' "$log" | tail -n 40 >&2; die "sparse: $name: the objects do not compile (log: $log)"; }
	# The kernel skips sparse with only a warning when it dislikes it: make sure it ran.
	local c checked
	c=$(printf '%s\n' "$@" | while read -r x; do [ ! -f "$src/${x%.o}.c" ] || echo "$x"; done | wc -l)
	checked=$(grep -c '^  CHECK ' "$log" || true)
	[ "$checked" -ge "$c" ] || die "sparse: $name: sparse checked $checked files of $c (log: $log)"
	# No diagnostic at all is a clean result, not a failed grep.
	{ grep -E '^[^ :]+:[0-9]+(:[0-9]+)?: ' "$log" || true; } |
		sed -E "s#^$src/##; s#$src/##g; s#^\./##; s#(\.[chS]):[0-9]+(:[0-9]+)?#\1#g" | LC_ALL=C sort >"$logs/$name.warnings"
}
check_objs series "$target" "$tree" "$out" "${objs[@]}"
base_objs=()
for o in "${objs[@]}"; do
	if [ -f "$base_tree/${o%.o}.c" ] || [ -f "$base_tree/${o%.o}.S" ]; then base_objs+=("$o"); fi
done
if [ ${#base_objs[@]} -gt 0 ]; then
	[ "$T_BASE" != randconfig ] || from_config=$out/.config
	check_objs base "$base_target" "$base_tree" "$base_out" "${base_objs[@]}"
else
	: >"$logs/base.warnings"
fi

LC_ALL=C comm -13 "$logs/base.warnings" "$logs/series.warnings" >"$logs/new.warnings"
say "sparse: ${#objs[@]} objects: $(wc -l <"$logs/series.warnings") diagnostics with the series, $(wc -l <"$logs/base.warnings") on base, $(wc -l <"$logs/new.warnings") new"
if [ -s "$logs/new.warnings" ]; then
	sed 's/^/NEW: /' "$logs/new.warnings" >&2
	echo "---- where (from $logs/series.log) ----" >&2
	sed -E 's/^[^:]+: //' "$logs/new.warnings" | sort -u | while IFS= read -r msg; do
		grep -F -- "$msg" "$logs/series.log" | sed -n 1,3p
	done >&2
	die "sparse: the series adds $(wc -l <"$logs/new.warnings") sparse/W=1 diagnostics (logs: $logs)"
fi
say "sparse: no new warnings"
