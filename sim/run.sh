#!/bin/bash
# 'make sim': build the gate model against the patched tree's own
# kernel/sched/newidle.h and print its tables, the cost per decision in
# instructions (callgrind) and a timeline chart (out/sim/timeline.png).
# Usage: sim/run.sh [table|check|all]   (all: the default)
set -eu
. "$(dirname "$0")/../lab/lib.sh"
mode=${1:-all}
hdr=$LINUX/kernel/sched/newidle.h
[ -f "$hdr" ] || die "no $hdr: the series is not applied (run 'make apply')"
need gcc
d=$OUT/sim
mkdir -p "$d"
gcc -O2 -g -Wall -Wextra -Werror -DNEWIDLE_H="\"$hdr\"" -o "$d/gate_sim" "$LAB_TOP/sim/gate_sim.c"

case $mode in
check) exec "$d/gate_sim" check ;;
table) exec "$d/gate_sim" table ;;
esac

echo "Gate model (sim/gate_sim.c; accumulator from $(git -C "$LINUX" describe --always patched 2>/dev/null || echo out/linux):"
echo "$(uname -m), $(nproc) CPUs, userspace: no kernel involved"
echo
"$d/gate_sim" table | tee "$d/table.txt"

echo
echo "Cost per decision at ratio 100 (instructions, valgrind callgrind; -O2 gcc $(gcc -dumpversion)):"
if command -v valgrind >/dev/null 2>&1; then
	ir() {
		valgrind --tool=callgrind --callgrind-out-file=/dev/null "$d/gate_sim" cost "$1" "$2" 2>&1 |
			sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
	}
	for g in dice acc; do
		a=$(ir $g 100000)
		b=$(ir $g 300000)
		printf '  %-12s %6.2f instructions per decision (with the loop around it)\n' \
			"$([ $g = dice ] && echo 'v7.3 dice' || echo accumulator)" \
			"$(echo "($b - $a) / 200000" | bc -l)"
	done | tee "$d/cost.txt"
else
	echo "  (valgrind not installed: skipped)"
fi

if command -v gnuplot >/dev/null 2>&1; then
	"$d/gate_sim" timeline 100 300 >"$d/timeline.dat"
	gnuplot <<GP
set terminal pngcairo size 1000,520 font ",10"
set output "$d/timeline.png"
set title "Newidle attempts at ratio 100 (expected rate 101/1024): first 300 visits"
set xlabel "visit"
set yrange [-0.5:10]
set ytics ("v7.3 dice" 8.4, "accumulator" 6.4, "4 CPUs, zero phase (4 at once)" 3.5, "4 CPUs, staggered" 0.4)
set key off
set grid xtics
plot "$d/timeline.dat" using 1:(\$2 > 0 ? 8 : 1/0):(0):(0.8) with vectors nohead lw 2 lc rgb "#c03030", \
     "" using 1:(\$3 > 0 ? 6 : 1/0):(0):(0.8) with vectors nohead lw 2 lc rgb "#3060c0", \
     "" using 1:(\$4 > 0 ? 2.5 : 1/0):(0):(\$4 * 0.6) with vectors nohead lw 2 lc rgb "#c08000", \
     "" using 1:(\$5 > 0 ? 0 : 1/0):(0):(\$5 * 0.6) with vectors nohead lw 2 lc rgb "#208040"
GP
	echo
	echo "Timeline chart: $d/timeline.png"
else
	echo "(gnuplot not installed: no chart)"
fi
