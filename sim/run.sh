#!/bin/bash
# 'make sim': the gate model built against the patched tree's kernel/sched/newidle.h
# (SIM_NEWIDLE_H: another, a gate not yet in out/linux): its tables A-D, each also
# in out/sim/<letter>-<name>.txt for sim/cover-table.sh, the cost per decision (E,
# callgrind) and a timeline chart (F, out/sim/timeline.png).
# Usage: sim/run.sh [all|table|check|build]. table: A-D only; check ('make check'):
# the claims and their negative controls as TAP, in under a minute; build: only
# build it (the outbox's check that the model still builds against the tree).
set -euo pipefail
. "$(dirname "$0")/../lab/lib.sh"
mode=${1:-all}
case $mode in
table|check|build|all) ;;
*) die "usage: sim/run.sh [table|check|build|all]" ;;
esac
hdr=${SIM_NEWIDLE_H:-$LINUX/kernel/sched/newidle.h}
[ -f "$hdr" ] || die "no $hdr: the series is not applied (run 'make apply')"
need gcc
d=$OUT/sim
mkdir -p "$d"
lab_settings_dump >"$d/settings.txt"
# the lock-on's negative control: the tree's gate renamed, its places from
# a multiply alone (hash_32()'s golden ratio), which follow the band
sed 's/newidle_/golden_/g; s/NEWIDLE_/GOLDEN_/g; s/sd->golden_/sd->newidle_/g' "$hdr" |
	awk '/^static inline u32 golden_gate_place\(/ { print; getline; print; print "\treturn band * 0x61c88647 >> 22;"; skip = 1; next }
		skip && /^}/ { skip = 0 } !skip' >"$d/golden.h"
grep -q 'return band \* 0x61c88647' "$d/golden.h" || die "$hdr has no newidle_gate_place() to replace"
# lab/host/include and tools/include have the kernel's types, hash.h, jhash.h and math.h
gcc -O2 -g -Wall -Wextra -Werror -I"$LAB_TOP/lab/host/include" -I"$LINUX/tools/include" \
	-DNEWIDLE_H="\"$hdr\"" -DGOLDEN_H="\"$d/golden.h\"" \
	-o "$d/gate_sim" "$LAB_TOP"/sim/*.c -lm

case $mode in
check) exec "$d/gate_sim" check ;;
build) exit 0 ;;
esac

t0=$(date +%s)
echo "Gate model (sim/*.c, built against $hdr):"
echo "$(uname -m), $(nproc) CPUs, one worker per CPU; userspace: every table is a model, no kernel runs"
echo
for t in A-lockon B-estimator C-count D-lockstep; do
	"$d/gate_sim" table "${t%%-*}" | tee "$d/$t.txt"
done
[ "$mode" = table ] && exit 0

cost() {
	echo "E. Cost per decision (model): instructions at ratio 100, valgrind callgrind,"
	echo "   -O2 gcc $(gcc -dumpversion), the loop around the decision included"
	echo
	command -v valgrind >/dev/null 2>&1 || { echo "   (valgrind not installed: skipped)"; return; }
	local g a b
	# instructions of 300000 decisions less those of 100000: the start-up cancels
	ir() {
		valgrind --tool=callgrind --callgrind-out-file=/dev/null "$d/gate_sim" cost "$1" 100 "$2" 2>&1 |
			sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
	}
	for g in dice plain gate; do
		a=$(ir $g 100000)
		b=$(ir $g 300000)
		printf '   %-8s %6.2f\n' "$g" "$(echo "($b - $a) / 200000" | bc -l)"
	done
	echo
	echo "   (dice: v7.3's, taus113 % 1024; plain: one add and compare; gate: newidle_gate())"
}
cost | tee "$d/E-cost.txt"

echo
if command -v gnuplot >/dev/null 2>&1; then
	"$d/gate_sim" timeline 100 300 >"$d/timeline.dat"
	gnuplot <<GP
set terminal pngcairo size 1000,420 font ",10"
set output "$d/timeline.png"
set title "Model: newidle attempts at ratio 100 (expected rate 101/1024), first 300 visits"
set xlabel "visit"
set yrange [-0.5:8]
set ytics ("v7.3 dice" 6.4, "gate, CPU 0" 4.4, "gate, CPUs 0-3" 0.8)
set key off
set grid xtics
plot "$d/timeline.dat" using 1:(\$2 > 0 ? 6 : 1/0):(0):(0.8) with vectors nohead lw 2 lc rgb "#c03030", \
     "" using 1:(\$3 > 0 ? 4 : 1/0):(0):(0.8) with vectors nohead lw 2 lc rgb "#3060c0", \
     "" using 1:(\$4 > 0 ? 0 : 1/0):(0):(\$4 * 0.6) with vectors nohead lw 2 lc rgb "#208040"
GP
	echo "F. Timeline chart (model): $d/timeline.png"
else
	echo "F. (gnuplot not installed: no chart)"
fi
echo
echo "sim/run.sh took $(( $(date +%s) - t0 ))s"
