#!/bin/bash
# The measured sweep behind the bench's defaults: for each icount shift of
# SWEEP_SHIFTS and each run length of SWEEP_SECONDS, one boot of VARIANT
# (patched) running each workload of SWEEP_WORKLOADS A/B/A (NI_RANDOM /
# NO_NI_RANDOM) SWEEP_RUNS runs; per shift, length and workload, each
# condition's mean and CV (futex: steady and transient apart), and the
# host's wall time per guest second.
# Usage: bench/sweep.sh            (results: out/bench/sweep-DATE/sweep.txt)
#        LAB_KERNEL=bzImage bench/sweep.sh: that kernel, VARIANT's initramfs
# Settings: SWEEP_SHIFTS="2 3 4" SWEEP_SECONDS="2 3" SWEEP_RUNS=5
#           SWEEP_WORKLOADS=futex8, and
#           bench/run.sh's BENCH_THREADS, BENCH_WAKE, BENCH_INTERVAL,
#           BENCH_WARMUP (1 s; a length must be longer), BENCH_REBUILD
set -euo pipefail
. "$(dirname "$0")/../lab/lib.sh"
variant=${VARIANT:-patched}
shifts=${SWEEP_SHIFTS:-2 3 4} lens=${SWEEP_SECONDS:-2 3} runs=${SWEEP_RUNS:-5}
workloads=${SWEEP_WORKLOADS:-futex8}
threads=${BENCH_THREADS:-8} wake=${BENCH_WAKE:-4} iv=${BENCH_INTERVAL:-250} warm=${BENCH_WARMUP:-1}
need python3
lab_lock
# LAB_KERNEL=bzImage: that kernel, with VARIANT's guest files as they are
[ -n "${LAB_KERNEL:-}" ] || "$LAB_TOP/lab/prepare.sh" guest "$variant"
dir=${BENCH_OUT:-$OUT/bench}/sweep-$(date +%Y%m%d-%H%M%S)
mkdir -p "$dir"
echo "shift,seconds,runs,wall_s,guest_s" >"$dir/wall.csv"
for sh in $shifts; do
	for len in $lens; do
		{
			echo '#!/bin/sh'
			for wl in $workloads; do
				echo "echo BENCH-CSV-BEGIN"
				echo "aba.sh -w $wl -k $runs -s $len -t $threads -W $wake -i $iv -u $warm$([ "${BENCH_REBUILD:-1}" = 0 ] || echo " -D") || echo BENCH-FAILED $wl"
				echo "echo BENCH-CSV-END"
			done
		} >"$dir/guest-$sh-$len.sh"
		say "sweep: shift $sh, $runs x 3 runs of $len s"
		t0=$(date +%s)
		LAB_ACCEL=icount LAB_ICOUNT_SHIFT=$sh LAB_TIMEOUT=${LAB_TIMEOUT:-1800} \
			"$LAB_TOP/lab/boot.sh" "$variant" "$dir/guest-$sh-$len.sh" "sweep-$sh-$len" \
			>"$dir/console-$sh-$len.txt" 2>&1 || { tail -20 "$dir/console-$sh-$len.txt" >&2; die "sweep boot (shift $sh, $len s) failed"; }
		wall=$(( $(date +%s) - t0 ))
		echo "$sh,$len,$runs,$wall,$((runs * 3 * len * $(echo $workloads | wc -w)))" >>"$dir/wall.csv"
		{ echo "workload,condition,run,metric,value"; "$LAB_TOP/bench/collect.sh" "$dir/console-$sh-$len.txt"; } >"$dir/aba-$sh-$len.csv"
		BENCH_CV_MAX=0 REPORT_JSON=$dir/report-$sh-$len.json "$LAB_TOP/bench/report.sh" "$dir/aba-$sh-$len.csv" \
			"shift $sh, $len s" NI_RANDOM NO_NI_RANDOM >"$dir/report-$sh-$len.txt"
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
    rows = json.load(open("%s/report-%s-%s.json" % (d, w["shift"], w["seconds"])))["rows"]
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
