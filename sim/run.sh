#!/bin/bash
# 'make sim': build the gate model against the patched tree's own
# kernel/sched/newidle.h, print its tables (A-E), the cost per decision in
# instructions (F, callgrind) and a timeline chart (G, out/sim/timeline.png).
# Each table also goes to out/sim/<letter>-<name>.txt.
# 'sim/run.sh check' ('make check'): the series' claims on the gate and their
# negative controls, as TAP, in about a minute. 'sim/run.sh build': only
# build the model against the tree (the outbox's check that it still does).
# Usage: sim/run.sh [table|check|build|all]   (all: the default; table: A-E only)
set -euo pipefail
. "$(dirname "$0")/../lab/lib.sh"
mode=${1:-all}
case $mode in
table|check|build|all) ;;
*) die "usage: sim/run.sh [table|check|build|all]" ;;
esac
hdr=$LINUX/kernel/sched/newidle.h
[ -f "$hdr" ] || die "no $hdr: the series is not applied (run 'make apply')"
need gcc
d=$OUT/sim
mkdir -p "$d"
lab_settings_dump >"$d/settings.txt"
# tools/include has the kernel's linux/types.h, hash.h and compiler.h
# the success weight as the tree has it (sched.h, fair.c), as a header
est=$d/estimator.h
{
	grep -m1 '^#define NEWIDLE_SUCCESS_SHIFT' "$LINUX/kernel/sched/sched.h" || true
	awk '/^static inline unsigned int newidle_success_weight\(/,/^}/' "$LINUX/kernel/sched/fair.c"
} >"$est"
grep -q '^#define NEWIDLE_SUCCESS_SHIFT' "$est" && grep -q '^}' "$est" ||
	die "the tree has no NEWIDLE_SUCCESS_SHIFT (kernel/sched/sched.h) or newidle_success_weight() (kernel/sched/fair.c)"
# lab/host/include and tools/include have the kernel's types, hash.h and math.h
gcc -O2 -g -Wall -Wextra -Werror -I"$LAB_TOP/lab/host/include" -I"$LINUX/tools/include" \
	-DNEWIDLE_H="\"$hdr\"" -DESTIMATOR_H="\"$est\"" \
	-o "$d/gate_sim" "$LAB_TOP"/sim/*.c -lm

case $mode in
check) exec "$d/gate_sim" check ;;
build) exit 0 ;;
esac

t0=$(date +%s)
echo "Gate model (sim/*.c, built against $(git -C "$LINUX" describe --always patched 2>/dev/null || echo out/linux):kernel/sched/newidle.h):"
echo "$(uname -m), $(nproc) CPUs, one worker per CPU; userspace: every table is a model, no kernel runs"
echo
# table A also writes every k to A-lockon.csv
for t in A-lockon B-estimator C-exactness D-lockstep E-levels; do
	SIM_CSV=$d/A-lockon.csv "$d/gate_sim" table "${t%%-*}" | tee "$d/$t.txt"
done
[ "$mode" = table ] && exit 0

cost() {
	echo "F. Cost per decision (model): instructions at ratio 100, valgrind callgrind,"
	echo "   -O2 gcc $(gcc -dumpversion), the loop around the decision included"
	echo
	if ! command -v valgrind >/dev/null 2>&1; then
		echo "   (valgrind not installed: skipped)"
		return
	fi
	local g a b
	# instructions of 300000 decisions less those of 100000: the start-up cancels
	ir() {
		valgrind --tool=callgrind --callgrind-out-file=/dev/null "$d/gate_sim" cost "$1" 100 "$2" 2>&1 |
			sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
	}
	for g in dice plain golden gate; do
		a=$(ir $g 100000)
		b=$(ir $g 300000)
		printf '   %-8s %6.2f\n' "$g" "$(echo "($b - $a) / 200000" | bc -l)"
	done
	echo
	echo "   (dice: the v7.3 dice, taus113 % 1024; gate: newidle_gate() from newidle.h)"
}
cost | tee "$d/F-cost.txt"

echo
if command -v gnuplot >/dev/null 2>&1; then
	"$d/gate_sim" timeline 100 300 >"$d/timeline.dat"
	gnuplot <<GP
set terminal pngcairo size 1000,520 font ",10"
set output "$d/timeline.png"
set title "Model: newidle attempts at ratio 100 (expected rate 101/1024), first 300 visits"
set xlabel "visit"
set yrange [-0.5:10]
set ytics ("v7.3 dice" 8.4, "gate" 6.4, "gate, 4 CPUs, offsets all 0" 3.5, "gate, 4 CPUs, spread" 0.4)
set key off
set grid xtics
plot "$d/timeline.dat" using 1:(\$2 > 0 ? 8 : 1/0):(0):(0.8) with vectors nohead lw 2 lc rgb "#c03030", \
     "" using 1:(\$3 > 0 ? 6 : 1/0):(0):(0.8) with vectors nohead lw 2 lc rgb "#3060c0", \
     "" using 1:(\$4 > 0 ? 2.5 : 1/0):(0):(\$4 * 0.6) with vectors nohead lw 2 lc rgb "#c08000", \
     "" using 1:(\$5 > 0 ? 0 : 1/0):(0):(\$5 * 0.6) with vectors nohead lw 2 lc rgb "#208040"
GP
	echo "G. Timeline chart (model): $d/timeline.png"
else
	echo "G. (gnuplot not installed: no chart)"
fi
echo
echo "sim/run.sh took $(( $(date +%s) - t0 ))s"
