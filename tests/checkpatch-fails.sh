#!/bin/bash
# Self-test of scripts/check/checkpatch.sh: on the series plus a clean patch and a
# patch with style errors, it must fail, name the bad patch, and pass the clean one;
# FILE_PATH_CHANGES alone is answered from MAINTAINERS: a new file no section but
# THE REST covers fails, one under arch/powerpc/ passes; with another finding, fails.
. "$(dirname "$0")/lib.sh"
setup
"$TOP/scripts/setup/apply.sh" || fail "the series does not apply"

sed -i 's|^ \* DEBUG_PREEMPT variant of smp_processor_id().| * DEBUG_PREEMPT variant of smp_processor_id(): checks that the caller\n * cannot migrate to another CPU.|' \
	"$LINUX/lib/smp_processor_id.c"
good=$(commit_as_patch "lib/smp_processor_id: Say what the debug check is for

The header comment names the file but not what its check does. Say it:
the caller must not be able to migrate to another CPU.

$SOB")
# Trailing whitespace and no Signed-off-by: two errors.
printf '/* selftest: checkpatch must reject this */ \n' >>"$LINUX/lib/smp_processor_id.c"
bad=$(commit_as_patch "selftest: a patch with style errors")

expect_fail "checkpatch on a series with a bad patch" "$TOP/scripts/check/checkpatch.sh"
expect_line "^checkpatch: ${good##*/}: clean$"
expect_line "^checkpatch: ${bad##*/}: 2 errors, 1 warnings, 0 checks$"
expect_line "[0-9]+ of [0-9]+ patches have something to fix"
pass "checkpatch names the bad patch and passes the clean one"

# FILE_PATH_CHANGES ("does MAINTAINERS need updating?") is answered from
# MAINTAINERS: a patch adding a file that only THE REST covers (init/) fails and
# names it; one adding a file under arch/powerpc/kernel/tests/ passes and names
# its section; the same with one more finding fails.
printf '// SPDX-License-Identifier: GPL-2.0\n/* Harness selftest: a file no MAINTAINERS section covers. */\n' \
	>"$LINUX/init/harness_selftest.c"
git -C "$LINUX" add -f init/harness_selftest.c
orphan=$(commit_as_patch "init: Add a file that no MAINTAINERS section covers

The harness's self-test: checkpatch asks whether MAINTAINERS needs
updating, and here it does.

$SOB")
expect_fail "checkpatch on a patch adding a file no section covers" "$TOP/scripts/check/checkpatch.sh" "$orphan"
expect_line "^checkpatch: ${orphan##*/}: 0 errors, 1 warnings, 0 checks: FILE_PATH_CHANGES, and MAINTAINERS does need updating$"
expect_line "^    init/harness_selftest.c \(added\): covered by no MAINTAINERS section but THE REST"
expect_line "1 of 1 patches have something to fix"
pass "a patch adding a file that only THE REST covers fails, naming the file"

printf '// SPDX-License-Identifier: GPL-2.0\n/* Harness selftest: a file that LINUX FOR POWERPC covers. */\n' \
	>"$LINUX/arch/powerpc/kernel/tests/harness_selftest.c"
git -C "$LINUX" add -f arch/powerpc/kernel/tests/harness_selftest.c
covered=$(commit_as_patch "powerpc/64: Add a file under the KUnit tests folder

The harness's self-test: checkpatch asks whether MAINTAINERS needs
updating, and LINUX FOR POWERPC already covers arch/powerpc/.

$SOB")
"$TOP/scripts/check/checkpatch.sh" "$covered" >"$T/out" 2>&1 || { cat "$T/out"; fail "checkpatch failed a patch adding a file LINUX FOR POWERPC covers"; }
cat "$T/out"
expect_line "^checkpatch: ${covered##*/}: clean; FILE_PATH_CHANGES answered: MAINTAINERS covers every added, deleted or renamed file$"
expect_line "^    arch/powerpc/kernel/tests/harness_selftest.c \(added\): LINUX FOR POWERPC \(32-BIT AND 64-BIT\)$"
pass "a patch adding a file under arch/powerpc/kernel/tests/ passes, naming LINUX FOR POWERPC"

printf '// SPDX-License-Identifier: GPL-2.0\n/* Harness selftest: covered, but with trailing whitespace. */ \n' \
	>"$LINUX/arch/powerpc/kernel/tests/harness_selftest2.c"
git -C "$LINUX" add -f arch/powerpc/kernel/tests/harness_selftest2.c
both=$(commit_as_patch "powerpc/64: Add a second file under the KUnit tests folder

The harness's self-test: a covered new file, and a style error besides.

$SOB")
expect_fail "checkpatch on a patch with FILE_PATH_CHANGES and an error" "$TOP/scripts/check/checkpatch.sh" "$both"
expect_line "^checkpatch: ${both##*/}: 1 errors, 1 warnings, 0 checks$"
pass "FILE_PATH_CHANGES with another finding still fails"

# UNKNOWN_COMMIT_ID (the base has no history) is answered from
# kernel/upstream-commits: a listed id cited with its subject passes; an id
# not listed, or a listed one cited with another subject, fails and is named.
cite() {
	sed -i "s|^ \* DEBUG_PREEMPT variant of smp_processor_id().*| * DEBUG_PREEMPT variant of smp_processor_id() ($1).|" \
		"$LINUX/lib/smp_processor_id.c"
	commit_as_patch "lib/smp_processor_id: Cite an upstream commit ($1)

The harness's self-test of the answer to UNKNOWN_COMMIT_ID.

Fixes: $2
$SOB"
}
listed=$(awk '!/^#/ && NF { print $1; exit }' "$TOP/kernel/upstream-commits")
subject=$(awk -v id="$listed" '$1 == id { sub(/^[^ ]+ /, ""); sub(/ # .*/, ""); print }' "$TOP/kernel/upstream-commits")
ok=$(cite one "$listed (\"$subject\")")
"$TOP/scripts/check/checkpatch.sh" "$ok" >"$T/out" 2>&1 || { cat "$T/out"; fail "checkpatch failed a patch citing a listed commit with its subject"; }
cat "$T/out"
expect_line "^checkpatch: ${ok##*/}: UNKNOWN_COMMIT_ID answered"
expect_line "^checkpatch: ${ok##*/}: clean$"
pass "a Fixes: tag with a listed id and its subject passes"
unlisted=$(cite two "0123456789ab (\"lib: A commit the list does not have\")")
expect_fail "checkpatch on a patch citing an unlisted commit" "$TOP/scripts/check/checkpatch.sh" "$unlisted"
expect_line "^    0123456789ab: not in kernel/upstream-commits"
pass "an id not in kernel/upstream-commits fails, named"
wrong=$(cite three "$listed (\"powerpc: Some other subject\")")
expect_fail "checkpatch on a patch citing a listed id with another subject" "$TOP/scripts/check/checkpatch.sh" "$wrong"
expect_line "^    $listed: cited as \"powerpc: Some other subject\""
pass "a listed id cited with the wrong subject fails"
