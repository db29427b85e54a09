#!/bin/bash
# Another architecture's kernel does not change with the two series: build
# vmlinux of ARCH's defconfig on the base, then, in the same work tree and
# output folder, on the base with every patch of series/ and series-rcu/
# (kbuild recompiles every object whose sources or headers the patches touch:
# nearly all, as they change rcupdate.h and sched.h), and compare the two
# vmlinux: `objdump -d` (every instruction at its address) and the symbol
# table. Same compiler, flags and paths, so a difference is the patches'.
# Not compared: data, where WARN()s' line numbers in the headers move; the
# banner is pinned (no LOCALVERSION_AUTO, build #1) and initcall symbols,
# named with their __LINE__, lose the line.
# A self-check first: an edit that must change the code (a nop in
# context_switch()) must show in the same comparison.
# Usage: identity.sh x86_64|arm64   (about 40 min per ARCH on 2 cores, cold)
. "$(dirname "$0")/../common.sh"
arch=${1:?usage: identity.sh x86_64|arm64}
case $arch in
x86_64) T_CROSS='' ;;
arm64) T_CROSS=aarch64-linux-gnu- ;;
*) die "identity: no such architecture here: $arch (x86_64 or arm64)" ;;
esac
# kmake (scripts/common.sh) runs make for these.
T_ARCH=$arch T_CC="ccache ${T_CROSS}gcc" T_LLVM=
need "${T_CROSS}gcc"
need "${T_CROSS}objdump"
need_tree "$LINUX"
base=$(git -C "$LINUX" rev-parse --verify -q 'base^{commit}') || die "identity: no tag 'base' in $LINUX: run scripts/setup/apply.sh"
top=$(git -C "$LINUX" rev-parse --verify -q "$SERIES_BRANCH^{commit}") || die "identity: no branch $SERIES_BRANCH in $LINUX"
n=$(git -C "$LINUX" rev-list --count "$base..$top")
[ "$n" -gt 0 ] || die "identity: $SERIES_BRANCH holds no patch over the base"
build_lock

dir=$BUILD/identity
tree=$dir/linux out=$dir/out-$arch
mkdir -p "$dir"
if [ ! -e "$tree/.git" ]; then
	git -C "$LINUX" worktree prune
	git -C "$LINUX" worktree add -q --detach "$tree" "$base" || die "identity: cannot add a work tree at $tree"
fi
# Niced, in a subshell: the other jobs here keep their share.
km() (
	renice -n 10 -p "$BASHPID" >/dev/null
	kmake "$tree" "$out" KBUILD_BUILD_TIMESTAMP=0 KBUILD_BUILD_USER=identity KBUILD_BUILD_HOST=identity \
		KBUILD_BUILD_VERSION=1 -j"$JOBS" "$@"
)
# One vmlinux of the tree at COMMIT; its disassembly and symbols into FILE.*
one() { # COMMIT FILE
	git -C "$tree" checkout -q --detach "$1" || die "identity: cannot check out $1"
	git -C "$tree" clean -fdq
	km defconfig >"$2.log" 2>&1 || { tail -20 "$2.log"; die "identity: $arch defconfig failed at $1 (log: $2.log)"; }
	# No git describe in the version banner: it names the commit.
	"$tree/scripts/config" --file "$out/.config" -d LOCALVERSION_AUTO
	km olddefconfig >>"$2.log" 2>&1 || die "identity: $arch olddefconfig failed at $1 (log: $2.log)"
	km vmlinux >>"$2.log" 2>&1 || { tail -30 "$2.log"; die "identity: $arch vmlinux failed at $1 (log: $2.log)"; }
	# The file name on objdump's first line is the same for both.
	"${T_CROSS}objdump" -d --no-show-raw-insn "$out/vmlinux" | sed 1,2d >"$2.dis"
	# Initcall symbols carry their __LINE__, which the patches move.
	"${T_CROSS}nm" -n "$out/vmlinux" | sed -E 's/^(.* __initcall__kmod_[A-Za-z0-9_]+__)[0-9]+_[0-9]+_/\1N_L_/' >"$2.nm"
	say "identity: $arch at $(git -C "$tree" log -1 --format='%h %s' | cut -c1-60): $(wc -l <"$2.dis") lines of disassembly, $(wc -l <"$2.nm") symbols"
}
same() { cmp -s "$1.dis" "$2.dis" && cmp -s "$1.nm" "$2.nm"; }

echo "KTAP version 1"
echo "1..2"
start=$SECONDS
one "$base" "$dir/$arch-base"
one "$top" "$dir/$arch-series"
if same "$dir/$arch-base" "$dir/$arch-series"; then
	echo "ok 1 - $arch defconfig vmlinux identical without and with the $n patches ($(wc -l <"$dir/$arch-base.dis") lines of disassembly, $(( (SECONDS - start) / 60 )) min)"
else
	echo "not ok 1 - $arch defconfig vmlinux differs with the $n patches: the first differences:"
	diff "$dir/$arch-base.dis" "$dir/$arch-series.dis" >"$dir/$arch.dis.diff" || true
	diff "$dir/$arch-base.nm" "$dir/$arch-series.nm" >"$dir/$arch.nm.diff" || true
	sed -n '1,20s/^/# /p' "$dir/$arch.dis.diff"
	sed -n '1,10s/^/# /p' "$dir/$arch.nm.diff"
	echo "# (in full: $dir/$arch.dis.diff, $dir/$arch.nm.diff)"
fi
# The control: one nop in context_switch(), on top of the series, must show.
git -C "$tree" checkout -q --detach "$top"
sed -i 's|^\tswitch_to(prev, next, prev);$|\tasm volatile("nop");\n&|' "$tree/kernel/sched/core.c"
grep -q 'asm volatile("nop");' "$tree/kernel/sched/core.c" || die "identity: the control's edit did not apply to kernel/sched/core.c"
git -C "$tree" -c user.name=identity -c user.email=identity@localhost commit -qam "identity: control" ||
	die "identity: cannot commit the control"
one "$(git -C "$tree" rev-parse HEAD)" "$dir/$arch-control"
if same "$dir/$arch-series" "$dir/$arch-control"; then
	echo "not ok 2 - $arch: a nop added to context_switch() did not change the comparison: it proves nothing"
else
	echo "ok 2 - $arch: the control (a nop in context_switch()) changes the disassembly, as it must"
fi
git -C "$tree" checkout -q --detach "$base"
