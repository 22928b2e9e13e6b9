#!/bin/bash
# A short 'make stress' on the patched kernel, and its negative controls in one
# more boot: a backtrace planted before the dmesg scan (declared expected to the
# console judge) fails the guest's own scan; toggles of a missing feature do not count.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
export STRESS_VARIANTS=patched STRESS_HOTPLUG=40 STRESS_REBUILDS=20 STRESS_TOGGLES=120 STRESS_TIMEOUT=900
log=$OUT/logs/check-stress-short.log
runrc "$log" "$top/lab/tools/stress.sh"
{ grep -E '^(not )?ok |^# achieved' "$log" || true; } | sed 's/^/# guest: /'
t_check "short stress on the patched kernel passes ($STRESS_HOTPLUG hotplug cycles, $STRESS_REBUILDS rebuilds, $STRESS_TOGGLES toggles)" test "$rc" = 0
t_check "its toggles were read back" grep -q '^ok [0-9]* - feature toggles (NI_RANDOM NI_RATE): [1-9][0-9]* of [1-9][0-9]* writes read back' "$log"
t_check "its console was judged clean" grep -q 'judge: clean' "$log"

STRESS_INJECT=1 STRESS_TOGGLE_FEATURES="NI_RANDOM NI_NOSUCH" STRESS_HOTPLUG=2 STRESS_REBUILDS=2 STRESS_TOGGLES=12 \
	runrc "$log.neg" "$top/lab/tools/stress.sh"
{ grep -E '^(not )?ok |^# achieved|judge:' "$log.neg" || true; } | sed 's/^/# negative: /'
t_check "negative control: the run fails" test "$rc" != 0
t_check "negative control: the guest's dmesg scan counts the planted splat" grep -q '^not ok [0-9]* - [0-9]* splat lines in dmesg' "$log.neg"
t_check "negative control: the console judge names it as the expected one" grep -q 'expected splat(s) (matching /NMI backtrace for cpu/)' "$log.neg"
t_check "negative control: toggles of a feature the kernel lacks do not count" \
	grep -q '^not ok [0-9]* - feature toggles (NI_RANDOM NI_NOSUCH): [0-9]* of [0-9]* writes read back' "$log.neg"
t_done
