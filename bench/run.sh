#!/bin/bash
# 'make bench': feature settings compared on the series' bench kernel, in
# the emulated guest, under one preset (bench/presets/PRESET.conf;
# BENCH_PRESET=ni4). Each of BENCH_BOOTS boots sets the preset's features,
# waits a delay drawn from the run's seed, and for each workload (in an
# order drawn from the seed, the workers' first CPU too) runs A/B/A of
# each feature of BENCH_PAIRS: NI_GATE (the gate; B: NO_NI_GATE, the dice
# the series keeps) and NI_RANDOM (the positive control; B: NO_NI_RANDOM),
# after BENCH_WARMUP_RUNS warm-up rounds. bench/stats.py then gives each
# B's delta against its A and A2 with an interval over the boots, and the
# regime from the telemetry.
# Settings: BENCH_PRESET=ni4 and the preset's, BENCH_PAIRS="NI_GATE NI_RANDOM",
#   BENCH_VARIANT=bench-patched (make check's smoke: patched, which has no
#   telemetry: its report shows no regime),
#   BENCH_SEED, BENCH_OUT=out/bench (DIR/DATE-PRESET-features, and
#   DIR/latest), LAB_KERNEL=bzImage (a kernel built elsewhere, booted with
#   bench-patched's guest files)
set -euo pipefail
. "$(dirname "$0")/../lab/lib.sh"
. "$LAB_TOP/bench/lib.sh"
bench_preset "$BENCH_PRESET"
pairs=$BENCH_PAIRS
seed=${BENCH_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
variant=$BENCH_VARIANT
LAB_ACCEL=$(bench_accel)
LAB_ICOUNT_SHIFT=$LAB_ICOUNT_SHIFT
export LAB_ACCEL LAB_ICOUNT_SHIFT
/usr/bin/python3 -c "import scipy" 2>/dev/null || die "python3-scipy is missing (make deps)"
args="-k $BENCH_RUNS -s $BENCH_SECONDS -x $BENCH_WARMUP_RUNS -i 250 -u $((BENCH_SECONDS > 1)) -S"
[ "$BENCH_REBUILD" = 0 ] || args="$args -D"
lab_lock
[ -n "${LAB_KERNEL:-}" ] || "$LAB_TOP/lab/prepare.sh" guest "$variant"
top=$BENCH_OUT
dir=$top/$(date +%Y%m%d-%H%M%S)-$BENCH_PRESET-features
mkdir -p "$dir"
for b in $(seq 1 "$BENCH_BOOTS"); do
	bench_guest_script "$dir/guest-$b.sh" features "$BENCH_FEATURES" \
		"$(bench_shuffle "$seed boot $b" $BENCH_WORKLOADS)" \
		"$(bench_seeded 500000 "$seed delay $b")" "$(bench_seeded "$BENCH_CPUS" "$seed cpu $b")" \
		"$args" "$pairs" "$b"
done
# shellcheck disable=SC2046
bench_same_work $(ls "$dir"/guest-*.sh | sort -V) || die "the boots would not do the same work (above)"
{
	echo "# bench $(date -u +%Y-%m-%dT%H:%M:%SZ), seed $seed"
	echo "BENCH_PRESET=$BENCH_PRESET  # $PRESET_DOC"
	for v in BENCH_CPUS BENCH_SOCKETS BENCH_THREADS BENCH_FEATURES BENCH_WORKLOADS BENCH_SECONDS \
		BENCH_RUNS BENCH_WARMUP_RUNS BENCH_BOOTS BENCH_REBUILD LAB_ACCEL LAB_ICOUNT_SHIFT; do
		echo "$v=${!v:-}"
	done
	echo "BENCH_PAIRS=$pairs"
	echo "BENCH_SEED=$seed"
	echo "aba.sh $args"
	lab_settings_dump
} >"$dir/settings.txt"
say "bench: $BENCH_PRESET, $BENCH_BOOTS boots of $variant under $LAB_ACCEL; A/B/A of $pairs"
echo "workload,condition,run,metric,value,boot" >"$dir/aba.csv"
start=$(date +%s)
for b in $(seq 1 "$BENCH_BOOTS"); do
	say "bench: boot $b of $BENCH_BOOTS ($(( $(date +%s) - start )) s so far)"
	LAB_TIMEOUT=$BENCH_TIMEOUT "$LAB_TOP/lab/steps/boot.sh" "$variant" "$dir/guest-$b.sh" "bench-$b" \
		</dev/null >"$dir/console-$b.txt" 2>&1 || { tail -30 "$dir/console-$b.txt" >&2; die "boot $b failed: $dir/console-$b.txt"; }
	"$LAB_TOP/bench/collect.sh" "$dir/console-$b.txt" >>"$dir/aba.csv" || die "no measurements from boot $b"
done
rc=0
{
	bench_machine
	echo "Preset $BENCH_PRESET: $PRESET_DOC"
	echo "Kernel: $variant ($(bench_label gate), with the lab's telemetry), $BENCH_BOOTS boots, seed $seed"
	echo "Runs: per boot, workload and feature, $BENCH_RUNS rounds of A B A2 of $BENCH_SECONDS s after" \
		"$BENCH_WARMUP_RUNS warm-up round; features $BENCH_FEATURES; $(( $(date +%s) - start )) s in all"
	echo
	opts=()
	for f in $pairs; do opts+=(--label "$f:A=$f (A)" --label "$f:B=NO_$f" --label "$f:A2=$f (A2)"); done
	case " $pairs " in *" NI_RANDOM "*) opts+=(--control NI_RANDOM:B) ;; esac
	"$LAB_TOP/bench/stats.py" "$dir/aba.csv" --title "Features A/B/A on each boot, intervals over boots (emulated)" \
		"${opts[@]}" --json "$dir/report.json" || rc=$?
} >"$dir/report.txt.new"
mv "$dir/report.txt.new" "$dir/report.txt"
cat "$dir/report.txt"
ln -sfn "$dir" "$top/latest"
say "results: $dir (settings.txt, aba.csv, report.txt, report.json)"
[ "$rc" = 0 ] || [ "$rc" = 5 ] || die "the report failed (exit $rc)"
exit "$rc"
