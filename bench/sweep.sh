#!/bin/bash
# The sweep behind the bench's icount shift and run length: per shift of
# SWEEP_SHIFTS and length of SWEEP_SECONDS, one boot of BENCH_VARIANT under
# BENCH_PRESET, SWEEP_RUNS rounds of each workload A/B/A (NI_GATE); each
# condition's mean and CV, and the wall time per guest second. One boot a
# point: the CVs, of one trajectory's runs, guide the length; no interval.
# Usage: bench/sweep.sh            (results: out/bench/sweep-DATE/sweep.txt)
set -euo pipefail
. "$(dirname "$0")/../lab/lib.sh"
. "$LAB_TOP/bench/lib.sh"
bench_preset "$BENCH_PRESET"
variant=$BENCH_VARIANT
shifts=$SWEEP_SHIFTS lens=$SWEEP_SECONDS runs=$SWEEP_RUNS
/usr/bin/python3 -c "import scipy" 2>/dev/null || die "python3-scipy is missing (make deps)"
lab_lock
"$LAB_TOP/lab/prepare.sh" guest "$variant"
dir=$BENCH_OUT/sweep-$(date +%Y%m%d-%H%M%S)
mkdir -p "$dir"
echo "shift,seconds,runs,wall_s,guest_s" >"$dir/wall.csv"
for sh in $shifts; do
	for len in $lens; do
		bench_guest_script "$dir/guest-$sh-$len.sh" 1 sweep "$BENCH_FEATURES" "$BENCH_WORKLOADS" 0 0 \
			"-k $runs -s $len -x 1 -i 250 -u 1" NI_GATE
		say "sweep: shift $sh, $runs x 3 runs of $len s"
		t0=$(date +%s)
		LAB_ACCEL=icount LAB_ICOUNT_SHIFT=$sh LAB_TIMEOUT=$BENCH_TIMEOUT \
			"$LAB_TOP/lab/steps/boot.sh" "$variant" "$dir/guest-$sh-$len.sh" "sweep-$sh-$len" \
			>"$dir/console-$sh-$len.txt" 2>&1 || { tail -20 "$dir/console-$sh-$len.txt" >&2; die "sweep boot (shift $sh, $len s) failed"; }
		wall=$(( $(date +%s) - t0 ))
		echo "$sh,$len,$runs,$wall,$(( (runs + 1) * 3 * len * $(echo $BENCH_WORKLOADS | wc -w) ))" >>"$dir/wall.csv"
		{ echo "workload,condition,run,metric,value,boot"; "$LAB_TOP/bench/collect.sh" "$dir/console-$sh-$len.txt"; } |
			sed 's/,NI_GATE:/,/' >"$dir/aba-$sh-$len.csv"
		"$LAB_TOP/bench/stats.py" "$dir/aba-$sh-$len.csv" --title "shift $sh, $len s" --label A=NI_GATE \
			--label B=NO_NI_GATE --label A2="NI_GATE again" --json "$dir/report-$sh-$len.json" >"$dir/report-$sh-$len.txt"
		say "sweep: shift $sh, $len s: $wall s wall (boot included)"
	done
done
python3 - "$dir" <<'PY' | tee "$dir/sweep.txt"
import csv, json, sys
d = sys.argv[1]
print("icount sweep: A/B/A on one boot; CV per condition (A, B, A2), %;")
print("wall/g: the boot's wall seconds per guest second measured (boot included)")
main = ["completions_per_s", "steady_per_s", "transient_per_s", "seconds", "bogo_ops_per_s",
        "usecs_per_op", "mb_per_s"]
print("%5s %4s %5s %7s %6s  %-10s %-18s %-20s %s" % ("shift", "s", "runs", "wall_s", "wall/g",
      "workload", "metric", "CV A B A2", "mean A B A2"))
for w in csv.DictReader(open(d + "/wall.csv")):
    rows = json.load(open("%s/report-%s-%s.json" % (d, w["shift"], w["seconds"])))["conditions"]
    for wl in dict.fromkeys(r["workload"] for r in rows):
        for m in main:
            rs = [r for r in rows if r["workload"] == wl and r["metric"] == m]
            if not rs:
                continue
            print("%5s %4s %5s %7s %6.2f  %-10s %-18s %-20s %s" % (w["shift"], w["seconds"], w["runs"],
                  w["wall_s"], float(w["wall_s"]) / float(w["guest_s"]), wl, m,
                  " ".join("%.2f" % r["cv_pct"] for r in rs), " ".join("%.6g" % r["mean"] for r in rs)))
PY
say "results: $dir/sweep.txt"
