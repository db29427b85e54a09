#!/bin/bash
# scripts/build/build-errors.sh, which wide-build.sh uses to call a failure the
# base's: the same errors from two trees (other paths, other line numbers)
# must compare equal, and an error only the series has, or a target that only
# its make failed (not a compiler's error: an object check), must stand out.
. "$(dirname "$0")/lib.sh"
e=$TOP/scripts/build/build-errors.sh
cat >"$T/series.log" <<'LOG'
  CC      kernel/fork.o
/w/linux/arch/powerpc/kernel/irq_64.c:120:9: error: 'paca_x' undeclared (first use in this function)
make[4]: *** [/w/linux/scripts/Makefile.build:287: arch/powerpc/kernel/irq_64.o] Error 1
powerpc64le-linux-gnu-ld: /w/linux/arch/powerpc/kernel/swsusp_asm64.S:258:(.text+0x1e4): undefined reference to `slb_flush_and_restore_bolted'
powerpc64le-linux-gnu-ld: final link failed: bad value
make[4]: *** [/w/linux/scripts/Makefile.vmlinux:72: vmlinux.unstripped] Error 1
make[1]: *** [Makefile:260: __sub-make] Error 2
LOG
cat >"$T/base.log" <<'LOG'
  CC      kernel/fork.o
powerpc64le-linux-gnu-ld: /w/base-tree/arch/powerpc/kernel/swsusp_asm64.S:257:(.text+0x1e0): undefined reference to `slb_flush_and_restore_bolted'
powerpc64le-linux-gnu-ld: final link failed: bad value
make[5]: *** [/w/base-tree/scripts/Makefile.vmlinux:73: vmlinux.unstripped] Error 1
make[2]: *** [/w/base-tree/Makefile:261: __sub-make] Error 2
LOG
s=$("$e" "$T/series.log" /w/linux)
b=$("$e" "$T/base.log" /w/base-tree)
[ "$(wc -l <<<"$s")" = 5 ] || fail "expected 5 errors of the series' log, got: $s"
[ "$(wc -l <<<"$b")" = 3 ] || fail "expected 3 errors of the base's log, got: $b"
new=$(LC_ALL=C comm -23 <(printf '%s\n' "$s") <(printf '%s\n' "$b"))
[ "$new" = "arch/powerpc/kernel/irq_64.c: error: 'paca_x' undeclared (first use in this function)
make: arch/powerpc/kernel/irq_64.o failed" ] ||
	fail "the error only the series has is not the one left: '$new'"
grep -v irq_64 "$T/series.log" >"$T/same.log"
[ "$("$e" "$T/same.log" /w/linux)" = "$b" ] || fail "the same errors from two trees do not compare equal"
[ -z "$("$e" "$T/base.log" /elsewhere | grep -v /w/base-tree)" ] && fail "a root not given was stripped"
printf 'make[6]: *** [/w/linux/kernel/trace/Makefile:163: kernel/trace/x.o.checked] Error 1\n' >"$T/check.log"
[ "$("$e" "$T/check.log" /w/linux)" = "make: kernel/trace/x.o.checked failed" ] || fail "a failed object check is not an error"
# The same message twice (another line, another object) is two errors.
sed 's/:120:9:/:900:1:/' "$T/series.log" | grep irq_64.c: >"$T/twice.log"
[ "$(cat "$T/series.log" "$T/twice.log" | "$e" /dev/stdin /w/linux | grep -c paca_x)" = 2 ] || fail "a repeated error counts once"
# An assembler's "Error:", a root that is not a regular expression.
printf '/w/l[1]/arch/powerpc/kernel/head_64.S:10: Error: unrecognized opcode: `foo'"'"'\n' >"$T/as.log"
[ "$("$e" "$T/as.log" '/w/l[1]')" = 'arch/powerpc/kernel/head_64.S: Error: unrecognized opcode: `foo'"'" ] || fail "an assembler error or a root with [] is mishandled: $("$e" "$T/as.log" '/w/l[1]')"
printf '  CC      kernel/fork.o\n' >"$T/none.log"
[ -z "$("$e" "$T/none.log")" ] || fail "a log without errors gave error lines"
pass "build-errors: the base's errors match across trees, the series' own error stands out"
