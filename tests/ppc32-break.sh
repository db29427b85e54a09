#!/bin/bash
# Self-test of the bisect build (builds ppc32's smp.o): a patch on top of the
# series that breaks only the ppc32 build must fail it, naming that patch.
. "$(dirname "$0")/lib.sh"
setup
"$TOP/scripts/setup/apply.sh" || fail "the series does not apply"
printf '\n#ifdef CONFIG_PPC32\n#error "selftest: the ppc32 build is broken on purpose"\n#endif\n' \
	>>"$LINUX/arch/powerpc/kernel/smp.c"
bad=$(commit_as_patch "selftest: break the ppc32 build

$SOB")
n=$(series_patches | wc -l)
# The bisect check of test-full builds the real prefixes; build only the last
# one here, and of it only the object it breaks (build.sh's GOALS=).
expect_fail "the bisect build of a series that breaks ppc32" env BISECT_FROM="$n" GOALS=arch/powerpc/kernel/smp.o \
	"$TOP/scripts/build/bisect.sh" ppc32
expect_line "bisect: patch $n/$n $(patch_label "$bad") breaks the ppc32 build"
expect_line "selftest: the ppc32 build is broken on purpose"
expect_line "is on a line from patch $n of base..HEAD: selftest: break the ppc32 build"
pass "the bisect build names the patch that breaks ppc32"
