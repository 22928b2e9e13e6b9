#!/bin/bash
# 'make bench': the A/B/A benchmarks in the lab's guest, features mode
# (NI_RANDOM / NO_NI_RANDOM / NI_RANDOM on one boot of the patched kernel).
# Under QEMU TCG the figures are a smoke test of the harness, not a claim.
# Settings: BENCH_RUNS=3 BENCH_SECONDS=3 BENCH_THREADS=8 BENCH_WAKE=4
#           BENCH_WORKLOADS="futex hackbench"  BENCH_FEATURE=NI_RANDOM
#           VARIANT=patched (any variant)
#           BENCH_OUT=out/bench  where the results go (DIR/DATE-VARIANT, and
#           DIR/latest links to them); make check uses a scratch place
set -euo pipefail
. "$(dirname "$0")/../lab/lib.sh"
variant=${VARIANT:-patched}
runs=${BENCH_RUNS:-3} secs=${BENCH_SECONDS:-3} threads=${BENCH_THREADS:-8} wake=${BENCH_WAKE:-4}
feature=${BENCH_FEATURE:-NI_RANDOM}
workloads=${BENCH_WORKLOADS:-futex hackbench}
need awk
lab_lock
"$LAB_TOP/lab/prepare.sh" guest "$variant"
top=${BENCH_OUT:-$OUT/bench}
dir=$top/$(date +%Y%m%d-%H%M%S)-$variant
mkdir -p "$dir"

script=$dir/guest.sh
{
	echo '#!/bin/sh'
	echo 'echo "# kernel $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPUs"'
	for wl in $workloads; do
		echo "echo BENCH-CSV-BEGIN $wl"
		echo "aba.sh -w $wl -k $runs -s $secs -t $threads -W $wake -f $feature || echo BENCH-FAILED $wl"
		echo "echo BENCH-CSV-END $wl"
	done
	printf '%s\n' "echo \"# features after: \$(tr ' ' '\\n' </sys/kernel/debug/sched/features | grep -E '^(NO_)?$feature\$')\""
} >"$script"
LAB_TIMEOUT=${LAB_TIMEOUT:-1800} "$LAB_TOP/lab/boot.sh" "$variant" "$script" "bench-$variant" >"$dir/console.txt" 2>&1 ||
	{ tail -30 "$dir/console.txt" >&2; die "the benchmark boot failed: $dir/console.txt"; }
{ echo "workload,condition,run,metric,value"; "$LAB_TOP/bench/collect.sh" "$dir/console.txt"; } >"$dir/aba.csv.new" ||
	die "no measurements from the guest (above)"
mv "$dir/aba.csv.new" "$dir/aba.csv"

{
	bench_machine
	echo "Kernel: $variant, $(grep -m1 '^LAB-BEGIN' "$dir/console.txt" | cut -d' ' -f2), lab/config/guest.config"
	echo "Runs: $runs per condition, interleaved A B A2; $secs s each; threads $threads, wake $wake"
	echo
	REPORT_JSON=$dir/report.json.new "$LAB_TOP/bench/report.sh" "$dir/aba.csv" \
		"A/B/A on one boot: A = $feature, B = NO_$feature" "$feature" "NO_$feature"
} >"$dir/report.txt.new"
mv "$dir/report.json.new" "$dir/report.json"
mv "$dir/report.txt.new" "$dir/report.txt"
cat "$dir/report.txt"
"$LAB_TOP/bench/plot.sh" "$dir/aba.csv" "$dir/report.png" "$feature" || say "no chart (gnuplot missing?)"
say "results: $dir (aba.csv, report.txt, report.json, report.png)"
ln -sfn "$dir" "$top/latest"
