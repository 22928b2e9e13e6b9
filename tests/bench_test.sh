#!/bin/bash
# The benchmark harness: the report's arithmetic on fixed data, bad input to
# aba.sh, and a short A/B/A smoke run in the patched guest (TCG figures are
# not asserted on: only that every condition was measured and the feature
# state was restored).
set -eu
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
if "$top/bench/report.sh" "$w/missing.csv" >/dev/null 2>"$w/err"; then rc=0; else rc=$?; fi
t_check "report: a missing CSV is an error" test "$rc" != 0
if "$top/bench/aba.sh" -w nosuch >/dev/null 2>"$w/err"; then rc=0; else rc=$?; fi
t_check "aba: an unknown workload is refused" test "$rc" != 0

# Smoke run in the guest, futex and hackbench, 2 runs of 1 s.
if BENCH_RUNS=2 BENCH_SECONDS=1 BENCH_WORKLOADS="futex hackbench" \
	"$top/bench/run.sh" >"$w/run.log" 2>&1; then rc=0; else rc=$?; tail -20 "$w/run.log"; fi
t_check "smoke: bench/run.sh in the guest succeeds" test "$rc" = 0
d=$OUT/bench/latest
for wl in futex hackbench; do
	for c in A B A2; do
		t_check "smoke: $wl measured under $c twice" \
			test "$(grep -c "^$wl,$c,[12]," "$d/aba.csv" 2>/dev/null)" -ge 2
	done
done
t_check "smoke: the report says it is emulated" grep -q 'EMULATED' "$d/report.txt"
t_check "smoke: NI_RANDOM restored after the run" \
	grep -q '^# features after: NI_RANDOM$' "$d/console.txt"
t_done
