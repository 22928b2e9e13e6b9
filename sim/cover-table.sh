#!/bin/bash
# The cover letter's model table from the tables sim/run.sh writes to out/sim:
# the most CPUs attempting at once (D), the lock-on pulls against the dice (A),
# the count and gap bounds (C). One file given: the tables beside it are read
# too. Fails, naming it, when a claim of the gate reads MISSED or rows are missing.
# Usage: sim/cover-table.sh TABLE.TXT...
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 TABLE.TXT... (sim/run.sh writes them to out/sim)" >&2; exit 2; }
files=("$@")
if [ $# = 1 ]; then
	for f in "$(dirname "$1")"/[B-E]-*.txt; do
		[ -f "$f" ] && [ "$f" != "$1" ] && files+=("$f")
	done
fi
for f in "${files[@]}"; do
	[ -f "$f" ] || { echo "$0: no $f" >&2; exit 2; }
done
awk '
function miss(what) { printf "%s: the gate misses its claim\n", what > "/dev/stderr"; bad = 1 }
/same [0-9]+ visits/ { match($0, /same [0-9]+ visits/); visits = substr($0, RSTART + 5, RLENGTH - 12) }
# D: N, scenario, gate, states, restart, states, dice range, claim
/^ *[0-9]+ +(constant|moving|decay) +[-+][0-9]+ / {
	ls[++nls] = sprintf("  %4s  %-15s %6s %8s  %-11s", $1, scen[$2], $3, $4, $7)
	if ($NF != "met") miss("lockstep, N=" $1 ", " $2)
}
# A: T, jitter, design, mean, worst (k), sd, claim
/^ *[0-9]+ +[0-9]+% +/ {
	t = $1; j = $2
	if (!((t, j) in seen)) { order[++nlo] = t SUBSEP j; seen[t, j] = 1 }
	line = $0
	sub(/^ *[0-9]+ +[0-9]+% +/, "", line)
	if (match(line, / +[0-9.]+% +[0-9.]+% /)) {
		d = substr(line, 1, RSTART - 1)
		split(substr(line, RSTART), f, " ")
		# the dice against itself: the draw with the lowest worst k
		if (d ~ /^fixed dice\/64 again/) {
			d = "fixed dice/64 again"
			if ((t, j) in low && low[t, j] <= f[2] + 0) next
			low[t, j] = f[2] + 0
		}
		k = t SUBSEP j SUBSEP d
		cell[k] = sprintf("%5.1f / %-5.1f", f[1], f[2])
		if (d == "gate/64" && $NF != "met") miss("lock-on, T=" t ", jitter " j)
	}
}
# E: instructions per decision
/^ +(dice|plain|gate) +[0-9.]+$/ { cost[$1] = $2 }
# C: the count from CPU 0 and from every start, the gaps
/^ *count, CPU 0: / { cnt0 = $4; if ($NF != "met") miss("count, CPU 0") }
/^ *count, CPUs / { cntall = $4; if ($NF != "met") miss("count, every CPU start") }
/^ *gaps, gate: / { gap = $3 " of " $6 " visits " $9; if ($NF != "met") miss("gaps") }
BEGIN { scen["constant"] = "constant 100"; scen["moving"] = "moving 50..150"; scen["decay"] = "decay from 512" }
END {
	if (nls == 0) { print "no rows of the lockstep table (D) found" > "/dev/stderr"; bad = 1 }
	if (nlo == 0) { print "no rows of the lock-on table (A) found" > "/dev/stderr"; bad = 1 }
	if (cnt0 == "" || cntall == "" || gap == "") { print "no count or gap lines of table C found" > "/dev/stderr"; bad = 1 }
	printf "  CPUs 0..N-1 making the same %s visits at a common ratio: the most\n", visits
	printf "  attempting on one visit above ceil(N * (1 + ratio) / 1024), and the\n"
	printf "  CPUs'"'"' distinct states at the end\n"
	printf "     N  ratio             gate   states  dice, 8 seeds\n"
	for (i = 1; i <= nls; i++) { row = ls[i]; sub(/ +$/, "", row); print row }
	printf "\n  pulls over the fixed dice'"'"'s (1/64 weights) when pull chances come\n"
	printf "  every k-th visit: mean over k = 2..1024 / worst k, in %%\n"
	printf "  NI_RATE  jitter  gate           places at 0    hash_32 places dice, lowest of 3\n"
	for (i = 1; i <= nlo; i++) {
		split(order[i], tj, SUBSEP)
		g = order[i] SUBSEP "gate/64"; p = order[i] SUBSEP "plain/64"
		h = order[i] SUBSEP "golden/64"; r = order[i] SUBSEP "fixed dice/64 again"
		if (!(g in cell) || !(p in cell) || !(h in cell) || !(r in cell)) {
			printf "T=%s jitter %s: a row is missing\n", tj[1], tj[2] > "/dev/stderr"
			bad = 1; continue
		}
		row = sprintf("  %5s    %5s   %s  %s  %s  %s", tj[1], tj[2], cell[g], cell[p], cell[h], cell[r])
		sub(/ +$/, "", row); print row
	}
	printf "\n  attempts - floor(S), S the sum of (1 + ratio) / 1024 since the domain\n"
	printf "  was built, from every CPU start: %s (from a band start: %s)\n", cntall, cnt0
	printf "  the longest gap at a steady ratio r against ceil(2047 / (1 + r)):\n  %s\n", gap
	if ("gate" in cost && "dice" in cost)
		printf "\n  instructions per decision at ratio 100 (callgrind, -O2, the loop\n  included): the gate %.1f, v7.3'"'"'s dice %.1f\n", cost["gate"], cost["dice"]
	exit bad
}' "${files[@]}"
