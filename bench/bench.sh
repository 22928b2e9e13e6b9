#!/bin/bash
# The bench's runner in the emulated guest, under BENCH_PRESET's line of bench/presets:
#   features (make bench): BENCH_BOOTS boots of BENCH_VARIANT, each running
#       every workload A/B/A for each feature of BENCH_PAIRS
#   kernels (make bench-kernels): BENCH_BOOTS rounds of a boot of each kernel
#       of BENCH_KERNELS, in an order drawn from the seed: a drift of the host
#       spreads over every kernel
#   compare A B (make compare A=RUN B=RUN): two stored runs
# Under icount two boots of one kernel replay one trajectory: a delay, the
# workloads' order and the first CPU drawn from the seed make each boot a
# sample. Warm-up rounds go first (a boot's first run moves by 2x); every
# boot does the same work around its runs, so the kernel alone differs.
# BENCH_PLAN_ONLY=1 writes and checks the scripts and the plan, boots nothing.
set -euo pipefail
. "$(dirname "$0")/../lab/lib.sh"
. "$LAB_TOP/bench/lib.sh"

# what two runs must share to be compared: what each measures, and how
SAME="BENCH_PRESET LAB_ACCEL LAB_ICOUNT_SHIFT BENCH_CPUS BENCH_SOCKETS BENCH_THREADS BENCH_FEATURES
	BENCH_WORKLOADS BENCH_SECONDS BENCH_WARMUP_RUNS BENCH_REBUILD"
# compare RUN RUN (BENCH_OUT/NAME or a path): each condition of the second
# against the first's, as MMTests' compare-kernels does; 7 if SAME differs
compare() {
	local a b k va vb bad="" opts=() c runs=()
	[ $# = 2 ] && [ -n "$1" ] && [ -n "$2" ] ||
		{ echo "usage: make compare A=RUN B=RUN (RUN: a directory of $BENCH_OUT, or a path)" >&2; exit 2; }
	for c in "$@"; do
		[ -d "$c" ] || c=$BENCH_OUT/$c
		[ -f "$c/settings.txt" ] && [ -f "$c/aba.csv" ] || die "no stored run $c (settings.txt and aba.csv)"
		runs+=("$(cd "$c" && pwd -P)")
	done
	a=${runs[0]} b=${runs[1]}
	for k in $SAME; do
		va=$(sed -n "s/^$k=//p" "$a/settings.txt") vb=$(sed -n "s/^$k=//p" "$b/settings.txt")
		[ "$va" = "$vb" ] || bad="$bad, $k '$va' against '$vb'"
	done
	[ -z "$bad" ] || { say "error: ${a##*/} and ${b##*/} differ where it matters:${bad#,}; not compared"; exit 7; }
	for c in $(comm -12 <(tail -n +2 "$a/aba.csv" | cut -d, -f2 | sort -u) <(tail -n +2 "$b/aba.csv" | cut -d, -f2 | sort -u)); do
		opts+=(--compare "B/$c,A/$c" --label "A/$c=A: $c" --label "B/$c=B: $c")
	done
	[ ${#opts[@]} -gt 0 ] || die "${a##*/} and ${b##*/} have no condition in common"
	printf 'A: %s\nB: %s\n' "$a" "$b"
	tmp=$(mktemp) && trap 'rm -f "$tmp"' EXIT	# global: the EXIT trap reads it
	# the conditions named by their run, the second run's boots after the first's
	awk -F, -v OFS=, 'FNR == 1 { f++; if (f == 1) print; next }
		f == 1 { n = $6 > n ? $6 : n; $2 = "A/" $2; print } f == 2 { $2 = "B/" $2; $6 += n; print }' \
		"$a/aba.csv" "$b/aba.csv" >"$tmp"
	"$LAB_TOP/bench/stats.py" "$tmp" --title "B against A, condition by condition" "${opts[@]}"
}

mode=${1:-}
case $mode in
features|kernels) ;;
compare) shift; compare "$@"; exit ;;
*) echo "usage: bench/bench.sh features|kernels|compare RUN RUN" >&2; exit 2 ;;
esac
bench_preset "$BENCH_PRESET"
for n in "$BENCH_BOOTS" "$BENCH_RUNS" "$BENCH_SECONDS"; do
	case $n in ''|*[!0-9]*|0) die "BENCH_BOOTS, BENCH_RUNS and BENCH_SECONDS take positive numbers" ;; esac
done
BENCH_KERNELS=${BENCH_KERNELS:-$(bench_kernels | paste -sd' ')}
for k in $BENCH_KERNELS; do bench_kernel "$k" variant >/dev/null; done
[ "$mode" = kernels ] || [ -n "$BENCH_PAIRS" ] || die "make bench needs a feature in BENCH_PAIRS"
BENCH_SEED=${BENCH_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
LAB_ACCEL=$(bench_accel)
export LAB_ACCEL LAB_ICOUNT_SHIFT
args="-k $BENCH_RUNS -s $BENCH_SECONDS -x $BENCH_WARMUP_RUNS -i 250 -u $((BENCH_SECONDS > 1)) -S"
[ "$BENCH_REBUILD" = 0 ] || args="$args -D"
dir=$BENCH_OUT/$(date +%Y%m%d-%H%M%S)-$BENCH_PRESET-$mode
mkdir -p "$dir"

# the plan, a line per boot (BOOT NAME VARIANT), and each boot's script
: >"$dir/plan.txt"
boot=0
for round in $(seq 1 "$BENCH_BOOTS"); do
	# shellcheck disable=SC2086
	for k in $([ "$mode" = features ] && echo features || bench_shuffle "$BENCH_SEED round $round" $BENCH_KERNELS); do
		boot=$((boot + 1))
		variant=$BENCH_VARIANT features=$BENCH_FEATURES modes=$BENCH_PAIRS
		[ "$mode" = features ] || variant=$(bench_kernel "$k" variant) features="$BENCH_FEATURES $(bench_kernel "$k" features | tr , ' ')" modes=-c
		# shellcheck disable=SC2086
		BENCH_PLANT=$([ "$k" != "${BENCH_PLANT_KERNEL:-}" ] || echo "${BENCH_PLANT:-}") \
			bench_guest_script "$dir/guest-$boot.sh" "$boot" "$k" "$(echo ${features% -})" \
			"$(bench_shuffle "$BENCH_SEED boot $boot" $BENCH_WORKLOADS)" "$(bench_seeded 500000 "$BENCH_SEED delay $boot")" \
			"$(bench_seeded "$BENCH_CPUS" "$BENCH_SEED cpu $boot")" "$args" "$modes"
		echo "$boot $k $variant" >>"$dir/plan.txt"
	done
done
# shellcheck disable=SC2046
bench_same_work $(ls "$dir"/guest-*.sh | sort -V) || die "the boots would not do the same work around their runs (above): nothing booted"
{ echo "# bench/bench.sh $mode; preset $BENCH_PRESET: $PRESET_DOC; aba.sh $args"; lab_settings_dump; } >"$dir/settings.txt"
[ -z "${BENCH_PLAN_ONLY:-}" ] || { cat "$dir/plan.txt"; say "plan only: $boot boots, scripts in $dir"; exit 0; }

/usr/bin/python3 -c 'import scipy' 2>/dev/null || die "python3-scipy is missing (make deps)"
lab_lock
# LAB_KERNEL: a kernel built elsewhere, booted with its variant's guest files
[ -n "${LAB_KERNEL:-}" ] || for v in $(cut -d' ' -f3 "$dir/plan.txt" | sort -u); do "$LAB_TOP/lab/prepare.sh" guest "$v"; done
echo "workload,condition,run,metric,value,boot" >"$dir/aba.csv"
start=$(date +%s)
while read -r b k variant; do
	say "bench: boot $b of $boot, $k on $variant ($(( $(date +%s) - start )) s so far)"
	LAB_TIMEOUT=$BENCH_TIMEOUT "$LAB_TOP/lab/steps/boot.sh" "$variant" "$dir/guest-$b.sh" "bench-$b" \
		</dev/null >"$dir/console-$b.txt" 2>&1 || { tail -30 "$dir/console-$b.txt" >&2; die "boot $b ($k) failed: $dir/console-$b.txt"; }
	"$LAB_TOP/bench/collect.sh" "$dir/console-$b.txt" >>"$dir/aba.csv" || die "no measurements from boot $b ($k)"
done <"$dir/plan.txt"
# the same bench programs in every guest, or the kernels were measured apart
[ "$(grep -h '^# harness ' "$dir"/console-*.txt | sort -u | wc -l)" = 1 ] ||
	die "the boots ran different harnesses: $(grep -h '^# harness ' "$dir"/console-*.txt | sort | uniq -c | tr '\n' ';')"

opts=()
if [ "$mode" = features ]; then
	for f in $BENCH_PAIRS; do opts+=(--label "$f:A=$f (A)" --label "$f:B=NO_$f" --label "$f:A2=$f (A2)"); done
	case " $BENCH_PAIRS " in *" NI_RANDOM "*) opts+=(--control NI_RANDOM:B) ;; esac
	title="Features A/B/A on each boot, intervals over boots (emulated)"
	what="Kernel: $variant, $BENCH_BOOTS boots; rounds of A B A2 for each of $BENCH_PAIRS"
else
	for k in $BENCH_KERNELS; do
		opts+=(--label "$k=$(bench_kernel "$k" label)")
		for a in $(bench_kernel "$k" against | tr , ' '); do
			case " $BENCH_KERNELS " in *" ${a#control:} "*) opts+=(--compare "$k,${a#control:}") ;; *) continue ;; esac
			[ "$a" = "${a#control:}" ] || opts+=(--control "$k")
		done
	done
	title="Kernels across boots (emulated)"
	what="Kernels: $(for k in $BENCH_KERNELS; do printf '%s; ' "$(bench_kernel "$k" label)"; done)$BENCH_BOOTS boots each, in rounds"
fi
rc=0
{
	bench_machine
	echo "Preset $BENCH_PRESET: $PRESET_DOC"
	echo "$what; seed $BENCH_SEED"
	echo "Runs: per boot and workload $BENCH_WARMUP_RUNS warm-up, then $BENCH_RUNS of $BENCH_SECONDS s;" \
		"features $BENCH_FEATURES; $(( $(date +%s) - start )) s in all"
	echo
	"$LAB_TOP/bench/stats.py" "$dir/aba.csv" --title "$title" "${opts[@]}" \
		--json "$dir/report.json" || rc=$?
} >"$dir/report.txt.new"
mv "$dir/report.txt.new" "$dir/report.txt"
cat "$dir/report.txt"
ln -sfn "$dir" "$BENCH_OUT/latest"
say "results: $dir (settings.txt, plan.txt, aba.csv, report.txt, report.json)"
# 5: the positive control was not told apart, a verdict the report states
[ "$rc" = 0 ] || [ "$rc" = 5 ] || die "the report failed (exit $rc)"
exit "$rc"
