#!/bin/sh
# Summarise an A/B/A CSV (bench/aba.sh, bench/kernels.sh) the way the review
# mails do: per workload and metric, mean, stddev and CV of each condition,
# the delta of B against the mean of both baselines, and the baselines' drift.
# Usage: bench/report.sh CSV [TITLE] [NAME_A NAME_B]   (text on stdout)
#        REPORT_JSON=file writes the same figures as JSON.
set -eu
csv=${1:?usage: bench/report.sh CSV [TITLE] [NAME_A NAME_B]}
title=${2:-A/B/A}
na=${3:-A}
nb=${4:-B}
[ -s "$csv" ] || { echo "report: $csv is empty or missing" >&2; exit 1; }
echo "$title"
echo
awk -F, -v na="$na" -v nb="$nb" -v json="${REPORT_JSON:-}" '
NR == 1 { next }
{
	key = $1 SUBSEP $4
	if (!(key in seen)) { seen[key] = 1; order[++nk] = key }
	n[key, $2]++; s[key, $2] += $5; ss[key, $2] += $5 * $5
	runs[key, $2] = (runs[key, $2] == "" ? "" : runs[key, $2] " ") $5
}
function mean(k, c) { return n[k, c] ? s[k, c] / n[k, c] : 0 }
function sd(k, c,   m, v) {
	if (n[k, c] < 2) return 0
	m = mean(k, c); v = (ss[k, c] - n[k, c] * m * m) / (n[k, c] - 1)
	return v > 0 ? sqrt(v) : 0
}
function pct(a, b) { return b ? 100 * (a - b) / b : 0 }
function better(m) { return (m ~ /^(seconds|.*_us_|.*_per_1k)/) ? "lower is better" : "higher is better" }
END {
	if (json != "") printf "[\n" > json
	for (i = 1; i <= nk; i++) {
		k = order[i]; split(k, p, SUBSEP)
		base = (mean(k, "A") + mean(k, "A2")) / 2
		printf "%s: %s (%s), %d runs per condition\n", p[1], p[2], better(p[2]), n[k, "A"]
		printf "  %-22s %14s %12s %7s %10s\n", "condition", "mean", "stddev", "CV", "delta"
		split("A B A2", cs, " ")
		for (j = 1; j <= 3; j++) {
			c = cs[j]; m = mean(k, c)
			name = (c == "A" ? "A  " na : c == "B" ? "B  " nb : "A2 " na " again")
			printf "  %-22s %14.4f %12.4f %6.2f%% %+9.2f%%\n", name, m, sd(k, c),
				m ? 100 * sd(k, c) / m : 0, pct(m, base)
			if (json != "")
				printf "  {\"workload\": \"%s\", \"metric\": \"%s\", \"condition\": \"%s\", \"name\": \"%s\", \"runs\": %d, \"mean\": %.6f, \"stddev\": %.6f, \"cv_pct\": %.4f, \"delta_pct\": %.4f, \"drift_pct\": %.4f}%s\n",
					p[1], p[2], c, name, n[k, c], m, sd(k, c), m ? 100 * sd(k, c) / m : 0,
					pct(m, base), pct(mean(k, "A2"), mean(k, "A")),
					(i == nk && j == 3) ? "" : "," > json
		}
		printf "  B vs mean of both baselines: %+.2f%%; baseline drift (A2 vs A): %+.2f%%\n\n",
			pct(mean(k, "B"), base), pct(mean(k, "A2"), mean(k, "A"))
	}
	if (json != "") printf "]\n" > json
}' "$csv"
