# Shared settings for the harness scripts: sourced, never run.
# shellcheck shell=bash
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
LINUX=${LINUX:-$BUILD/linux}
SERIES=${SERIES:-$TOP/series}
# The second series (series-rcu/, PREEMPT_RCU's nesting in the PACA) goes on top
# of the first: apply, checkpatch, bisect and the tests take both, in order.
# Only with the default SERIES; SERIES_ON_TOP= (empty) leaves it out.
if [ -z "${SERIES_ON_TOP+set}" ]; then
	SERIES_ON_TOP=
	[ "$SERIES" != "$TOP/series" ] || SERIES_ON_TOP=$TOP/series-rcu
fi
SERIES_BRANCH=${SERIES_BRANCH:-series}
CONFIGS=${CONFIGS:-$TOP/kernel/configs}
JOBS=${JOBS:-$(nproc)}
# The compiler cache lives outside the work tree: a later session on the same
# machine gets a fresh checkout (and build/) but keeps it, and a cold kernel
# build here is 5-10 minutes.
export CCACHE_DIR=${CCACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/paca-preempt/ccache}
# 30G: the configurations of make test-full, test-torture and check-wide (the
# bisect's prefixes, the randconfigs, Debian's) together are more than 10G, and
# a suite must not evict its own objects before its next run can hit them.
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-30G}
# Depend mode: a miss compiles once instead of preprocessing first for the hash
# (kbuild passes -Wp,-MMD): about 20% off a cold kernel build here. Always on:
# the base directory below needs it (without it the compiler is handed
# relative paths, and __FILE__ in a splat reads ../../linux/kernel/...).
export CCACHE_DEPEND=1
unset CCACHE_NODEPEND
# Paths under build/ are hashed relative to the compiler's directory, and that
# directory itself is not hashed: a tree and its output folder laid out alike
# (build/linux and build/out/T; build/bisect/linux and build/bisect/out/T; the
# same in another checkout) share their objects. The price: a hit's debug
# info may name the other folder (DW_AT_comp_dir); nothing here reads it.
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$BUILD}
export CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}

# shellcheck source=../kernel/base.env
. "$TOP/kernel/base.env"

say() { printf '==> %s\n' "$*" >&2; }
die() { printf 'ERROR: %s\n' "$*" >&2; exit 1; }
# This run's compiler cache hits and misses, 'HITS MISSES', from its own stats
# log (CCACHE_STATSLOG: test.sh sets one per suite run, build.sh one per build
# when run alone), so that another checkout's builds do not count; ccache_since
# H M: what they moved by since, as 'ccache H hits, M misses (P%)'.
ccache_stats_log() { # FILE: start a stats log for this run and its children
	export CCACHE_STATSLOG=$1
	mkdir -p "$(dirname "$1")" && : >"$1"
}
ccache_counts() {
	if [ -n "${CCACHE_STATSLOG:-}" ] && [ -f "$CCACHE_STATSLOG" ]; then
		awk '/^(direct|preprocessed)_cache_hit$/ { h++ } $0 == "cache_miss" { m++ } END { print h + 0, m + 0 }' "$CCACHE_STATSLOG"
	else
		echo 0 0
	fi
}
ccache_since() {
	local h m
	read -r h m < <(ccache_counts)
	h=$((h - $1)) m=$((m - $2))
	echo "ccache $h hits, $m misses ($((h + m ? 100 * h / (h + m) : 0))%)"
}
need() { command -v "$1" >/dev/null 2>&1 || die "'$1' not found: run 'make deps'"; }

# The Debian mirror this machine already uses, read from its own apt sources,
# so that no registry host is ever written into the repository.
apt_mirror() {
	local uri
	uri=$(grep -rhsE '^(URIs:|deb )' /etc/apt/sources.list /etc/apt/sources.list.d/*.sources \
		/etc/apt/sources.list.d/*.list 2>/dev/null |
		grep -E '/debian/?( |$)' | grep -v -- '-security' |
		sed -E 's/^URIs:[[:space:]]*//; s/^deb (\[[^]]*\] )?//' | awk 'NR == 1 { print $1 }') || true
	[ -n "$uri" ] || die "no Debian mirror found in /etc/apt/sources.list*: cannot fetch packages"
	echo "${uri%/}"
}

# A private apt configuration under build/apt for one suite and architecture.
# Prints the apt-get options that select it.
apt_private() {
	local suite=$1 arch=${2:-$(dpkg --print-architecture)}
	local dir=$BUILD/apt/$suite-$arch
	mkdir -p "$dir/lists/partial" "$dir/archives/partial" "$dir/etc/preferences.d"
	echo "deb [arch=$arch signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $(apt_mirror) $suite main" \
		>"$dir/etc/sources.list"
	echo "-o Dir::Etc::SourceList=$dir/etc/sources.list -o Dir::Etc::SourceParts=/dev/null" \
		"-o Dir::Etc::PreferencesParts=$dir/etc/preferences.d" \
		"-o Dir::State::Lists=$dir/lists -o Dir::Cache::Archives=$dir/archives" \
		"-o Dir::State::status=/dev/null" \
		"-o APT::Architecture=$arch -o APT::Architectures=$arch"
}

# A pinned Debian package at DEB (under build/dl/), fetched through apt from this
# machine's mirror when it is not there yet, its SHA-256 checked against the pin.
# Usage: fetch_deb WHO SUITE ARCH PKG VERSION SHA256 DEB PINFILE
fetch_deb() {
	local who=$1 suite=$2 arch=$3 pkg=$4 ver=$5 sha=$6 deb=$7 pin=$8 dir=${7%/*} opts f got
	need apt-get; need sha256sum
	mkdir -p "$dir"
	if [ ! -f "$deb" ]; then
		opts=$(apt_private "$suite" "$arch")
		say "$who: apt-get update for $suite ($arch)"
		# shellcheck disable=SC2086
		apt-get $opts update -qq || die "$who: cannot read $suite from $(apt_mirror)"
		say "$who: downloading $pkg=$ver"
		# shellcheck disable=SC2086
		(cd "$dir" && apt-get $opts download "$pkg=$ver") ||
			die "$who: $pkg $ver is not in $suite: pin another version in $pin"
		f=$(ls "$dir/${pkg}_"*.deb | sed -n 1p)
		[ "$f" = "$deb" ] || mv "$f" "$deb"
	fi
	got=$(sha256sum "$deb" | cut -d' ' -f1)
	if [ "$got" != "$sha" ]; then
		rm -f "$deb"
		die "$who: SHA-256 mismatch for ${deb##*/}: got $got, $pin pins ${sha:-nothing}. Re-run to download again; if the archive changed on purpose, review it and update the pin."
	fi
}

# Kernel builds are serialised on this lock: two at once on 2 cores only thrash.
# A script that holds it passes it on to the scripts it runs (BUILD_LOCK_HELD).
build_lock() {
	[ -z "${BUILD_LOCK_HELD:-}" ] || return 0
	mkdir -p "$BUILD"
	exec 9>"$BUILD/.build.lock"
	if ! flock -n 9; then
		say "waiting for another kernel build to finish (lock: $BUILD/.build.lock)"
		flock 9
	fi
	export BUILD_LOCK_HELD=$$
}

# The row of kernel/targets for one build target: sets T_ARCH, T_CROSS, T_BASE
# and T_FRAGS (its fragments, comma-separated; default: the target's own name).
target_info() {
	local row
	row=$(awk -v t="$1" '$1 == t { print $2, $3, $4, ($5 == "" ? t : $5) }' "$TOP/kernel/targets")
	[ -n "$row" ] || die "unknown target '$1': pick one of $(target_names)"
	# shellcheck disable=SC2034 # used by the scripts that source this file
	read -r T_ARCH T_CROSS T_BASE T_FRAGS <<<"$row"
	# A target named *-clang builds with Debian's LLVM 19 (LLVM=-19: clang-19,
	# ld.lld-19, llvm-*-19), for the target that CROSS_COMPILE names.
	# shellcheck disable=SC2034 # used by the scripts that source this file
	T_LLVM='' T_CC="ccache ${T_CROSS}gcc"
	if [[ $1 == *-clang ]]; then
		T_LLVM=-19 T_CC="ccache clang-19"
	fi
}
# make for the last target_info'd target, out of tree: kmake TREE OUT ARGS...
kmake() {
	local tree=$1 out=$2
	shift 2
	make -C "$tree" O="$out" ARCH="$T_ARCH" CROSS_COMPILE="$T_CROSS" CC="$T_CC" ${T_LLVM:+LLVM="$T_LLVM"} "$@"
}
target_names() { awk '!/^#/ && NF { printf "%s%s", sep, $1; sep = " " }' "$TOP/kernel/targets"; }

# The numbered patches of the series, in order, without the cover letter.
series_patches() {
	local p
	for p in "$SERIES"/[0-9]*.patch; do
		[ -e "$p" ] || continue
		[ "${p##*/}" = 0000-cover-letter.patch ] || echo "$p"
	done
}

# The patches of both series: series_patches of $SERIES, then of $SERIES_ON_TOP.
all_patches() {
	series_patches
	[ -z "$SERIES_ON_TOP" ] || SERIES=$SERIES_ON_TOP series_patches
}

# The commit of the first series alone in $LINUX (make bench's and make deb's
# patched kernel): branch SERIES_BRANCH-preempt when apply made one, else the
# whole branch SERIES_BRANCH.
first_series_commit() {
	git -C "$LINUX" rev-parse -q --verify "$SERIES_BRANCH-preempt^{commit}" ||
		git -C "$LINUX" rev-parse "$SERIES_BRANCH^{commit}"
}

# A patch's name in messages and check names: its file name, prefixed with its
# folder's name for the series on top (series-rcu/0001-x.patch: series-rcu-0001-x).
patch_label() {
	local b=${1##*/} d=${1%/*}
	b=${b%.patch}
	[ -z "$SERIES_ON_TOP" ] || [ "$d" != "$SERIES_ON_TOP" ] || b=${d##*/}-$b
	echo "$b"
}

# Checks that $1 is a kernel tree holding the base tag.
need_tree() {
	git -C "$1" rev-parse -q --verify 'base^{commit}' >/dev/null 2>&1 ||
		die "no kernel tree with tag 'base' at $1: run 'make source'"
}

# A detached work tree of the kernel repository at DIR, checked out clean at COMMIT
# (make bench's and make deb's trees: build/bench/*).
worktree_at() {
	if [ ! -e "$1/.git" ]; then
		git -C "$LINUX" worktree prune
		git -C "$LINUX" worktree add -q --detach "$1" "$2" || die "cannot add the work tree $1"
	fi
	git -C "$1" checkout -q -f --detach "$2" || die "cannot check out $2 in $1"
	git -C "$1" clean -q -f -d -x
}

# paca_offset OUT MEMBER: the PACA offset of a paca_struct member in the build
# in OUT, compiled as asm-offsets.c is, with the build's own command line for
# it (its .cmd file), on a two-line probe.
paca_offset() {
	local out=$1 tmp cmd off
	tmp=$(mktemp -d)
	cmd=$(sed -n '1s/^savedcmd_[^ ]* := //p' "$out/arch/powerpc/kernel/.asm-offsets.s.cmd")
	[ -n "$cmd" ] || die "paca_offset: no compile command in $out/arch/powerpc/kernel/.asm-offsets.s.cmd"
	cmd=${cmd% *}	# without asm-offsets.c
	cmd=${cmd/-Wp,-MMD,arch\/powerpc\/kernel\/.asm-offsets.s.d/}
	cmd=${cmd/-o arch\/powerpc\/kernel\/asm-offsets.s/-o $tmp/probe.s}
	printf '#include <linux/kbuild.h>\n#include <asm/paca.h>\nint main(void)\n{\n\tOFFSET(PROBE, paca_struct, %s);\n\treturn 0;\n}\n' "$2" >"$tmp/probe.c"
	(cd "$out" && eval "$cmd $tmp/probe.c") >"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; rm -rf "$tmp"; die "paca_offset: cannot compile the offset probe for paca_struct.$2"; }
	off=$(sed -n 's/.*"->PROBE \([0-9][0-9]*\) .*/\1/p' "$tmp/probe.s")
	rm -rf "$tmp"
	[ -n "$off" ] || die "paca_offset: no offset of paca_struct.$2 in the probe's output"
	echo "$off"
}

# rcu_word_offset OUT: the PACA offset of the second series' RCU word in the
# build in OUT, or nothing when its config has no CONFIG_PCPU_RCU_NESTING.
rcu_word_offset() {
	grep -qx 'CONFIG_PCPU_RCU_NESTING=y' "$1/.config" || return 0
	paca_offset "$1" rcu_preempt_count
}
