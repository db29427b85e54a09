#!/bin/bash
# Boot one guest target under QEMU (settings: kernel/qemu/TARGET) with the
# initramfs of scripts/boot/rootfs.sh, under a hard timeout, the console saved in
# build/logs/; then judge the console with scripts/boot/console.sh.
# Usage: boot.sh TARGET [KERNEL-ARGS...]   e.g. boot.sh guest-le preempt=full
#        boot.sh TARGET shell              a busybox shell for a person (make boot)
# OUT=dir: the kernel build (default build/out/TARGET); NAME=word: the log's name;
# QEMU=name: the settings kernel/qemu/NAME instead of kernel/qemu/TARGET (one
# kernel booted several ways, e.g. the KVM guest's nested APIs).
# TRACE=dir: QEMU runs under scripts/bench/bench_trace.py, which logs the blocks it
# executes between the guest's trace markers into dir (make bench), with
# -icount so that the guest's clock follows its instructions, not the slow log.
# QEMU_ICOUNT=N: -icount shift=N without TRACE= (the guest's clock follows its
# instructions: with 0, one nanosecond an instruction).
# MONITOR_AT=regex: once the console matches it, send MONITOR_CMD (default
# 'nmi', a system reset on every CPU) to QEMU's monitor (kdump by a reset);
# the boot fails if it was never sent.
# BOOT_SILENCE=N: a console silent for N s is a hang: QEMU is stopped as on the
# timeout (a known hang is told the same way), not waited on up to the end.
. "$(dirname "$0")/../common.sh"

target=${1:?usage: boot.sh TARGET [KERNEL-ARGS...|shell]}
shift
target_info "$target"
[ -z "${MONITOR_AT:-}" ] || [ -z "${TRACE:-}" ] || die "boot: MONITOR_AT= does not go with TRACE="
[ -z "${BOOT_SILENCE:-}" ] || [ -z "${TRACE:-}" ] || die "boot: BOOT_SILENCE= does not go with TRACE="
[[ ${BOOT_SILENCE:-1} =~ ^[1-9][0-9]*$ ]] || die "boot: BOOT_SILENCE=$BOOT_SILENCE is no number of seconds"
if [ -n "${MONITOR_AT:-}" ]; then
	grep -qE -- "$MONITOR_AT" </dev/null && r=0 || r=$?
	[ "$r" != 2 ] || die "boot: MONITOR_AT=$MONITOR_AT is not an extended regex"
fi
export QEMU=${QEMU:-$target}	# rootfs.sh reads the same settings
[ -f "$TOP/kernel/qemu/$QEMU" ] || die "boot: no QEMU settings kernel/qemu/$QEMU"
. "$TOP/kernel/qemu/$QEMU"
OUT=${OUT:-$BUILD/out/$target}
kernel=$OUT/vmlinux
[ -s "$kernel" ] || die "boot: no kernel $kernel: run 'OUT=$OUT scripts/build/build.sh $target' first"
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

OUT=$OUT "$TOP/scripts/boot/rootfs.sh" "$target"
shell=
[ "${1:-}" != shell ] || { shell=1; shift; set -- guest.shell=1 "$@"; }
# panic=-1 with -no-reboot: a panic ends QEMU at once instead of hanging.
append="console=hvc0 panic=-1 guest.cpus=$QEMU_SMP $QEMU_APPEND $*"
qemu=(qemu-system-ppc64 -M "$QEMU_MACHINE" -cpu "$QEMU_CPU" -smp "$QEMU_SMP" -m "$QEMU_MEM"
	-nographic -nodefaults -no-reboot
	-kernel "$kernel" -initrd "$BUILD/rootfs/$target.cpio" -append "${append% }")
if [ -n "${QEMU_ICOUNT:-}" ]; then
	[ -z "${TRACE:-}" ] || die "boot: QEMU_ICOUNT= does not go with TRACE= (which sets -icount itself)"
	[[ $QEMU_ICOUNT =~ ^[0-9]+$ ]] || die "boot: QEMU_ICOUNT=$QEMU_ICOUNT is not a shift (0-10)"
	qemu+=(-icount "shift=$QEMU_ICOUNT")
fi

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
rc=0 silent=
if [ -n "${TRACE:-}" ]; then
	# timeout signals its whole process group: QEMU, the runner's child, too.
	timeout -k 10 "$BOOT_TIMEOUT" python3 "$TOP/scripts/bench/bench_trace.py" run "$TRACE" "${qemu[@]}" -icount shift=0 || rc=$?
	cp "$TRACE/console.log" "$log" 2>/dev/null || echo "# boot: no console from scripts/bench/bench_trace.py" >"$log"
else
	# A second monitor on a socket: on a timeout, where every vCPU was; and
	# what MONITOR_AT= asks for.
	monitor_at=${MONITOR_AT:-} monitor_cmd=${MONITOR_CMD:-nmi} sent=
	mon=$(mktemp -u "${TMPDIR:-/tmp}/qemu-monitor.XXXXXX")	# short: a socket path has 108 bytes
	rm -f "$mon"
	: >"$log"	# before the first look for MONITOR_AT: no line of an earlier boot
	"${qemu[@]}" -serial mon:stdio -monitor "unix:$mon,server=on,wait=off" </dev/null >"$log" 2>&1 &
	qpid=$!
	trap '[ -z "${qpid:-}" ] || kill -9 "$qpid" 2>/dev/null || true' EXIT
	size=0 spoke=$SECONDS
	while kill -0 "$qpid" 2>/dev/null && [ $((SECONDS - start)) -lt "$BOOT_TIMEOUT" ]; do
		if [ -n "${BOOT_SILENCE:-}" ]; then
			now=$(stat -c %s "$log")
			[ "$now" = "$size" ] || { size=$now spoke=$SECONDS; }
			if [ $((SECONDS - spoke)) -ge "$BOOT_SILENCE" ]; then
				silent=$((SECONDS - start))
				break
			fi
		fi
		if [ -n "$monitor_at" ] && [ -z "$sent" ] && grep -qE -- "$monitor_at" "$log"; then
			# Once: the guest asked for it (kdump by a system reset: 'nmi').
			if python3 "$TOP/scripts/bench/bench_trace.py" send "$mon" "$monitor_cmd" >"$BUILD/logs/monitor-$name.txt" 2>&1; then
				sent=ok
				say "boot: console matched /$monitor_at/ after $((SECONDS - start)) s: sent '$monitor_cmd' to the monitor"
			else
				sent=failed
				say "boot: sending '$monitor_cmd' to the monitor failed: $(tail -n 1 "$BUILD/logs/monitor-$name.txt")"
			fi
		fi
		sleep 1
	done
	if kill -0 "$qpid" 2>/dev/null; then
		# Every vCPU's registers, and each one's NIP and LR as vmlinux symbols.
		regs=$BUILD/logs/registers-$name.txt
		python3 "$TOP/scripts/bench/bench_trace.py" where "$mon" "${T_CROSS}nm" "$kernel" "$regs" >"$regs.where" 2>&1 || true
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
	if [ -n "$silent" ]; then
		echo "# boot: TIMEOUT: QEMU killed after $silent s, its console silent for $BOOT_SILENCE s (BOOT_SILENCE)" | tee -a "$log"
	else
		echo "# boot: TIMEOUT: QEMU killed after $BOOT_TIMEOUT s" | tee -a "$log"
	fi
	if [ -s "${regs:-}" ]; then
		echo "# boot: where the vCPUs were when it was killed (all registers: $regs):" | tee -a "$log"
		tee -a "$log" <"$regs.where"
	fi
	rm -f "${regs:-}.where"
fi
# The monitor command MONITOR_AT= asked for and did not send: said before the
# console's verdict (which fails first, as a rule), failed after it.
monitor_fail=
if [ -n "${MONITOR_AT:-}" ] && [ "$sent" != ok ]; then
	monitor_fail="MONITOR_AT=/$MONITOR_AT/: ${sent:+sending }'$monitor_cmd' ${sent:-never sent: the console never matched}"
	echo "# boot: $monitor_fail" | tee -a "$log"
fi
# The tree the kernel was built from, when it was built with O= (kbuild's
# 'source' link): a kernel built in its tree, or a stand-in, has none.
tree=
[ ! -d "$OUT/source" ] || tree=$(readlink -f "$OUT/source")
KERNEL_TREE=$tree KUNIT_SUITES=${BOOT_KUNIT_SUITES:-} \
	"$TOP/scripts/boot/console.sh" "$log" "boot $target $* ($((SECONDS - start)) s)" || exit
# The console passed, but the trace runner may still have failed (the monitor, the log).
[ -z "${TRACE:-}" ] || [ "$rc" = 0 ] || die "boot: scripts/bench/bench_trace.py failed (status $rc): see above"
[ -z "$monitor_fail" ] || die "boot: $monitor_fail"
