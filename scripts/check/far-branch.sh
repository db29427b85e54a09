#!/bin/bash
# The inline rcu_read_unlock() must assemble in any function, however large:
# a conditional branch reaches 32 KB, and KASAN, UBSAN and GCOV grow functions
# past that. Compiles a generated function of over 32 KB that takes the unlock
# (tests/far-branch/gen.py) with the flags of a built TARGET whose readers are
# inline, twice: with the tree's rcu_read_unlock(), which must assemble, and
# with the first shape of the series (beq to the asm goto label), which must
# not: that control proves the function reaches past the branch's range.
# Usage: far-branch.sh TARGET   (default: ppc64le-rcu)
. "$(dirname "$0")/../common.sh"

target=${1:-ppc64le-rcu}
target_info "$target"
out=${OUT:-$BUILD/out/$target}
[ -s "$out/vmlinux" ] || die "far-branch: no $out/vmlinux: run 'scripts/build/build.sh $target' first"
grep -qx 'CONFIG_PCPU_RCU_NESTING_INLINE=y' "$out/.config" ||
	die "far-branch: $target does not inline the RCU readers (CONFIG_PCPU_RCU_NESTING_INLINE)"
cmdfile=$out/kernel/rcu/.update.o.cmd
[ -s "$cmdfile" ] || die "far-branch: no $cmdfile to take the compiler flags from"
# kbuild's saved command for kernel/rcu/update.o, run from $out
cmd=$(sed -n 's/^savedcmd_kernel\/rcu\/update.o := //p' "$cmdfile")
[ -n "$cmd" ] || die "far-branch: no saved command in $cmdfile"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=${FAR_BRANCH_FILLER:-9000}
# One kernel object from SRC into OBJ with update.o's flags; its log in LOG
compile() {
	local src=$1 obj=$2 log=$3 c
	c=${cmd//-Wp,-MMD,kernel\/rcu\/.update.o.d/}
	c=${c//-o kernel\/rcu\/update.o/-o $obj}
	# the source, by whatever path the tree was built from
	c=$(sed -E "s#[^ ]*kernel/rcu/update\.c( |$)#$src\1#" <<<"$c")
	[[ $c == *"$src"* ]] || die "far-branch: cannot find update.c in the saved command: $cmd"
	(cd "$out" && eval "$c") >"$log" 2>&1
}

python3 "$TOP/tests/far-branch/gen.py" "$n" >"$tmp/new.c"
python3 "$TOP/tests/far-branch/gen.py" "$n" old >"$tmp/old.c"
rc=0
if compile "$tmp/new.c" "$tmp/new.o" "$tmp/new.log"; then
	size=$("${T_CROSS}nm" --size-sort -S "$tmp/new.o" | awk '$4 == "far_branch_big" { print strtonum("0x" $2) }')
	if [ "${size:-0}" -gt 32768 ]; then
		echo "ok: rcu_read_unlock() assembles in a function of $size bytes"
	else
		echo "not ok: the generated function is ${size:-?} bytes, not over 32 KB: raise FAR_BRANCH_FILLER"
		rc=1
	fi
else
	sed 's/^/    /' "$tmp/new.log" | tail -20
	echo "not ok: rcu_read_unlock() does not assemble in a function of over 32 KB"
	rc=1
fi
if compile "$tmp/old.c" "$tmp/old.o" "$tmp/old.log"; then
	echo "not ok: the control (beq to the asm goto label) assembled: the function does not reach past 32 KB"
	rc=1
elif grep -q 'out of range' "$tmp/old.log"; then
	echo "ok: the control, beq to the asm goto label, fails to assemble: $(grep -m1 -o 'Error: .*out of range.*' "$tmp/old.log")"
else
	sed 's/^/    /' "$tmp/old.log" | tail -20
	echo "not ok: the control failed, but not for a branch out of range"
	rc=1
fi
[ "$rc" = 0 ] || die "far-branch: $target: see above"
say "far-branch: $target: the inline unlock reaches any distance"
