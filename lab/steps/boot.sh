#!/bin/bash
# Boot VARIANT's kernel under QEMU (the LAB_* settings), run SCRIPT in it as
# /lab/run.sh and exit with its status; lab/steps/judge.sh judges the console
# (out/logs/NAME.console): a splat, no start, no result or the timeout fails.
# Usage: lab/steps/boot.sh VARIANT SCRIPT [NAME]
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
variant=${1:?usage: lab/steps/boot.sh VARIANT SCRIPT [NAME]}
script=${2:?usage: lab/steps/boot.sh VARIANT SCRIPT [NAME]}
name=${3:-$variant}
need qemu-system-x86_64 cpio timeout

kernel=${LAB_KERNEL:-$(variant_build "$variant")/arch/x86/boot/bzImage}
base=$(variant_guest "$variant")/base.cpio
[ -f "$kernel" ] || die "no kernel at $kernel: run lab/steps/build.sh $variant"
[ -f "$script" ] || die "no script $script"
[ -f "$base" ] || die "no initramfs for $variant: run lab/prepare.sh guest $variant"

accel=$LAB_ACCEL cpus=$LAB_CPUS sockets=$LAB_SOCKETS threads=$LAB_THREADS
mem=$LAB_MEM limit=$LAB_TIMEOUT start_limit=$LAB_START_TIMEOUT
for n in "$cpus" "$sockets" "$threads" "$mem" "$limit" "$start_limit"; do
	case $n in ''|*[!0-9]*|0) die "LAB_CPUS, LAB_SOCKETS, LAB_THREADS, LAB_MEM, LAB_TIMEOUT and LAB_START_TIMEOUT take positive numbers" ;; esac
done
cores=$((cpus / sockets / threads))
[ $((cores * sockets * threads)) = "$cpus" ] && [ "$cores" -ge 1 ] ||
	die "LAB_CPUS=$cpus is not LAB_SOCKETS=$sockets x cores x LAB_THREADS=$threads"
case $accel in
tcg) accel_opt="-accel tcg,thread=multi" ;;
icount) accel_opt="-accel tcg,thread=single -icount shift=$LAB_ICOUNT_SHIFT,sleep=off -rtc clock=vm" ;;
kvm) [ -w /dev/kvm ] || die "LAB_ACCEL=kvm but /dev/kvm is not usable here; use LAB_ACCEL=tcg"
	accel_opt="-accel kvm -cpu host" ;;
*) die "LAB_ACCEL must be tcg, icount or kvm, not '$accel'" ;;
esac

numa=""
if [ "$LAB_NUMA" = 1 ]; then
	per=$((cpus / sockets))
	for s in $(seq 0 $((sockets - 1))); do
		numa="$numa -object memory-backend-ram,id=m$s,size=$((mem / sockets))M"
		numa="$numa -numa node,memdev=m$s,nodeid=$s,cpus=$((s * per))-$((s * per + per - 1))"
	done
fi

lab_lock
run=$OUT/run/$name
rm -rf "$run"
mkdir -p "$run/root/lab" "$OUT/logs"
cp "$script" "$run/root/lab/run.sh"
chmod 755 "$run/root/lab/run.sh"
cpio_pack "$run/root" >"$run/extra.cpio"
cat "$base" "$run/extra.cpio" >"$run/initrd"

log=$OUT/logs/$name.console
: >"$log"
say "booting $variant ($accel, $cpus CPUs = $sockets sockets x $cores cores x $threads threads$([ -n "$numa" ] && echo ", NUMA"), ${mem}M): log $log"
# A guest that does not start its script is stopped then, not at the timeout.
(
	for _ in $(seq "$start_limit"); do
		sleep 1
		grep -q '^LAB-BEGIN' "$log" 2>/dev/null || [ -e "$run/done" ] && exit 0
	done
	touch "$run/silent"
	[ -s "$run/qemu.pid" ] && kill "$(cat "$run/qemu.pid")" 2>/dev/null
	exit 0
) &
watch=$!
qrc=0
# shellcheck disable=SC2086
timeout --foreground -k 10 "$limit" qemu-system-x86_64 $accel_opt \
	-m "$mem" -smp "$cpus,sockets=$sockets,cores=$cores,threads=$threads" $numa \
	-kernel "$kernel" -initrd "$run/initrd" -pidfile "$run/qemu.pid" \
	-append "console=ttyS0 panic=-1 oops=panic loglevel=$LAB_LOGLEVEL ${LAB_APPEND:-}" \
	-nographic -no-reboot -nodefaults -serial stdio -monitor none </dev/null 2>&1 |
	sed -u 's/\r$//' | tee "$log" | sed -u -n '/^LAB-BEGIN/,/^LAB-RESULT/p' || qrc=${PIPESTATUS[0]}
touch "$run/done"
wait "$watch" || true

tail50() { { echo "----- last 50 console lines ($log) -----"; tail -n 50 "$log" | sed 's/^/| /'; echo "-----"; } >&2; }
if [ -e "$run/silent" ]; then
	tail50
	die "$name: the guest printed nothing of its own within ${start_limit}s (no LAB-BEGIN; LAB_START_TIMEOUT)"
fi
jrc=0
verdict=$("$LAB_TOP/lab/steps/judge.sh" "$log" ${LAB_EXPECT:+--expect "$LAB_EXPECT"}) || jrc=$?
if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
	tail50
	printf '%s\n' "$verdict" >&2
	die "$name: the guest did not finish within ${limit}s"
fi
[ "$jrc" -le 1 ] || tail50
printf '%s\n' "$verdict" | sed 's/^/[lab] /' >&2
case $jrc in
0) exit 0 ;;
1) exit "$(sed -n 's/^LAB-RESULT rc=\([0-9]*\).*/\1/p' "$log" | tail -1)" ;;
esac
die "$name: failed (lab/steps/judge.sh $log${LAB_EXPECT:+ --expect '$LAB_EXPECT'}; qemu exit $qrc)"
