#!/bin/sh
# Summarise an A/B/A CSV (bench/aba.sh, bench/kernels.sh): per workload and
# metric, n, mean, median, min, max and CV of each condition, the delta of B
# against the mean of both baselines with its 95 % confidence interval
# (Welch) and a verdict, and the baselines' drift (bench/stats.py).
# Usage: bench/report.sh CSV [TITLE] [NAME_A NAME_B]   (text on stdout)
#   REPORT_JSON=file  REPORT_CSV=file  REPORT_PNG=file  the same figures as
#   JSON, CSV and a chart (gnuplot)
#   BENCH_CV_MAX=2    a condition whose CV (of a workload's main metric) is
#                     over this many percent fails the report (exit 6, named)
set -eu
csv=${1:?usage: bench/report.sh CSV [TITLE] [NAME_A NAME_B]}
na=${3:-A}
nb=${4:-B}
exec python3 "$(dirname "$0")/stats.py" "$csv" --title "${2:-A/B/A}" \
	--label "A=A  $na" --label "B=B  $nb" --label "A2=A2 $na again" \
	${REPORT_JSON:+--json "$REPORT_JSON"} ${REPORT_CSV:+--csv "$REPORT_CSV"} \
	${REPORT_PNG:+--png "$REPORT_PNG"}
