#!/bin/bash
# The measured sweep behind the bench's defaults: for each icount shift of
# SWEEP_SHIFTS, one boot of VARIANT (patched) running futex A/B/A
# (NI_RANDOM / NO_NI_RANDOM) SWEEP_RUNS runs of each length of
# SWEEP_SECONDS; per shift and length, each condition's mean and CV
# (steady and transient apart), and the host's wall time per guest second.
# Usage: bench/sweep.sh            (results: out/bench/sweep-DATE/sweep.txt)
#        LAB_KERNEL=bzImage bench/sweep.sh: that kernel, VARIANT's initramfs
# Settings: SWEEP_SHIFTS="2 3 4" SWEEP_SECONDS="2 3" SWEEP_RUNS=5, and
#           bench/run.sh's BENCH_THREADS, BENCH_WAKE, BENCH_INTERVAL,
#           BENCH_WARMUP (1 s; a length must be longer), BENCH_REBUILD
set -euo pipefail
. "$(dirname "$0")/../lab/lib.sh"
variant=${VARIANT:-patched}
shifts=${SWEEP_SHIFTS:-2 3 4} lens=${SWEEP_SECONDS:-2 3} runs=${SWEEP_RUNS:-5}
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
			echo "echo BENCH-CSV-BEGIN"
			echo "aba.sh -w futex -k $runs -s $len -t $threads -W $wake -i $iv -u $warm$([ "${BENCH_REBUILD:-1}" = 0 ] || echo " -D") || echo BENCH-FAILED futex"
			echo "echo BENCH-CSV-END"
		} >"$dir/guest-$sh-$len.sh"
		say "sweep: shift $sh, $runs x 3 runs of $len s"
		t0=$(date +%s)
		LAB_ACCEL=icount LAB_ICOUNT_SHIFT=$sh LAB_TIMEOUT=${LAB_TIMEOUT:-1800} \
			"$LAB_TOP/lab/boot.sh" "$variant" "$dir/guest-$sh-$len.sh" "sweep-$sh-$len" \
			>"$dir/console-$sh-$len.txt" 2>&1 || { tail -20 "$dir/console-$sh-$len.txt" >&2; die "sweep boot (shift $sh, $len s) failed"; }
		wall=$(( $(date +%s) - t0 ))
		echo "$sh,$len,$runs,$wall,$((runs * 3 * len))" >>"$dir/wall.csv"
		{ echo "workload,condition,run,metric,value"; "$LAB_TOP/bench/collect.sh" "$dir/console-$sh-$len.txt"; } >"$dir/aba-$sh-$len.csv"
		BENCH_CV_MAX=0 REPORT_JSON=$dir/report-$sh-$len.json "$LAB_TOP/bench/report.sh" "$dir/aba-$sh-$len.csv" \
			"shift $sh, $len s" NI_RANDOM NO_NI_RANDOM >"$dir/report-$sh-$len.txt"
		say "sweep: shift $sh, $len s: $wall s wall for $((runs * 3 * len)) guest seconds measured"
	done
done
python3 - "$dir" <<'PY' | tee "$dir/sweep.txt"
import csv, json, sys
d = sys.argv[1]
print("icount sweep: futex A/B/A on one boot; CV per condition (A, B, A2), %")
print("%5s %4s %5s %8s %6s  %-20s %-20s %-20s %s" % ("shift", "s", "runs", "wall_s", "wall/g",
      "completions CV", "steady CV", "transient CV", "mean completions/s"))
for w in csv.DictReader(open(d + "/wall.csv")):
    rows = json.load(open("%s/report-%s-%s.json" % (d, w["shift"], w["seconds"])))["rows"]
    cv = lambda m: " ".join("%.2f" % r["cv_pct"] for r in rows if r["metric"] == m) or "-"
    mean = " ".join("%.0f" % r["mean"] for r in rows if r["metric"] == "completions_per_s")
    print("%5s %4s %5s %8s %6.2f  %-20s %-20s %-20s %s" % (w["shift"], w["seconds"], w["runs"], w["wall_s"],
          float(w["wall_s"]) / float(w["guest_s"]), cv("completions_per_s"), cv("steady_per_s"),
          cv("transient_per_s"), mean))
PY
say "results: $dir/sweep.txt"
