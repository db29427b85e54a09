#!/bin/bash
# Write the .config of a build target into an output folder: the target's base
# (kernel/targets) + its fragments (kernel/configs/NAME.config for each NAME of
# the FRAGMENTS column, default the target's own) merged in order with
# merge_config.sh, then olddefconfig, then a check that every option the fragments
# ask for really is in .config: Kconfig drops an option with an unmet dependency
# without a word, so a dropped one is an error here.
# BASE: allnoconfig (the fragments as KCONFIG_ALLCONFIG), a make target such as
# ppc64_defconfig, 'distro' (Debian's own config, scripts/build/distro-config.sh), or
# 'randconfig' (KCONFIG_SEED=SEED, the fragments forced through KCONFIG_ALLCONFIG).
# FRAGMENTS 'none': the base alone.
# CONFIG_FROM=file: start from that .config instead of the target's base (the
# fragments are still checked): make check-wide builds the base from the
# series' own config, since a randconfig seed draws another config from
# another Kconfig.
# Usage: config.sh TARGET [TREE] [OUT]
. "$(dirname "$0")/../common.sh"

target=${1:?usage: config.sh TARGET [TREE] [OUT]}
target_info "$target"
tree=$(cd "${2:-$LINUX}" 2>/dev/null && pwd) || die "config: no tree at ${2:-$LINUX}: run 'make source'"
out=${3:-$BUILD/out/$target}
frags=()
[ "$T_FRAGS" != none ] || T_FRAGS=
for f in ${T_FRAGS//,/ }; do
	[ -f "$CONFIGS/$f.config" ] || die "config: no fragment $CONFIGS/$f.config for target $target"
	frags+=("$CONFIGS/$f.config")
done
names=$(printf '%s + ' "${frags[@]#"$TOP"/}"); names=${names% + }
[ -n "$names" ] || names="no fragment"
need "${T_CC#ccache }"
mkdir -p "$out"
out=$(cd "$out" && pwd)
log=$out/config.log

say "config: $target = $T_BASE + $names ($tree -> $out)"
if [ "$T_BASE" = randconfig ] && [ -z "${CONFIG_FROM:-}" ]; then
	[ -n "${SEED:-}" ] || die "config: $target: a randconfig target needs SEED="
	# Kconfig reads what it can of a bad value (50% as 50:0:0): refuse it.
	[[ ${PROBABILITY:-} =~ ^([0-9]+(:[0-9]+){0,2})?$ ]] || die "config: PROBABILITY=$PROBABILITY: N, N:M or N:M:K (percent)"
fi
export ARCH=$T_ARCH CROSS_COMPILE=$T_CROSS
[ -z "$T_LLVM" ] || export LLVM=$T_LLVM	# merge_config.sh's own make too
mk() { make -C "$tree" O="$out" CC="$T_CC" "$@"; }
# Each step's failure fails the block: set -e does not act inside a '{ } ||'.
{
	if [ -n "${CONFIG_FROM:-}" ]; then
		cp "$CONFIG_FROM" "$out/.config"
	elif [ "$T_BASE" = allnoconfig ]; then
		# allnoconfig with the fragment as KCONFIG_ALLCONFIG: everything else off.
		(cd "$tree" && scripts/kconfig/merge_config.sh -n -O "$out" "${frags[@]}")
	elif [ "$T_BASE" = randconfig ]; then
		# KCONFIG_PROBABILITY pinned (empty: Kconfig's default, bool 50%,
		# tristate 33/33/33; PROBABILITY= another), so a seed draws one config.
		cat "${frags[@]}" /dev/null >"$out/allconfig" &&
			mk KCONFIG_SEED="$SEED" KCONFIG_PROBABILITY="${PROBABILITY:-}" KCONFIG_ALLCONFIG="$out/allconfig" randconfig
	elif [ "$T_BASE" = distro ]; then
		"$TOP/scripts/build/distro-config.sh" "$out/.config" &&
			{ [ ${#frags[@]} = 0 ] || (cd "$tree" && scripts/kconfig/merge_config.sh -m -O "$out" "$out/.config" "${frags[@]}"); } &&
			cp "$out/.config" "$out/config.distro"
	else
		mk "$T_BASE" &&
			{ [ ${#frags[@]} = 0 ] || (cd "$tree" && scripts/kconfig/merge_config.sh -m -O "$out" "$out/.config" "${frags[@]}"); }
	fi && mk olddefconfig
} >"$log" 2>&1 || { tail -n 30 "$log" >&2; die "config: $target: Kconfig failed (log: $log)"; }

# Every CONFIG_X=value of the fragments must be in .config as written, every
# 'CONFIG_X=n' or '# CONFIG_X is not set' must be off. A later fragment
# overrides an earlier one (as merge_config.sh does): the last word on a
# symbol is the one checked.
declare -A want=()
order=()
while IFS= read -r line; do
	line=${line%%[[:space:]]#*}
	line=${line%"${line##*[![:space:]]}"}
	case $line in
	CONFIG_*=* | "# CONFIG_"*" is not set")
		sym=${line#\# }; sym=${sym%%[= ]*}
		[ -n "${want[$sym]+x}" ] || order+=("$sym")
		want[$sym]=$line ;;
	esac
done < <(cat "${frags[@]}" /dev/null)
dropped=0
for sym in "${order[@]}"; do
	line=${want[$sym]}
	case $line in
	CONFIG_*=n | "# CONFIG_"*" is not set")
		if grep -qE "^$sym=" "$out/.config"; then
			printf 'config: %s: %s asked off, but .config has %s\n' "$target" "$sym" \
				"$(grep -E "^$sym=" "$out/.config")" >&2
			dropped=$((dropped + 1))
		fi ;;
	*)
		if ! grep -qxF -- "$line" "$out/.config"; then
			got=$(grep -E "^$sym=|^# $sym is not set" "$out/.config" || echo "absent: unknown symbol or unmet dependency")
			printf 'config: %s: Kconfig dropped %s (got: %s)\n' "$target" "$line" "$got" >&2
			dropped=$((dropped + 1))
		fi ;;
	esac
done
[ "$dropped" = 0 ] || die "config: $target: $dropped option(s) of $names not in the final .config: fix their dependencies in the fragment"
say "config: $target: all ${#order[@]} options of $names are set"
# Debian's config meets a newer tree: say what olddefconfig changed.
if [ "$T_BASE" = distro ] && [ -z "${CONFIG_FROM:-}" ]; then
	diff <(grep -E '^(CONFIG_|# CONFIG_)' "$out/config.distro" | sort) \
		<(grep -E '^(CONFIG_|# CONFIG_)' "$out/.config" | sort) | grep -E '^[<>]' >"$out/olddefconfig.diff" || true
	say "config: $target: olddefconfig changed $(grep -c '^>' "$out/olddefconfig.diff" || true) line(s) of Debian's config (all in $out/olddefconfig.diff); the first:"
	sed -n '1,20p' "$out/olddefconfig.diff" >&2
fi
