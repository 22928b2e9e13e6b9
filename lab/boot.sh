#!/bin/bash
# Boot a built guest kernel under QEMU, run a script in it, and exit with the
# script's status. Usage: lab/boot.sh VARIANT SCRIPT [NAME]
#
# SCRIPT runs as /lab/run.sh in the guest (POSIX sh, busybox); what it prints
# between the LAB-BEGIN and LAB-RESULT markers is shown live. The console log
# goes to out/logs/NAME.console. A panic, a missing result or the timeout
# shows the last 50 console lines and fails.
#
# Settings (environment):
#   LAB_ACCEL=tcg|kvm  (tcg; kvm needs a working /dev/kvm)
#   LAB_CPUS=4 LAB_SOCKETS=2 LAB_THREADS=1   topology: sockets x cores x threads
#   LAB_NUMA=0|1       one NUMA node per socket
#   LAB_MEM=1024       MiB
#   LAB_TIMEOUT=600    seconds before the guest is killed
#   LAB_APPEND=...     extra kernel command line
#   LAB_KERNEL=path    a bzImage other than out/build/VARIANT's
set -eu
. "$(dirname "$0")/lib.sh"
variant=${1:?usage: lab/boot.sh VARIANT SCRIPT [NAME]}
script=${2:?usage: lab/boot.sh VARIANT SCRIPT [NAME]}
name=${3:-$variant}
need qemu-system-x86_64 cpio timeout

kernel=${LAB_KERNEL:-$(variant_build "$variant")/arch/x86/boot/bzImage}
[ -f "$kernel" ] || die "no kernel at $kernel: run lab/build.sh $variant"
[ -f "$script" ] || die "no script $script"
[ -f "$OUT/guest/base.cpio" ] || die "no initramfs: run lab/initramfs.sh"

accel=${LAB_ACCEL:-tcg}
cpus=${LAB_CPUS:-4}
sockets=${LAB_SOCKETS:-2}
threads=${LAB_THREADS:-1}
mem=${LAB_MEM:-1024}
cores=$((cpus / sockets / threads))
[ $((cores * sockets * threads)) = "$cpus" ] && [ "$cores" -ge 1 ] ||
	die "LAB_CPUS=$cpus is not LAB_SOCKETS=$sockets x cores x LAB_THREADS=$threads"
case $accel in
tcg) accel_opt="-accel tcg,thread=multi" ;;
icount)
	# Guest time follows the instructions executed: runs repeat closely.
	accel_opt="-accel tcg,thread=single -icount shift=${LAB_ICOUNT_SHIFT:-3},sleep=off -rtc clock=vm" ;;
kvm)
	[ -w /dev/kvm ] || die "LAB_ACCEL=kvm but /dev/kvm is not usable here; use LAB_ACCEL=tcg"
	accel_opt="-accel kvm -cpu host" ;;
*) die "LAB_ACCEL must be tcg, icount or kvm, not '$accel'" ;;
esac

numa=""
if [ "${LAB_NUMA:-0}" = 1 ]; then
	per=$((cpus / sockets))
	for s in $(seq 0 $((sockets - 1))); do
		numa="$numa -object memory-backend-ram,id=m$s,size=$((mem / sockets))M"
		numa="$numa -numa node,memdev=m$s,nodeid=$s,cpus=$((s * per))-$((s * per + per - 1))"
	done
fi

run=$OUT/run/$name
rm -rf "$run"
mkdir -p "$run/root/lab" "$OUT/logs"
cp "$script" "$run/root/lab/run.sh"
chmod 755 "$run/root/lab/run.sh"
(cd "$run/root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) >"$run/extra.cpio"
cat "$OUT/guest/base.cpio" "$run/extra.cpio" >"$run/initrd"

log=$OUT/logs/$name.console
say "booting $variant ($accel, $cpus CPUs = $sockets sockets x $cores cores x $threads threads$([ -n "$numa" ] && echo ", NUMA"), ${mem}M): log $log"
# shellcheck disable=SC2086
set +e
timeout --foreground -k 10 "${LAB_TIMEOUT:-600}" qemu-system-x86_64 $accel_opt \
	-m "$mem" -smp "$cpus,sockets=$sockets,cores=$cores,threads=$threads" $numa \
	-kernel "$kernel" -initrd "$run/initrd" \
	-append "console=ttyS0 panic=-1 oops=panic loglevel=${LAB_LOGLEVEL:-5} ${LAB_APPEND:-}" \
	-nographic -no-reboot -nodefaults -serial stdio -monitor none </dev/null 2>&1 |
	sed -u 's/\r$//' | tee "$log" | sed -u -n '/^LAB-BEGIN/,/^LAB-RESULT/p'
qrc=${PIPESTATUS[0]}
set -e

rc=$(sed -n 's/^LAB-RESULT rc=\([0-9]*\).*/\1/p' "$log" | tail -1)
why=""
if grep -q -E 'Kernel panic|BUG: |Oops' "$log"; then
	why="the guest kernel panicked"
elif [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
	why="the guest did not finish within ${LAB_TIMEOUT:-600}s"
elif [ -z "$rc" ]; then
	why="the guest stopped without a result (qemu exit $qrc)"
fi
if [ -n "$why" ]; then
	echo "----- last 50 console lines ($log) -----" >&2
	tail -n 50 "$log" >&2
	echo "-----" >&2
	die "$name: $why"
fi
[ "$rc" = 0 ] || say "$name: the guest's tests failed (exit $rc)"
exit "$rc"
