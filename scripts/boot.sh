#!/bin/bash
# Boot one guest target under QEMU (settings: kernel/qemu/TARGET) with the
# initramfs of scripts/rootfs.sh, under a hard timeout, the console saved in
# build/logs/; then judge the console with scripts/console.sh.
# Usage: boot.sh TARGET [KERNEL-ARGS...]   e.g. boot.sh guest-le preempt=full
#        boot.sh TARGET shell              a busybox shell for a person (make boot)
# OUT=dir: the kernel build (default build/out/TARGET); NAME=word: the log's name;
# QEMU=name: the settings kernel/qemu/NAME instead of kernel/qemu/TARGET (one
# kernel booted several ways, e.g. the KVM guest's nested APIs).
# TRACE=dir: QEMU runs under scripts/bench_trace.py, which logs the blocks it
# executes between the guest's trace markers into dir (make bench), with
# -icount so that the guest's clock follows its instructions, not the slow log.
. "$(dirname "$0")/common.sh"

target=${1:?usage: boot.sh TARGET [KERNEL-ARGS...|shell]}
shift
target_info "$target"
export QEMU=${QEMU:-$target}	# rootfs.sh reads the same settings
[ -f "$TOP/kernel/qemu/$QEMU" ] || die "boot: no QEMU settings kernel/qemu/$QEMU"
. "$TOP/kernel/qemu/$QEMU"
OUT=${OUT:-$BUILD/out/$target}
kernel=$OUT/vmlinux
[ -s "$kernel" ] || die "boot: no kernel $kernel: run 'OUT=$OUT scripts/build.sh $target' first"
# What the boot needs built in (a config of someone else's could have one
# off): the pseries console, an initramfs, ELF, the early filesystems.
if [ -f "$OUT/.config" ]; then
	missing=
	for o in PPC_PSERIES HVC_CONSOLE BLK_DEV_INITRD BINFMT_ELF DEVTMPFS PROC_FS SYSFS; do
		grep -qx "CONFIG_$o=y" "$OUT/.config" || missing="$missing CONFIG_$o"
	done
	[ -z "$missing" ] || die "boot: $OUT/.config does not build in what a pseries boot from an initramfs needs:$missing"
else
	say "boot: no $OUT/.config: cannot check its console and initramfs options"
fi
need qemu-system-ppc64; need timeout

OUT=$OUT "$TOP/scripts/rootfs.sh" "$target"
shell=
[ "${1:-}" != shell ] || { shell=1; shift; set -- guest.shell=1 "$@"; }
# panic=-1 with -no-reboot: a panic ends QEMU at once instead of hanging.
append="console=hvc0 panic=-1 guest.cpus=$QEMU_SMP $QEMU_APPEND $*"
qemu=(qemu-system-ppc64 -M "$QEMU_MACHINE" -cpu "$QEMU_CPU" -smp "$QEMU_SMP" -m "$QEMU_MEM"
	-nographic -nodefaults -no-reboot
	-kernel "$kernel" -initrd "$BUILD/rootfs/$target.cpio" -append "${append% }")

if [ -n "$shell" ]; then
	say "boot: $target: ${qemu[*]}"
	exec "${qemu[@]}" -serial mon:stdio
fi

name=${NAME:-$QEMU${*:+-$*}}
name=${name//[^A-Za-z0-9._=-]/_}
mkdir -p "$BUILD/logs"
log=$BUILD/logs/console-$name.log
say "boot: $target ($(git -C "$(readlink -f "$OUT/source" 2>/dev/null || echo "$LINUX")" describe --always --tags 2>/dev/null || echo '?'), $kernel)"
say "boot: ${qemu[*]}"
say "boot: console: $log (timeout ${BOOT_TIMEOUT} s)"
start=$SECONDS
rc=0
if [ -n "${TRACE:-}" ]; then
	# timeout signals its whole process group: QEMU, the runner's child, too.
	timeout -k 10 "$BOOT_TIMEOUT" python3 "$TOP/scripts/bench_trace.py" run "$TRACE" "${qemu[@]}" -icount shift=0 || rc=$?
	cp "$TRACE/console.log" "$log" 2>/dev/null || echo "# boot: no console from scripts/bench_trace.py" >"$log"
else
	# A second monitor on a socket: on a timeout, where every vCPU was.
	mon=$(mktemp -u "${TMPDIR:-/tmp}/qemu-monitor.XXXXXX")	# short: a socket path has 108 bytes
	rm -f "$mon"
	"${qemu[@]}" -serial mon:stdio -monitor "unix:$mon,server=on,wait=off" </dev/null >"$log" 2>&1 &
	qpid=$!
	trap '[ -z "${qpid:-}" ] || kill -9 "$qpid" 2>/dev/null || true' EXIT
	while kill -0 "$qpid" 2>/dev/null && [ $((SECONDS - start)) -lt "$BOOT_TIMEOUT" ]; do sleep 1; done
	if kill -0 "$qpid" 2>/dev/null; then
		# Every vCPU's registers, and each one's NIP and LR as vmlinux symbols.
		regs=$BUILD/logs/registers-$name.txt
		python3 "$TOP/scripts/bench_trace.py" where "$mon" "${T_CROSS}nm" "$kernel" "$regs" >"$regs.where" 2>&1 || true
		kill "$qpid" 2>/dev/null
		sleep 5
		kill -9 "$qpid" 2>/dev/null || true
		wait "$qpid" 2>/dev/null || true
		rc=124
	else
		wait "$qpid" || rc=$?
	fi
	qpid=
	rm -f "$mon"
fi
say "boot: QEMU exited with status $rc after $((SECONDS - start)) s"
if [ "$rc" = 124 ]; then
	echo "# boot: TIMEOUT: QEMU killed after $BOOT_TIMEOUT s" | tee -a "$log"
	if [ -s "${regs:-}" ]; then
		echo "# boot: where the vCPUs were when it was killed (all registers: $regs):" | tee -a "$log"
		tee -a "$log" <"$regs.where"
	fi
	rm -f "${regs:-}.where"
fi
KERNEL_TREE=$(readlink -f "$OUT/source" 2>/dev/null || true) KUNIT_SUITES=${BOOT_KUNIT_SUITES:-} \
	"$TOP/scripts/console.sh" "$log" "boot $target $* ($((SECONDS - start)) s)" || exit
# The console passed, but the trace runner may still have failed (the monitor, the log).
[ -z "${TRACE:-}" ] || [ "$rc" = 0 ] || die "boot: scripts/bench_trace.py failed (status $rc): see above"
