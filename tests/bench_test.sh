#!/bin/bash
# The benchmark harness: the report's arithmetic on fixed data, and a short
# A/B/A smoke run in the patched guest, in a scratch place (TCG figures are
# not asserted on: only that every condition was measured in every run and
# the feature state was restored). bench/aba.sh's own checks on the host are
# in tests/lab/tools_test.sh.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/lib.sh"
. "$top/lab/lib.sh"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

cat >"$w/t.csv" <<CSV
workload,condition,run,metric,value
futex,A,1,completions_per_s,100
futex,B,1,completions_per_s,110
futex,A2,1,completions_per_s,104
futex,A,2,completions_per_s,102
futex,B,2,completions_per_s,114
futex,A2,2,completions_per_s,106
CSV
REPORT_JSON=$w/t.json "$top/bench/report.sh" "$w/t.csv" t NI_RANDOM NO_NI_RANDOM >"$w/t.txt"
# baselines 101 and 105 -> 103; B 112 -> +8.74%; drift 105/101 -> +3.96%; sd of A = 1.4142
t_check "report: delta of B against the mean of both baselines" grep -q 'B vs mean of both baselines: +8.74%' "$w/t.txt"
t_check "report: baseline drift" grep -q 'baseline drift (A2 vs A): +3.96%' "$w/t.txt"
t_check "report: stddev and CV" grep -q 'A  NI_RANDOM  *101.0000  *1.4142   1.40%' "$w/t.txt"
t_check "report: JSON with three conditions" test "$(grep -c '"condition"' "$w/t.json")" = 3
t_check "report: a missing CSV is an error, said" refuses_with "is empty or missing" "$top/bench/report.sh" "$w/missing.csv"

# runs_of CSV WORKLOAD CONDITION: how many runs measured it (a run writes
# one row per metric)
runs_of() { awk -F, -v w="$2" -v c="$3" '$1 == w && $2 == c { r[$3] = 1 } END { n = 0; for (k in r) n++; print n }' "$1"; }
t_check "runs: the fixture has two runs of each condition" test "$(runs_of "$w/t.csv" futex B)" = 2
printf 'workload,condition,run,metric,value\nfutex,A,1,completions_per_s,1\nfutex,A,1,wake_us_p50,2\nfutex,A,1,wake_us_p99,3\n' >"$w/one.csv"
t_check "negative control: one run with three metrics is one run, not two" test "$(runs_of "$w/one.csv" futex A)" = 1

# Smoke run in the guest, futex and hackbench (when rt-tests is here), 2
# runs of 1 s, in a scratch place: out/bench/latest is the user's.
workloads=futex
why=$(have hackbench rt-tests) && workloads="futex hackbench" || t_skip "smoke: hackbench" "$why"
latest_before=$(readlink "$OUT/bench/latest" 2>/dev/null || echo none)
rc=0
BENCH_OUT=$w/bench BENCH_RUNS=2 BENCH_SECONDS=1 BENCH_WORKLOADS="$workloads" \
	"$top/bench/run.sh" >"$w/run.log" 2>&1 || { rc=$?; tail -20 "$w/run.log" | sed 's/^/# /'; }
t_check "smoke: bench/run.sh in the guest succeeds" test "$rc" = 0
t_check "smoke: it leaves out/bench/latest alone (a scratch place: BENCH_OUT)" \
	test "$(readlink "$OUT/bench/latest" 2>/dev/null || echo none)" = "$latest_before"
d=$w/bench/latest
for wl in $workloads; do
	for c in A B A2; do
		t_check "smoke: $wl measured under $c in 2 runs" test "$(runs_of "$d/aba.csv" "$wl" "$c" 2>/dev/null)" = 2
	done
done
t_check "smoke: the report says it is emulated" grep -q 'EMULATED' "$d/report.txt"
t_check "smoke: the report and its JSON are whole (no temporary left)" \
	eval 'test -s "$d/report.json" && test -z "$(find "$d/" -name "*.new")"'
t_check "smoke: NI_RANDOM restored after the run" \
	grep -q '^# features after: NI_RANDOM$' "$d/console.txt"
t_done
