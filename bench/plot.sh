#!/bin/sh
# Chart of an A/B/A CSV: the mean of each condition, relative to the mean of
# both baselines, with the runs' stddev as error bars; one group per metric.
# Usage: bench/plot.sh CSV PNG [FEATURE]
set -eu
csv=${1:?usage: bench/plot.sh CSV PNG [FEATURE]}
png=${2:?usage: bench/plot.sh CSV PNG [FEATURE]}
f=${3:-A}
command -v gnuplot >/dev/null || exit 1
dat=$(mktemp)
trap 'rm -f "$dat"' EXIT
awk -F, 'NR > 1 { k = $1 ":" $4; if (!(k in seen)) { seen[k] = 1; o[++nk] = k }
		n[k, $2]++; s[k, $2] += $5; ss[k, $2] += $5 * $5 }
	function m(k, c) { return s[k, c] / n[k, c] }
	function sd(k, c,   v) { if (n[k, c] < 2) return 0; v = (ss[k, c] - n[k, c] * m(k, c)^2) / (n[k, c] - 1); return v > 0 ? sqrt(v) : 0 }
	END { for (i = 1; i <= nk; i++) { k = o[i]; b = (m(k, "A") + m(k, "A2")) / 2
		printf "\"%s\"", k
		split("A B A2", c, " ")
		for (j = 1; j <= 3; j++) printf " %.4f %.4f", 100 * m(k, c[j]) / b, 100 * sd(k, c[j]) / b
		printf "\n" } }' "$csv" >"$dat"
gnuplot <<GP
set terminal pngcairo size 1000,480 font ",10"
set output "$png"
set title "A/B/A: each condition relative to the mean of both baselines (100 = baselines), error bars = stddev"
set style data histograms
set style histogram errorbars gap 2 lw 1
set style fill solid 0.7 border -1
set ylabel "% of baseline mean"
set xtics rotate by -20
set key top right
set grid ytics
plot "$dat" using 2:3:xtic(1) title "A $f", "" using 4:5 title "B NO_$f", "" using 6:7 title "A2 $f again"
GP
