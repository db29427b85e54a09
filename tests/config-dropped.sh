#!/bin/bash
# Self-test of scripts/build/config.sh: an option Kconfig drops (unmet dependency,
# unknown symbol) makes it fail, naming the option; so does a step before
# olddefconfig that fails (olddefconfig alone would start over from the
# defconfig and pass: Debian's config missing, say).
. "$(dirname "$0")/lib.sh"
need_tree "$MAIN_LINUX"
export CONFIGS=$T/configs
cp -r "$TOP/kernel/configs" "$CONFIGS"
# HVC_CONSOLE needs PPC_PSERIES, which a 32-bit kernel cannot have.
printf 'CONFIG_HVC_CONSOLE=y\nCONFIG_SELFTEST_NO_SUCH_OPTION=y\n' >>"$CONFIGS/ppc32.config"
expect_fail "a fragment with dropped options" "$TOP/scripts/build/config.sh" ppc32 "$MAIN_LINUX" "$T/out-ppc32"
expect_line 'dropped CONFIG_HVC_CONSOLE=y'
expect_line 'dropped CONFIG_SELFTEST_NO_SUCH_OPTION=y'
expect_line '2 option\(s\) of .*ppc32.config not in the final .config'
pass "dropped options are named and fail the config"
expect_fail "a starting .config that is missing" env CONFIG_FROM="$T/no-such.config" \
	"$TOP/scripts/build/config.sh" ppc32 "$MAIN_LINUX" "$T/out-from"
expect_line 'config: ppc32: Kconfig failed'
pass "a failed step before olddefconfig fails the config"
