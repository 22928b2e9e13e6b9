#!/bin/bash
# The cover letter's model table, from table A of the gate model (sim/run.sh
# writes it to out/sim/A-lockon.txt): per NI_RATE term and jitter, the mean
# and worst-k pulls of this series' gate, of the plain accumulator and of the
# dice against itself, relative to the dice with its off-by-one fixed.
# Fails, naming the setting, when the gate's row misses the stated claim or
# the table lacks a setting's rows.
# Usage: sim/cover-table.sh A-LOCKON.TXT
set -euo pipefail
[ $# = 1 ] && [ -f "$1" ] || { echo "usage: $0 A-LOCKON.TXT (sim/run.sh writes it)" >&2; exit 2; }
awk '
function cell(d) { return (d in mean) ? sprintf("%6s / %-6s", mean[d], worst[d]) : "   (missing)   " }
/^ *[0-9]+ +[0-9]+% +/ {
	t = $1; j = $2
	if (!((t, j) in seen)) { order[++n] = t SUBSEP j; seen[t, j] = 1 }
	line = $0
	sub(/^ *[0-9]+ +[0-9]+% +/, "", line)
	# design name, then mean%, worst% (k=..), verdict
	if (match(line, / +[0-9.]+% +[0-9.]+% /)) {
		d = substr(line, 1, RSTART - 1)
		split(substr(line, RSTART), f, " ")
		key = t SUBSEP j SUBSEP d
		mean[key] = f[1]; worst[key] = f[2]
		verdict[key] = $NF
	}
}
END {
	if (n == 0) { print "no rows of table A found" > "/dev/stderr"; exit 1 }
	printf "  NI_RATE  period   pulls / fixed dice: mean over k, worst k\n"
	printf "  term     jitter   this series       plain accumulator  dice vs itself\n"
	bad = 0
	for (i = 1; i <= n; i++) {
		split(order[i], tj, SUBSEP)
		g = order[i] SUBSEP "gate/64"
		p = order[i] SUBSEP "plain/64"
		r = order[i] SUBSEP "fixed dice/64 again"
		if (!(g in mean) || !(p in mean) || !(r in mean)) {
			printf "T=%s jitter %s: a row is missing\n", tj[1], tj[2] > "/dev/stderr"; bad = 1; continue
		}
		if (verdict[g] != "met") {
			printf "T=%s jitter %s: the gate %s its claim\n", tj[1], tj[2], verdict[g] > "/dev/stderr"; bad = 1
		}
		row = sprintf("  %5s    %5s    %s   %s    %s", tj[1], tj[2], cell(g), cell(p), cell(r))
		sub(/ +$/, "", row)
		print row
	}
	exit bad
}' "$1"
