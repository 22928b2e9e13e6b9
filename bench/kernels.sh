#!/bin/bash
# 'make bench-kernels': kernels A/B/A across boots. Each kernel K of
# BENCH_KERNELS is booted between two boots of the baseline (v7.3, the
# dice), which it shares with its neighbours:
#   baseline, K1, baseline, K2, baseline, ...
# and is compared with the mean of its two baselines. Each boot runs
# BENCH_RUNS runs of each workload (the default features); futex reports
# the transient (the first BENCH_INTERVAL ms of each run, right after the
# boot or a domain rebuild) apart from the steady state (after
# BENCH_WARMUP s). Kernels: dicefix (v7.3 + the series' first patch),
# plain (the series with bench/plain-gate.patch), patched (the series),
# patched+NO_NI_RANDOM (the series with NO_NI_RANDOM), baseline.
# Settings as bench/run.sh, and BENCH_KERNELS; BENCH_PLAN_ONLY=1 prints the
# boots (VARIANT FEATURE CONDITION) and the comparisons, and runs nothing.
set -euo pipefail
. "$(dirname "$0")/../lab/lib.sh"
# 8 runs per boot: one condition per boot makes runs cheap, and with 5 the
# transient's CV of one boot came out at 2.00 % (the limit)
runs=${BENCH_RUNS:-8} secs=${BENCH_SECONDS:-2} threads=${BENCH_THREADS:-8} wake=${BENCH_WAKE:-4}
iv=${BENCH_INTERVAL:-250} warm=${BENCH_WARMUP:-1}
workloads=${BENCH_WORKLOADS:-futex8 futex815}
kernels=${BENCH_KERNELS:-dicefix plain patched patched+NO_NI_RANDOM}
LAB_ACCEL=$(bench_accel)
LAB_ICOUNT_SHIFT=${LAB_ICOUNT_SHIFT:-3}	# bench/sweep.sh: CV <= 1.4 % at 2 s runs
export LAB_ACCEL LAB_ICOUNT_SHIFT
need python3
opts="-k $runs -s $secs -t $threads -W $wake -i $iv -u $warm"
[ "${BENCH_REBUILD:-1}" = 0 ] || opts="$opts -D"
[ "${BENCH_SCHEDSTAT:-1}" = 0 ] || opts="$opts -S"

# kernel K (VARIANT or VARIANT+FEATURE): its variant, feature and condition
kvariant() { echo "${1%%+*}"; }
kfeature() { case $1 in *+*) echo "${1#*+}" ;; esac; }
kcond() { echo "$1" | tr '+' '_'; }
label() {
	case $1 in
	baseline*) echo "v7.3 dice #${1#baseline}" ;;
	dicefix) echo "v7.3 + off-by-one fix" ;;
	plain) echo "plain accumulator" ;;
	patched) echo "the series (gate)" ;;
	*) echo "$1" | sed 's/_/ + /' ;;
	esac
}
# the boots, in order: VARIANT FEATURE CONDITION
n=1
plan="baseline - baseline1"
compare=()
for k in $kernels; do
	plan="$plan
$(kvariant "$k") $(kfeature "$k" | grep . || echo -) $(kcond "$k")
baseline - baseline$((n + 1))"
	compare+=(--compare "$(kcond "$k"):baseline$n,baseline$((n + 1))")
	n=$((n + 1))
done
if [ -n "${BENCH_PLAN_ONLY:-}" ]; then
	# the boots and comparisons, and nothing run (tests/bench_test.sh)
	echo "$plan"
	printf '%s\n' "${compare[@]}" | grep -v -- '^--compare$'
	exit 0
fi
for k in $kernels; do variant_src "$(kvariant "$k")" >/dev/null; done
lab_lock
top=${BENCH_OUT:-$OUT/bench}
dir=$top/$(date +%Y%m%d-%H%M%S)-kernels
mkdir -p "$dir"
for v in baseline $(for k in $kernels; do kvariant "$k"; done | sort -u); do
	"$LAB_TOP/lab/prepare.sh" guest "$v"
done

echo "workload,condition,run,metric,value" >"$dir/aba.csv"
start=$(date +%s)
i=0
while read -r v feat cond; do
	i=$((i + 1))
	{
		echo '#!/bin/sh'
		[ "$feat" = - ] || echo "echo $feat >/sys/kernel/debug/sched/features"
		echo 'echo "# features: $(cat /sys/kernel/debug/sched/features)"'
		for wl in $workloads; do
			echo "echo BENCH-CSV-BEGIN"
			echo "aba.sh -w $wl $opts -c $cond || echo BENCH-FAILED $wl"
			echo "echo BENCH-CSV-END"
		done
	} >"$dir/guest-$cond.sh"
	say "kernels: boot $i of $(echo "$plan" | wc -l): $v$([ "$feat" = - ] || echo " + $feat") as $cond ($(( $(date +%s) - start )) s so far)"
	LAB_TIMEOUT=${LAB_TIMEOUT:-1800} "$LAB_TOP/lab/boot.sh" "$v" "$dir/guest-$cond.sh" "bench-$cond" \
		</dev/null >"$dir/console-$cond.txt" 2>&1 || { tail -30 "$dir/console-$cond.txt" >&2; die "boot of $v ($cond) failed"; }
	"$LAB_TOP/bench/collect.sh" "$dir/console-$cond.txt" </dev/null >>"$dir/aba.csv" ||
		die "no measurements from the $v boot ($cond, above)"
done <<<"$plan"

labels=()
for c in $(echo "$plan" | awk '{ print $3 }'); do labels+=(--label "$c=$(label "$c")"); done
rc=0
{
	bench_machine
	echo "Kernels: $(echo "$plan" | awk '{ printf "%s%s", (NR > 1 ? ", " : ""), $3 }'), one boot each, in this order"
	echo "Runs: $runs per boot; $secs s each (futex: transient = first ${iv} ms, steady = after ${warm} s)$([ "${BENCH_REBUILD:-1}" = 0 ] || echo "; domains rebuilt before each run");" \
		"futex8: 8 workers waking 4, futex815: 815 waking 101; each kernel against the mean of the baseline boots before and after it;" \
		"$(( $(date +%s) - start )) s in all"
	echo
	python3 "$LAB_TOP/bench/stats.py" "$dir/aba.csv" --title "Kernels A/B/A across boots" \
		"${labels[@]}" "${compare[@]}" --json "$dir/report.json" --csv "$dir/report.csv" \
		--png "$dir/report.png" || rc=$?
} >"$dir/report.txt.new"
[ -f "$dir/report.json" ] || die "the report failed (exit $rc): $dir/report.txt.new"
mv "$dir/report.txt.new" "$dir/report.txt"
cat "$dir/report.txt"
say "results: $dir (aba.csv, report.txt, report.csv, report.json, report.png)"
[ "$rc" = 0 ] || die "a condition's CV is over BENCH_CV_MAX=${BENCH_CV_MAX:-2}% (above; exit $rc)"
