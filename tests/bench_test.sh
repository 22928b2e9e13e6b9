#!/bin/bash
# The benchmark harness: the statistics on fixed data (a Welch t-test whose
# result was computed apart), the CV limit and its negative control, and a
# short A/B/A smoke run in the patched guest, in a scratch place (emulated
# figures are not asserted on: only that every condition was measured in
# every run and the feature state was restored). bench/aba.sh's own checks
# on the host are in tests/lab/tools_test.sh.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/lib.sh"
. "$top/lab/lib.sh"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

# A: 100 102 101, B: 110 114 111, A2: 104 106 105. Welch's test of B against
# A and A2 together, worked apart from bench/stats.py (the formula, and the
# t quantile by Simpson integration of Student's density):
#   means 111.6667 and 103, variances 4.3333 and 5.6, se 1.5420,
#   t = 5.6204, df = 4.6441, t(0.975, df) = 2.6310, p = 0.00312,
#   difference 8.6667 +- 4.0571 -> +8.41 % [+4.48 %, +12.35 %] of 103: better;
#   drift A2 vs A 105/101 -> +3.96 %.
cat >"$w/t.csv" <<CSV
workload,condition,run,metric,value
futex,A,1,completions_per_s,100
futex,B,1,completions_per_s,110
futex,A2,1,completions_per_s,104
futex,A,2,completions_per_s,102
futex,B,2,completions_per_s,114
futex,A2,2,completions_per_s,106
futex,A,3,completions_per_s,101
futex,B,3,completions_per_s,111
futex,A2,3,completions_per_s,105
CSV
REPORT_JSON=$w/t.json REPORT_CSV=$w/t.out.csv "$top/bench/report.sh" "$w/t.csv" t NI_RANDOM NO_NI_RANDOM >"$w/t.txt"
# field FIELD: B's value in the JSON
field() { python3 -c 'import json, sys
r = [x for x in json.load(open(sys.argv[1]))["rows"] if x["condition"] == "B"][0]
print(r[sys.argv[2]])' "$w/t.json" "$1"; }
# near VALUE EXPECTED TOLERANCE
near() { python3 -c 'import sys; a, b, e = map(float, sys.argv[1:]); sys.exit(abs(a - b) > e)' "$@"; }
t_check "stats: Welch t = 5.6204" near "$(field t)" 5.6204 0.0005
t_check "stats: Welch-Satterthwaite df = 4.6441" near "$(field df)" 4.6441 0.0005
t_check "stats: two-sided p = 0.00312" near "$(field p)" 0.00312 0.00002
t_check "stats: 95% CI low +4.48%" near "$(field ci_low_pct)" 4.4754 0.001
t_check "stats: 95% CI high +12.35%" near "$(field ci_high_pct)" 12.3531 0.001
t_check "stats: delta against the mean of both baselines +8.41%" near "$(field delta_pct)" 8.4142 0.001
t_check "stats: verdict better" test "$(field verdict)" = better
t_check "stats: baseline drift +3.96%" near "$(field drift_pct)" 3.9604 0.001
t_check "stats: median, min, max, CV of B" test "$(field median) $(field min) $(field max) $(printf %.2f "$(field cv_pct)")" = "111.0 110.0 114.0 1.86"
t_check "report: the text has the delta, interval and verdict" \
	grep -q 'B  NO_NI_RANDOM .*  1.86%   +8.41%  \[+4.48%, +12.35%\]     better' "$w/t.txt"
t_check "report: the text has the drift" grep -q 'baseline drift (A2 NI_RANDOM again vs A  NI_RANDOM): +3.96%' "$w/t.txt"
t_check "report: the CSV has a row per condition" test "$(grep -c '^futex,completions_per_s,' "$w/t.out.csv")" = 3
t_check "report: a missing CSV is an error, said" refuses_with "is empty or missing" "$top/bench/report.sh" "$w/missing.csv"

# within noise: B's runs straddle the baselines
sed -e 's/,110$/,101/' -e 's/,114$/,106/' -e 's/,111$/,103/' "$w/t.csv" >"$w/n.csv"
BENCH_CV_MAX=0 REPORT_JSON=$w/t.json "$top/bench/report.sh" "$w/n.csv" >/dev/null
t_check "stats: an interval that holds 0 is within noise" test "$(field verdict)" = "within noise"
# lower is better for a time: the same data as seconds is worse
sed 's/completions_per_s/seconds/' "$w/t.csv" >"$w/s.csv"
REPORT_JSON=$w/t.json "$top/bench/report.sh" "$w/s.csv" >/dev/null
t_check "stats: a longer time is worse" test "$(field verdict)" = worse

# the CV limit: B's CV is 1.86 %
t_check "CV limit: 1.86% passes a limit of 2%" eval 'BENCH_CV_MAX=2 "$top/bench/report.sh" "$w/t.csv" >/dev/null'
rc=0
BENCH_CV_MAX=1.5 REPORT_JSON=$w/cv.json "$top/bench/report.sh" "$w/t.csv" t X Y >"$w/cv.txt" 2>"$w/cv.err" || rc=$?
t_check "negative control: a CV over its limit fails the report (exit 3)" test "$rc" = 3
t_check "negative control: the failure names the condition and its CV" \
	grep -q 'futex completions_per_s, condition B  Y: CV 1.86%' "$w/cv.err"
t_check "negative control: the report is still written, saying so" \
	eval 'grep -q "exceeded by" "$w/cv.txt" && test -s "$w/cv.json"'

# runs_of CSV WORKLOAD CONDITION: how many runs measured it (a run writes
# one row per metric)
runs_of() { awk -F, -v w="$2" -v c="$3" '$1 == w && $2 == c { r[$3] = 1 } END { n = 0; for (k in r) n++; print n }' "$1"; }
t_check "runs: the fixture has three runs of each condition" test "$(runs_of "$w/t.csv" futex B)" = 3
printf 'workload,condition,run,metric,value\nfutex,A,1,completions_per_s,1\nfutex,A,1,wake_us_p50,2\nfutex,A,1,wake_us_p99,3\n' >"$w/one.csv"
t_check "negative control: one run with three metrics is one run, not two" test "$(runs_of "$w/one.csv" futex A)" = 1

# make bench-kernels' plan: the five kernels, each between two baseline boots
BENCH_PLAN_ONLY=1 "$top/bench/kernels.sh" >"$w/plan.txt"
t_check "kernels: nine boots, the baseline first, last and between each two" \
	test "$(awk 'NF == 3 { print $3 }' "$w/plan.txt" | tr '\n' ' ')" = \
	"baseline1 dicefix baseline2 plain baseline3 patched baseline4 patched_NO_NI_RANDOM baseline5 "
t_check "kernels: NO_NI_RANDOM set on the patched kernel" grep -qx 'patched NO_NI_RANDOM patched_NO_NI_RANDOM' "$w/plan.txt"
t_check "kernels: each compared with the baselines before and after it" \
	test "$(grep -c '^[a-zA-Z_]*:baseline\([1-4]\),baseline[2-5]$' "$w/plan.txt")" = 4

# Smoke run in the guest (emulated: icount unless KVM works), futex8 and
# hackbench (when rt-tests is here), 2 runs of 1 s, in a scratch place:
# out/bench/latest is the user's. Two runs say nothing of the CV: no limit.
workloads=futex8
why=$(have hackbench rt-tests) && workloads="futex8 hackbench" || t_skip "smoke: hackbench" "$why"
latest_before=$(readlink "$OUT/bench/latest" 2>/dev/null || echo none)
rc=0
BENCH_OUT=$w/bench BENCH_RUNS=2 BENCH_SECONDS=1 BENCH_WARMUP=0 BENCH_CV_MAX=0 BENCH_WORKLOADS="$workloads" \
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
t_check "smoke: futex's transient and steady state measured apart" \
	eval 'grep -q "^futex8,B,2,transient_per_s," "$d/aba.csv" && grep -q "^futex8,B,2,steady_per_s," "$d/aba.csv"'
t_check "smoke: each run's schedstat deltas (newidle attempts and pulls)" \
	eval 'grep -q "^futex8,B,2,ni_lb_count," "$d/aba.csv" && grep -q "^futex8,B,2,ni_lb_gained," "$d/aba.csv"'
t_check "smoke: the report says it is emulated" grep -q 'EMULATED' "$d/report.txt"
if [ "$(bench_accel)" = icount ]; then
	t_check "smoke: the report says what icount compares" grep -qxF "$BENCH_ICOUNT_LINE" "$d/report.txt"
else
	t_skip "smoke: the report says what icount compares" "BENCH_ACCEL is $(bench_accel)"
fi
t_check "smoke: the report, its CSV and JSON are whole (no temporary left)" \
	eval 'test -s "$d/report.json" && test -s "$d/report.csv" && test -z "$(find "$d/" -name "*.new")"'
t_check "smoke: NI_RANDOM restored after the run" \
	grep -q '^# features after: NI_RANDOM$' "$d/console.txt"
# The plain kernel of make bench-kernels is the series with a lab patch:
# it must still apply to the series as it is now (and not to v7.3).
pg_applies() { GIT_INDEX_FILE=$w/idx git -C "$LINUX" read-tree "$1" &&
	GIT_INDEX_FILE=$w/idx git -C "$LINUX" apply --cached --check "$top/bench/plain-gate.patch" 2>/dev/null; }
t_check "bench/plain-gate.patch applies to the series" pg_applies patched
t_check "negative control: and not to v7.3" eval '! pg_applies "$BASE_TAG"'
t_done
