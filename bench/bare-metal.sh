#!/bin/sh
# One command for a tester with real hardware, as root: the futex wake/sleep
# conditions of the sembench runs in the review (8 workers waking 4 per pass,
# 815 workers waking 101), NI_RANDOM / NO_NI_RANDOM / NI_RANDOM on the
# running kernel, 9 runs of 30 s each per condition, then the report of
# bench/report.sh (n, mean, median, min, max, CV, the delta with its 95 %
# Welch interval and verdict, the drift; text, CSV, JSON). A condition over
# BENCH_CV_MAX is named in the report (and the exit status is 3), but every
# condition is still run and reported.
# Usage: sudo bench/bare-metal.sh [OUTDIR]      (about 30 minutes)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-./newidle-bench-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
{
	echo "Kernel: $(uname -r); CPUs: $(grep -c ^processor /proc/cpuinfo); $(grep -m1 'model name' /proc/cpuinfo)"
	echo "Runs: ${RUNS:-9} x ${SECONDS_PER_RUN:-30} s per condition, interleaved A B A2 (futex: transient = first 250 ms, steady = after 5 s)"
	echo
} >"$out/report.txt"
rc=0
for c in "8 4" "815 101"; do
	set -- $c
	"$here/aba.sh" -w futex -k "${RUNS:-9}" -s "${SECONDS_PER_RUN:-30}" -t "$1" -W "$2" -i 250 -u 5 -o "$out/futex-$1.csv"
	REPORT_JSON=$out/futex-$1.json REPORT_CSV=$out/futex-$1.report.csv \
		"$here/report.sh" "$out/futex-$1.csv" "futex, $1 workers, wake $2 per pass" NI_RANDOM NO_NI_RANDOM \
		>>"$out/report.txt" || rc=$?
done
cat "$out/report.txt"
exit $rc
