#!/bin/bash
# Kernels A/B/A: the same workloads on three boots, baseline (v7.3, the
# dice) / patched / baseline again, each with the default features; one CSV
# and a report as for the features mode. Settings as bench/run.sh.
set -euo pipefail
. "$(dirname "$0")/../lab/lib.sh"
runs=${BENCH_RUNS:-3} secs=${BENCH_SECONDS:-3} threads=${BENCH_THREADS:-8} wake=${BENCH_WAKE:-4}
workloads=${BENCH_WORKLOADS:-futex hackbench}
lab_lock
dir=${BENCH_OUT:-$OUT/bench}/$(date +%Y%m%d-%H%M%S)-kernels
mkdir -p "$dir"
"$LAB_TOP/lab/prepare.sh" guest baseline
"$LAB_TOP/lab/prepare.sh" guest patched
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
	"$LAB_TOP/bench/collect.sh" "$dir/console-$2.txt" >>"$dir/aba.csv" ||
		die "no measurements from the $1 boot ($2, above)"
done
{
	bench_machine
	echo "Runs: $runs per kernel; $secs s each; threads $threads, wake $wake; default features"
	echo
	REPORT_JSON=$dir/report.json.new "$LAB_TOP/bench/report.sh" "$dir/aba.csv" \
		"Kernels A/B/A: A = baseline v7.3 (dice), B = patched (accumulator)" "baseline" "patched"
} >"$dir/report.txt.new"
mv "$dir/report.json.new" "$dir/report.json"
mv "$dir/report.txt.new" "$dir/report.txt"
cat "$dir/report.txt"
"$LAB_TOP/bench/plot.sh" "$dir/aba.csv" "$dir/report.png" baseline || true
say "results: $dir"
