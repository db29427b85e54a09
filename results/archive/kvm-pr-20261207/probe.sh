#!/bin/bash
# probe.sh NAME OUT TARGET: boot the KVM guest with QEMU=guest-le-kvm-pr, run
# the KVM-PR L2, and look at QEMU through its monitor while the L2 hangs.
name=$1 out=$2 target=$3
d=/tmp/kvmpr/$name; rm -rf "$d"; mkdir -p "$d/tmp"
top=/work/main
log=$top/build/logs/console-kvm-pr-$name.log
rm -f "$log"
(cd $top && TMPDIR=$d/tmp OUT=$out QEMU=guest-le-kvm-pr NAME=kvm-pr-$name \
	scripts/boot/boot.sh "$target" preempt=full guest.run=kvm-l2,lockdep-alive guest.kvm_type=pr >"$d/boot.txt" 2>&1; echo "rc=$?" >>"$d/boot.txt") &
bpid=$!
send() { python3 $top/scripts/bench/bench_trace.py send "$mon" "$1"; }
mon=
for i in $(seq 600); do mon=$(ls $d/tmp/qemu-monitor.* 2>/dev/null | head -1); [ -S "$mon" ] && break; sleep 0.5; done
echo "monitor: $mon"
# QEMU's interrupt log, filtered as it is written: only what happens at an
# address below 0x1000 (the L2's code runs at 0; the L1 kernel runs at 0xc000...).
mkfifo "$d/int.fifo"
grep -a --line-buffered -E 'at 0{13}[0-9a-f]{3} |nip=0{13}[0-9a-f]{3}$' <"$d/int.fifo" >"$d/qemu-int-low.log" &
send "logfile $d/int.fifo"
send "log int"
echo "log int on at $(date +%T)"
for i in $(seq 600); do grep -q "KVM-PR: creating the L2\|creating the L2" "$log" 2>/dev/null && break; sleep 0.5; done
echo "L2 created at $(date +%T)"
sleep 10
send "log none"
{ echo "== info cpus (10 s after the L2 was created)"; send "info cpus"; echo "== info registers -a"; send "info registers -a"; } >"$d/monitor-10s.txt" 2>&1
sleep 20
{ echo "== info cpus (30 s)"; send "info cpus"; echo "== info registers -a"; send "info registers -a"; } >"$d/monitor-30s.txt" 2>&1
wait $bpid
echo done
