#!/bin/bash
# Self-test of scripts/checkpatch.sh: on the series plus a clean patch and a
# patch with style errors, it must fail, name the bad patch, and pass the clean one.
. "$(dirname "$0")/lib.sh"
setup
"$TOP/scripts/apply.sh" || fail "the series does not apply"

sed -i 's|^ \* DEBUG_PREEMPT variant of smp_processor_id().| * DEBUG_PREEMPT variant of smp_processor_id(): checks that the caller\n * cannot migrate to another CPU.|' \
	"$LINUX/lib/smp_processor_id.c"
good=$(commit_as_patch "lib/smp_processor_id: Say what the debug check is for

The header comment names the file but not what its check does. Say it:
the caller must not be able to migrate to another CPU.

$SOB")
# Trailing whitespace and no Signed-off-by: two errors.
printf '/* selftest: checkpatch must reject this */ \n' >>"$LINUX/lib/smp_processor_id.c"
bad=$(commit_as_patch "selftest: a patch with style errors")

expect_fail "checkpatch on a series with a bad patch" "$TOP/scripts/checkpatch.sh"
expect_line "^checkpatch: ${good##*/}: clean$"
expect_line "^checkpatch: ${bad##*/}: 2 errors, 1 warnings, 0 checks$"
expect_line "[0-9]+ of [0-9]+ patches have something to fix"
pass "checkpatch names the bad patch and passes the clean one"
