#!/bin/bash
# 'make stress': the series under a debug kernel (KASAN, UBSAN, lockdep,
# atomic-sleep and preempt checks) while CPUs go offline and online, cpuset
# partitions rebuild the domains, features and sched/verbose toggle and a
# reader walks the per-domain files; then the same run on the baseline kernel,
# so that a splat can be attributed. Every boot is judged by lab/steps/judge.sh
# (any splat on the console fails it) and the guest scans its dmesg. A
# baseline kernel's verdict is printed for that attribution and fails
# nothing: v7.3 reads freed domains through its own per-domain files (KASAN,
# fixed by the series' debugfs patch), which the baseline-debug run shows.
# Settings: STRESS_HOTPLUG=200 STRESS_REBUILDS=100 STRESS_TOGGLES=1000
#           STRESS_TOGGLE_FEATURES="NI_RANDOM NI_RATE NI_GATE"  the features toggled
#           (v7.3, the baseline kernels: "NI_RANDOM NI_RATE")
#           STRESS_VARIANTS="debug baseline-debug"  (make check: "patched", short)
#           STRESS_INJECT=1 plants a backtrace (sysrq-l) before the dmesg scan:
#           the guest's scan must fail; the console judge expects it
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
	# v7.3 has no NI_GATE
	case $v in baseline*) features="NI_RANDOM NI_RATE" ;; *) features="NI_RANDOM NI_RATE NI_GATE" ;; esac
	run=$OUT/run/stress-$v.sh
	cat >"$run" <<SH
#!/bin/sh
export HOTPLUG=$STRESS_HOTPLUG REBUILDS=$STRESS_REBUILDS TOGGLES=$STRESS_TOGGLES
export TOGGLE_FEATURES="${STRESS_TOGGLE_FEATURES:-$features}"
export STRESS_INJECT=$inject
exec /lab/stress.sh
SH
	t0=$(date +%s)
	# the debug kernels boot slowly under TCG
	case $v in *debug) start=$STRESS_START_TIMEOUT ;; *) start=$LAB_START_TIMEOUT ;; esac
	if LAB_TIMEOUT=$STRESS_TIMEOUT LAB_START_TIMEOUT=$start LAB_EXPECT=$expect \
		"$LAB_TOP/lab/steps/boot.sh" "$v" "$run" "stress-$v"; then
		say "stress on $v: passed in $(( $(date +%s) - t0 ))s"
	else
		case $v in
		baseline*) say "stress on $v: FAILED after $(( $(date +%s) - t0 ))s, on v7.3: a splat here is v7.3's (console: $OUT/logs/stress-$v.console)" ;;
		*) say "stress on $v: FAILED after $(( $(date +%s) - t0 ))s (console: $OUT/logs/stress-$v.console)"; rc=1 ;;
		esac
	fi
done
exit $rc
