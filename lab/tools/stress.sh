#!/bin/bash
# 'make stress': lab/guest/stress.sh on debug kernels (KASAN, UBSAN, lockdep),
# each boot judged by lab/steps/judge.sh. A baseline's verdict only attributes
# a splat and fails nothing: v7.3 reads freed domains through its own
# per-domain files (KASAN), which the series' debugfs patch fixes.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
variants=$STRESS_VARIANTS
inject=$STRESS_INJECT
lab_lock
"$LAB_TOP/lab/prepare.sh" apply
mkdir -p "$OUT/run" "$OUT/logs"
lab_settings_dump >"$OUT/logs/stress-settings.txt"
expect=""
[ "$inject" = 1 ] && expect='NMI backtrace for cpu'
rc=0
for v in $variants; do
	"$LAB_TOP/lab/prepare.sh" guest "$v"
	case $v in experiment*) features="NI_RANDOM NI_RATE NI_DICE" ;; *) features="NI_RANDOM NI_RATE" ;; esac
	run=$OUT/run/stress-$v.sh
	cat >"$run" <<SH
#!/bin/sh
export HOTPLUG=$STRESS_HOTPLUG REBUILDS=$STRESS_REBUILDS TOGGLES=$STRESS_TOGGLES
export TOGGLE_FEATURES="${STRESS_TOGGLE_FEATURES:-$features}"
export STRESS_INJECT=$inject
exec /lab/stress.sh
SH
	t0=$(date +%s)
	# debug kernels boot slowly under TCG
	case $v in *debug) start=$STRESS_START_TIMEOUT ;; *) start=$LAB_START_TIMEOUT ;; esac
	if LAB_TIMEOUT=$STRESS_TIMEOUT LAB_START_TIMEOUT=$start LAB_EXPECT=$expect \
		"$LAB_TOP/lab/steps/boot.sh" "$v" "$run" "stress-$v"; then
		say "stress on $v: passed in $(( $(date +%s) - t0 ))s"
	elif [[ $v == baseline* ]]; then
		say "stress on $v: FAILED after $(( $(date +%s) - t0 ))s, on v7.3: a splat here is v7.3's (console: $OUT/logs/stress-$v.console)"
	else say "stress on $v: FAILED after $(( $(date +%s) - t0 ))s (console: $OUT/logs/stress-$v.console)"; rc=1; fi
done
exit $rc
