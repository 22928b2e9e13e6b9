#!/bin/bash
# 'make bench-kernels': kernels compared across boots, in the emulated
# guest, under one preset (bench/presets/PRESET.conf; BENCH_PRESET=ni4).
# Each round boots every kernel of BENCH_KERNELS once, in an order drawn
# from the run's seed; each boot sets the preset's features and the
# kernel's, waits a delay drawn from the seed, runs BENCH_WARMUP_RUNS
# warm-up runs of each workload (not samples: the first run after a boot
# moves by 2x), then BENCH_RUNS runs, the workloads in an order and with
# the workers' first CPU drawn from the seed. Every boot's script does the
# same work around its runs, checked before the first boot. bench/stats.py
# then compares the kernels over boots (each boot one sample: under icount
# a boot replays one trajectory), with the positive control (the series
# with NO_NI_RANDOM against it) and the regime from the telemetry.
# Kernels (bench/lib.sh): v7.3, fix1 (v7.3 + the series' first patch), gate
# (the series), dice (the series, NO_NI_GATE), norandom (the series,
# NO_NI_RANDOM; the positive control).
# Settings: BENCH_PRESET=ni4, the preset's (BENCH_BOOTS rounds, ...),
#   BENCH_KERNELS="v7.3 fix1 gate dice norandom", BENCH_SEED (a new one each
#   run; given, the run's boots are drawn again the same),
#   BENCH_PLAN_ONLY=1 (write and check the boots' scripts, print the plan,
#   boot nothing), BENCH_OUT=out/bench, BENCH_PLANT_KERNEL and BENCH_PLANT
#   (tests: a command in that kernel's scripts only, which must be refused)
set -euo pipefail
. "$(dirname "$0")/../lab/lib.sh"
. "$LAB_TOP/bench/lib.sh"
bench_preset "$BENCH_PRESET"
kernels=$BENCH_KERNELS
seed=${BENCH_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
for k in $kernels; do bench_kernel "$k" >/dev/null; done
for n in "$BENCH_BOOTS" "$BENCH_RUNS" "$BENCH_SECONDS"; do
	case $n in ''|*[!0-9]*|0) die "BENCH_BOOTS, BENCH_RUNS and BENCH_SECONDS take positive numbers" ;; esac
done
LAB_ACCEL=$(bench_accel)
LAB_ICOUNT_SHIFT=$LAB_ICOUNT_SHIFT
export LAB_ACCEL LAB_ICOUNT_SHIFT
/usr/bin/python3 -c "import scipy" 2>/dev/null || die "python3-scipy is missing (make deps)"
args="-k $BENCH_RUNS -s $BENCH_SECONDS -x $BENCH_WARMUP_RUNS -i 250 -u $((BENCH_SECONDS > 1)) -S"
[ "$BENCH_REBUILD" = 0 ] || args="$args -D"

top=$BENCH_OUT
dir=$top/$(date +%Y%m%d-%H%M%S)-$BENCH_PRESET-kernels
mkdir -p "$dir"
# the plan: a line per boot, BOOT KERNEL, and each boot's script
: >"$dir/plan.txt"
boot=0
for round in $(seq 1 "$BENCH_BOOTS"); do
	for k in $(bench_shuffle "$seed round $round" $kernels); do
		boot=$((boot + 1))
		read -r variant feature <<<"$(bench_kernel "$k")"
		features=$BENCH_FEATURES
		[ "$feature" = - ] || features="$features $feature"
		plant=""
		[ "$k" != "${BENCH_PLANT_KERNEL:-}" ] || plant=${BENCH_PLANT:-}
		BENCH_PLANT=$plant bench_guest_script "$dir/guest-$boot.sh" "$k" "$(echo $features)" \
			"$(bench_shuffle "$seed boot $boot" $BENCH_WORKLOADS)" \
			"$(bench_seeded 500000 "$seed delay $boot")" "$(bench_seeded "$BENCH_CPUS" "$seed cpu $boot")" \
			"$args" -c "$boot"
		echo "$boot $k $variant" >>"$dir/plan.txt"
	done
done
# shellcheck disable=SC2046
bench_same_work $(ls "$dir"/guest-*.sh | sort -V) ||
	die "the boots would not do the same work around their runs (above): nothing booted"
{
	echo "# bench-kernels $(date -u +%Y-%m-%dT%H:%M:%SZ), seed $seed"
	echo "BENCH_PRESET=$BENCH_PRESET  # $PRESET_DOC"
	for v in BENCH_CPUS BENCH_SOCKETS BENCH_THREADS BENCH_FEATURES BENCH_WORKLOADS BENCH_SECONDS \
		BENCH_RUNS BENCH_WARMUP_RUNS BENCH_BOOTS BENCH_REBUILD LAB_ACCEL LAB_ICOUNT_SHIFT; do
		echo "$v=${!v:-}"
	done
	echo "BENCH_KERNELS=$kernels"
	echo "BENCH_SEED=$seed"
	echo "aba.sh $args"
	lab_settings_dump
} >"$dir/settings.txt"
if [ -n "${BENCH_PLAN_ONLY:-}" ]; then
	cat "$dir/plan.txt"
	say "plan only: $boot boots, scripts in $dir"
	exit 0
fi

lab_lock
for v in $(for k in $kernels; do bench_kernel "$k" | cut -d' ' -f1; done | sort -u); do
	"$LAB_TOP/lab/prepare.sh" guest "$v"
done
echo "workload,condition,run,metric,value,boot" >"$dir/aba.csv"
start=$(date +%s)
while read -r b k variant; do
	say "kernels: boot $b of $boot: $(bench_label "$k") ($(( $(date +%s) - start )) s so far)"
	LAB_TIMEOUT=$BENCH_TIMEOUT "$LAB_TOP/lab/steps/boot.sh" "$variant" "$dir/guest-$b.sh" "bench-$b" \
		</dev/null >"$dir/console-$b.txt" 2>&1 || { tail -30 "$dir/console-$b.txt" >&2; die "boot $b ($k) failed"; }
	"$LAB_TOP/bench/collect.sh" "$dir/console-$b.txt" >>"$dir/aba.csv" || die "no measurements from boot $b ($k)"
done <"$dir/plan.txt"
# the harness every boot ran must be the same
[ "$(grep -h '^# harness ' "$dir"/console-*.txt | sort -u | wc -l)" = 1 ] ||
	die "the boots ran different harnesses: $(grep -h '^# harness ' "$dir"/console-*.txt | sort | uniq -c | tr '\n' ';')"

labels=() compares=()
for k in $kernels; do labels+=(--label "$k=$(bench_label "$k")"); done
for k in fix1 gate dice; do
	case " $kernels " in *" $k "*) compares+=(--compare "$k,v7.3") ;; esac
	case " $kernels " in *" $k "*" fix1 "*|*" fix1 "*" $k "*) compares+=(--compare "$k,fix1") ;; esac
done
case " $kernels " in *" norandom "*" gate "*|*" gate "*" norandom "*)
	compares+=(--compare "norandom,gate" --control norandom) ;;
esac
rc=0
{
	bench_machine
	echo "Preset $BENCH_PRESET: $PRESET_DOC"
	echo "Kernels: $(for k in $kernels; do printf '%s; ' "$(bench_label "$k")"; done)$BENCH_BOOTS boots each, in rounds, seed $seed"
	echo "Runs: per boot and workload $BENCH_RUNS of $BENCH_SECONDS s after $BENCH_WARMUP_RUNS warm-up; features $BENCH_FEATURES;" \
		"$(( $(date +%s) - start )) s in all"
	echo
	"$LAB_TOP/bench/stats.py" "$dir/aba.csv" --title "Kernels across boots (emulated)" \
		"${labels[@]}" "${compares[@]}" --json "$dir/report.json" || rc=$?
} >"$dir/report.txt.new"
mv "$dir/report.txt.new" "$dir/report.txt"
cat "$dir/report.txt"
ln -sfn "$dir" "$top/latest-kernels"
say "results: $dir (settings.txt, plan.txt, aba.csv, report.txt, report.json)"
[ "$rc" = 0 ] || [ "$rc" = 5 ] || die "the report failed (exit $rc)"
exit "$rc"
