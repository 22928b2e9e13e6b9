#!/bin/bash
# Kernels A/B/A: the same workloads on three boots, baseline (v7.3, the
# dice) / patched / baseline again, each with the default features; one CSV
# and a report as for the features mode. Settings as bench/run.sh.
set -eu
. "$(dirname "$0")/../lab/lib.sh"
runs=${BENCH_RUNS:-3} secs=${BENCH_SECONDS:-3} threads=${BENCH_THREADS:-8} wake=${BENCH_WAKE:-4}
workloads=${BENCH_WORKLOADS:-futex hackbench}
dir=$OUT/bench/$(date +%Y%m%d-%H%M%S)-kernels
mkdir -p "$dir" "$OUT/guest/bin"
"$LAB_TOP/lab/fetch.sh"
"$LAB_TOP/lab/apply.sh"
"$LAB_TOP/lab/build.sh" baseline
"$LAB_TOP/lab/build.sh" patched
gcc -O2 -Wall -static -pthread -o "$OUT/guest/bin/futexbench" "$LAB_TOP/bench/futexbench.c"
cp "$LAB_TOP/bench/aba.sh" "$OUT/guest/bin/aba.sh"
"$LAB_TOP/lab/initramfs.sh"
echo "workload,condition,run,metric,value" >"$dir/aba.csv"
for step in "baseline A" "patched B" "baseline A2"; do
	set -- $step
	{
		echo '#!/bin/sh'
		for wl in $workloads; do
			echo "echo BENCH-CSV-BEGIN"
			echo "aba.sh -w $wl -k $runs -s $secs -t $threads -W $wake -c $2 || echo BENCH-FAILED $wl"
			echo "echo BENCH-CSV-END"
		done
	} >"$dir/guest-$2.sh"
	say "kernels A/B/A: $1 as $2"
	LAB_TIMEOUT=${LAB_TIMEOUT:-1800} "$LAB_TOP/lab/boot.sh" "$1" "$dir/guest-$2.sh" "bench-$1-$2" \
		>"$dir/console-$2.txt" 2>&1 || { tail -30 "$dir/console-$2.txt" >&2; die "boot of $1 failed"; }
	grep -q BENCH-FAILED "$dir/console-$2.txt" && die "a workload failed on $1: $dir/console-$2.txt"
	grep -E "^[a-z]+,$2,[0-9]+," "$dir/console-$2.txt" >>"$dir/aba.csv"
done
{
	bench_machine
	echo "Runs: $runs per kernel; $secs s each; threads $threads, wake $wake; default features"
	echo
	REPORT_JSON=$dir/report.json "$LAB_TOP/bench/report.sh" "$dir/aba.csv" \
		"Kernels A/B/A: A = baseline v7.3 (dice), B = patched (accumulator)" "baseline" "patched"
} | tee "$dir/report.txt"
"$LAB_TOP/bench/plot.sh" "$dir/aba.csv" "$dir/report.png" baseline || true
say "results: $dir"
