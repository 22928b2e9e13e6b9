#!/bin/bash
# The sweep behind the bench's icount shift and run length: per shift of
# SWEEP_SHIFTS and length of SWEEP_SECONDS, one boot of BENCH_VARIANT under
# BENCH_PRESET, SWEEP_RUNS rounds of each workload A/B/A (NI_RANDOM); each
# condition's mean and CV, and the wall time per guest second. One boot a
# point: the CVs, of one trajectory's runs, guide the length; no interval.
# Usage: bench/sweep.sh            (results: out/bench/sweep-DATE/sweep.txt)
set -euo pipefail
. "$(dirname "$0")/../lab/lib.sh"
. "$LAB_TOP/bench/lib.sh"
bench_preset "$BENCH_PRESET"
variant=$BENCH_VARIANT shifts=$SWEEP_SHIFTS lens=$SWEEP_SECONDS runs=$SWEEP_RUNS
/usr/bin/python3 -c "import scipy" 2>/dev/null || die "python3-scipy is missing (make deps)"
lab_lock
"$LAB_TOP/lab/prepare.sh" guest "$variant"
dir=$BENCH_OUT/sweep-$(date +%Y%m%d-%H%M%S)
mkdir -p "$dir"
echo "shift,seconds,runs,wall_s,guest_s" >"$dir/wall.csv"
for sh in $shifts; do
	for len in $lens; do
		bench_guest_script "$dir/guest-$sh-$len.sh" 1 sweep "$BENCH_FEATURES" "$BENCH_WORKLOADS" 0 0 \
			"-k $runs -s $len -x 1 -i 250 -u 1" NI_RANDOM
		say "sweep: shift $sh, $runs x 3 runs of $len s"
		t0=$(date +%s)
		LAB_ACCEL=icount LAB_ICOUNT_SHIFT=$sh LAB_TIMEOUT=$BENCH_TIMEOUT \
			"$LAB_TOP/lab/steps/boot.sh" "$variant" "$dir/guest-$sh-$len.sh" "sweep-$sh-$len" \
			>"$dir/console-$sh-$len.txt" 2>&1 || { tail -20 "$dir/console-$sh-$len.txt" >&2; die "sweep boot (shift $sh, $len s) failed"; }
		wall=$(( $(date +%s) - t0 ))
		echo "$sh,$len,$runs,$wall,$(( (runs + 1) * 3 * len * $(echo $BENCH_WORKLOADS | wc -w) ))" >>"$dir/wall.csv"
		{ echo "workload,condition,run,metric,value,boot"; "$LAB_TOP/bench/collect.sh" "$dir/console-$sh-$len.txt"; } |
			sed 's/,NI_RANDOM:/,/' >"$dir/aba-$sh-$len.csv"
		"$LAB_TOP/bench/stats.py" "$dir/aba-$sh-$len.csv" --title "shift $sh, $len s" --label A=NI_RANDOM \
			--label B=NO_NI_RANDOM --label A2="NI_RANDOM again" --json "$dir/report-$sh-$len.json" \
			--csv "$dir/report-$sh-$len.csv" >"$dir/report-$sh-$len.txt"
		say "sweep: shift $sh, $len s: $wall s wall (boot included)"
	done
done
{
	echo "icount sweep: A/B/A on one boot; CV per condition (A, B, A2), %;"
	echo "wall/g: the boot's wall seconds per guest second measured (boot included)"
	printf '%5s %4s %5s %7s %6s  %-10s %-18s %-20s %s\n' shift s runs wall_s wall/g workload metric "CV A B A2" "mean A B A2"
	# a line per workload and main metric of each point's report (stats.py --csv)
	tail -n +2 "$dir/wall.csv" | while IFS=, read -r sh len r wall g; do
		awk -F, -v p="$sh $len $r $wall $g" 'BEGIN { split(p, w, " ")
				n = split("completions_per_s steady_per_s transient_per_s seconds bogo_ops_per_s usecs_per_op mb_per_s", m, " ") }
			FNR > 1 { if (!($1 in seen)) wls[++nw] = $1; seen[$1] = 1; cv[$1, $2] = cv[$1, $2] sprintf(" %.2f", $12); mn[$1, $2] = mn[$1, $2] " " $7 }
			END { for (i = 1; i <= nw; i++) for (j = 1; j <= n; j++) if ((wls[i], m[j]) in cv)
				printf "%5s %4s %5s %7s %6.2f  %-10s %-18s %-20s %s\n", w[1], w[2], w[3], w[4], w[4] / w[5], wls[i], m[j],
					substr(cv[wls[i], m[j]], 2), substr(mn[wls[i], m[j]], 2) }' "$dir/report-$sh-$len.csv"
	done
} | tee "$dir/sweep.txt"
say "results: $dir/sweep.txt"
