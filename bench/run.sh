#!/bin/bash
# 'make bench': the A/B/A benchmarks in the lab's guest, features mode
# (NI_RANDOM / NO_NI_RANDOM / NI_RANDOM on one boot of the patched kernel).
# Emulated (icount by default, where KVM is not usable): the figures compare
# the scheduler's decisions on a model machine, not hardware speed.
# Settings: BENCH_RUNS=5 BENCH_SECONDS=2 BENCH_THREADS=8 BENCH_WAKE=4
#           BENCH_WORKLOADS="futex8 futex815 hackbench" (bench-kernels: "futex8 futex815")  BENCH_FEATURE=NI_RANDOM
#           BENCH_ACCEL=icount|tcg|kvm (default: kvm where /dev/kvm works,
#           else icount)  LAB_ICOUNT_SHIFT=3
#           BENCH_INTERVAL=250 (ms: the transient, the first interval of a
#           futex run)  BENCH_WARMUP=1 (s: the steady state starts after it)
#           BENCH_REBUILD=1 (rebuild the sched domains before each run)
#           BENCH_SCHEDSTAT=1 (each run's schedstat deltas: newidle attempts
#           and pulls, all pulls, run delay; aba.sh -S)
#           BENCH_CV_MAX=2 (%: a condition over it fails the report)
#           VARIANT=patched (any variant)  LAB_KERNEL=bzImage (a kernel built
#           elsewhere, booted with VARIANT's guest files as they are)
#           BENCH_OUT=out/bench  where the results go (DIR/DATE-VARIANT, and
#           DIR/latest links to them); make check uses a scratch place
set -euo pipefail
. "$(dirname "$0")/../lab/lib.sh"
variant=${VARIANT:-patched}
runs=${BENCH_RUNS:-5} secs=${BENCH_SECONDS:-2} threads=${BENCH_THREADS:-8} wake=${BENCH_WAKE:-4}
iv=${BENCH_INTERVAL:-250} warm=${BENCH_WARMUP:-1}
feature=${BENCH_FEATURE:-NI_RANDOM}
workloads=${BENCH_WORKLOADS:-futex8 futex815 hackbench}
LAB_ACCEL=$(bench_accel)
LAB_ICOUNT_SHIFT=${LAB_ICOUNT_SHIFT:-3}	# bench/sweep.sh: CV <= 1.4 % at 2 s runs
export LAB_ACCEL LAB_ICOUNT_SHIFT
need awk python3
lab_lock
# LAB_KERNEL=bzImage: that kernel, with VARIANT's guest files as they are
[ -n "${LAB_KERNEL:-}" ] || "$LAB_TOP/lab/prepare.sh" guest "$variant"
top=${BENCH_OUT:-$OUT/bench}
dir=$top/$(date +%Y%m%d-%H%M%S)-$variant
mkdir -p "$dir"
opts="-k $runs -s $secs -t $threads -W $wake -i $iv -u $warm"
[ "${BENCH_REBUILD:-1}" = 0 ] || opts="$opts -D"
[ "${BENCH_SCHEDSTAT:-1}" = 0 ] || opts="$opts -S"

script=$dir/guest.sh
{
	echo '#!/bin/sh'
	echo 'echo "# kernel $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPUs"'
	for wl in $workloads; do
		echo "echo BENCH-CSV-BEGIN $wl"
		echo "aba.sh -w $wl $opts -f $feature || echo BENCH-FAILED $wl"
		echo "echo BENCH-CSV-END $wl"
	done
	printf '%s\n' "echo \"# features after: \$(tr ' ' '\\n' </sys/kernel/debug/sched/features | grep -E '^(NO_)?$feature\$')\""
} >"$script"
say "bench: $variant under $LAB_ACCEL, $workloads; $runs runs of $secs s per condition"
start=$(date +%s)
LAB_TIMEOUT=${LAB_TIMEOUT:-1800} "$LAB_TOP/lab/boot.sh" "$variant" "$script" "bench-$variant" >"$dir/console.txt" 2>&1 ||
	{ tail -30 "$dir/console.txt" >&2; die "the benchmark boot failed: $dir/console.txt"; }
{ echo "workload,condition,run,metric,value"; "$LAB_TOP/bench/collect.sh" "$dir/console.txt"; } >"$dir/aba.csv.new" ||
	die "no measurements from the guest (above)"
mv "$dir/aba.csv.new" "$dir/aba.csv"

rc=0
{
	bench_machine
	echo "Kernel: $variant, $(grep -m1 '^LAB-BEGIN' "$dir/console.txt" | cut -d' ' -f2), lab/config/guest.config"
	echo "Runs: $runs per condition, interleaved A B A2; $secs s each (futex: transient = first ${iv} ms," \
		"steady = after ${warm} s)$([ "${BENCH_REBUILD:-1}" = 0 ] || echo "; domains rebuilt before each run");" \
		"futex8: 8 workers waking 4, futex815: 815 waking 101, futex and hackbench: $threads threads/groups" \
		"(wake $wake); the boot took $(( $(date +%s) - start )) s"
	echo
	REPORT_JSON=$dir/report.json.new REPORT_CSV=$dir/report.csv.new REPORT_PNG=$dir/report.png \
		"$LAB_TOP/bench/report.sh" "$dir/aba.csv" \
		"A/B/A on one boot: A = $feature, B = NO_$feature" "$feature" "NO_$feature" || rc=$?
} >"$dir/report.txt.new"
[ -f "$dir/report.json.new" ] || die "the report failed (exit $rc): $dir/report.txt.new"
mv "$dir/report.json.new" "$dir/report.json"
mv "$dir/report.csv.new" "$dir/report.csv"
mv "$dir/report.txt.new" "$dir/report.txt"
cat "$dir/report.txt"
ln -sfn "$dir" "$top/latest"
say "results: $dir (aba.csv, report.txt, report.csv, report.json, report.png)"
[ "$rc" = 0 ] || die "a condition's CV is over BENCH_CV_MAX=${BENCH_CV_MAX:-2}% (above; exit $rc)"
