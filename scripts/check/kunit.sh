#!/bin/bash
# The series' KUnit suite (powerpc_preempt, arch/powerpc/kernel/tests/.kunitconfig)
# under the kernel's kunit.py, in QEMU, for one kunit.py architecture. Passes when
# the suite ran, no case failed or crashed, and every skipped case is one the
# architecture cannot run (PPC32: no need_resched half in the count).
# Usage: kunit.sh powerpcle|powerpc|powerpc32 [TREE]   (OUT=dir: kunit.py's
# build dir, default build/kunit-le, -be or -ppc32; TREE: default $LINUX)
. "$(dirname "$0")/../common.sh"

arch=${1:?usage: kunit.sh powerpcle|powerpc|powerpc32 [TREE]}
tree=$(cd "${2:-$LINUX}" && pwd)
need_tree "$tree"
qemu_args=(--qemu_args "-smp 2")
case $arch in
powerpcle) name=le cross=powerpc64le-linux-gnu- skips= ;;
powerpc) name=be cross=powerpc64-linux-gnu- skips= ;;
# g3beige has one CPU (no -smp); the PPC64 word cases skip themselves on PPC32.
powerpc32) name=ppc32 cross=powerpc-linux-gnu- qemu_args=() \
	skips='test_need_resched_word|test_irq_between_load_and_store' ;;
*) die "kunit: unknown arch '$arch': powerpcle, powerpc or powerpc32" ;;
esac
suite=arch/powerpc/kernel/tests
[ -f "$tree/$suite/.kunitconfig" ] || die "kunit: no $suite/.kunitconfig in $tree: the series has no KUnit suite"
need "${cross}gcc"; need qemu-system-ppc64; need qemu-system-ppc
out=${OUT:-$BUILD/kunit-$name}
mkdir -p "$out"
out=$(cd "$out" && pwd)
log=$out/kunit.log

# The second series' suite too, on 64-bit, where the tree has it: kunit.py's
# config has no lockdep, so its readers are the inline ones (make test's
# guests, with lockdep, run the out-of-line ones).
rcu=()
if [ "$arch" != powerpc32 ] && grep -q 'config PPC_RCU_PREEMPT_KUNIT_TEST' "$tree/arch/powerpc/Kconfig.debug" 2>/dev/null; then
	rcu=(--kconfig_add CONFIG_PCPU_RCU_NESTING=y --kconfig_add CONFIG_PPC_RCU_PREEMPT_KUNIT_TEST=y)
fi
build_lock
say "kunit: $arch: kunit.py run --kunitconfig=$suite ${rcu[*]} ($tree -> $out)"
rc=0
(cd "$tree" && python3 tools/testing/kunit/kunit.py run --arch="$arch" --cross_compile="$cross" \
	--kunitconfig="$suite" --build_dir="$out" --jobs="$JOBS" --timeout=300 \
	--make_options "CC=ccache ${cross}gcc" "${qemu_args[@]}" "${rcu[@]}") >"$log" 2>&1 || rc=$?
# The parsed results, without the build's noise.
grep -E '^\[[0-9:]+\] ' "$log" | grep -vE 'Building|Configuring|Starting|Populating' || true
summary=$(grep -m1 -oE 'Ran [0-9]+ tests.*' "$log" || true)
[ "$rc" = 0 ] || die "kunit: $arch: kunit.py failed (exit $rc): ${summary:-$(tail -n 5 "$log")} (log: $log)"
grep -qE '\[PASSED\] powerpc_preempt\b' "$log" || die "kunit: $arch: the suite powerpc_preempt did not run (log: $log)"
if [ ${#rcu[@]} -gt 0 ]; then
	grep -qE '\[PASSED\] powerpc_rcu_preempt\b' "$log" || die "kunit: $arch: the suite powerpc_rcu_preempt did not run (log: $log)"
	grep -qx 'CONFIG_PCPU_RCU_NESTING_INLINE=y' "$out/.config" ||
		die "kunit: $arch: the RCU readers are not inline in kunit.py's config ($out/.config)"
fi
bad=$(grep -oE '\[SKIPPED\] [A-Za-z0-9_]+' "$log" | cut -d' ' -f2 | grep -vxE "${skips:-^$}" || true)
[ -z "$bad" ] || die "kunit: $arch: cases skipped that must run here: $(tr "\n" " " <<<"$bad")"
say "kunit: $arch: powerpc_preempt passed: $summary"
