#!/bin/bash
# Self-test of the clang builds: a patch that GCC accepts and clang rejects
# (a nested function, a GCC extension) passes the GCC build of its object and
# fails the clang one, which names the patch. Builds the one object only.
. "$(dirname "$0")/lib.sh"
setup
"$TOP/scripts/setup/apply.sh" || fail "the series does not apply"
cat >>"$LINUX/arch/powerpc/kernel/smp.c" <<'C'

int harness_selftest_nested(int x);
int harness_selftest_nested(int x)
{
	int twice(int y) { return 2 * y; }	/* selftest: GCC only */

	return twice(x);
}
C
bad=$(commit_as_patch "selftest: a GCC extension clang rejects

$SOB")
n=$(series_patches | wc -l)
obj=arch/powerpc/kernel/smp.o
GOALS=$obj OUT=$BUILD/out/selftest-ppc64le "$TOP/scripts/build/build.sh" ppc64le "$LINUX" >"$T/out" 2>&1 ||
	{ tail -n 30 "$T/out"; fail "GCC does not build $obj with the nested function"; }
pass "GCC builds $obj with the nested function"
expect_fail "the clang build of the same patch" env GOALS=$obj OUT="$BUILD/out/selftest-ppc64le-clang" \
	"$TOP/scripts/build/build.sh" ppc64le-clang "$LINUX"
expect_line "error: function definition is not allowed here"
expect_line "is on a line from patch $n of base..HEAD: selftest: a GCC extension clang rejects"
pass "clang rejects it, and the build names the patch (${bad##*/})"
