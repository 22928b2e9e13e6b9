#!/bin/bash
# A short 'make stress' on the patched kernel (the full run with the debug
# kernels is 'make stress'), and its negative control: with a backtrace
# planted before the dmesg scan the run must fail and name it.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/lib.sh"
. "$top/lab/lib.sh"
export STRESS_VARIANTS=patched STRESS_HOTPLUG=${STRESS_HOTPLUG:-40} STRESS_REBUILDS=${STRESS_REBUILDS:-20}
export STRESS_TOGGLES=${STRESS_TOGGLES:-120} LAB_TIMEOUT=900
log=$OUT/logs/check-stress-short.log
if "$top/lab/stress.sh" >"$log" 2>&1; then rc=0; else rc=$?; fi
grep -E '^(not )?ok |^# achieved' "$log" | sed 's/^\(not \)\{0,1\}ok /# guest: &/'
t_check "short stress on the patched kernel passes ($STRESS_HOTPLUG hotplug cycles, $STRESS_REBUILDS rebuilds, $STRESS_TOGGLES toggles)" test "$rc" = 0
if STRESS_INJECT=1 STRESS_HOTPLUG=2 STRESS_REBUILDS=2 STRESS_TOGGLES=6 "$top/lab/stress.sh" >"$log.neg" 2>&1; then rc=0; else rc=$?; fi
t_check "negative control: a planted backtrace fails the run" test "$rc" != 0
t_check "negative control: the splat is counted" grep -q 'not ok [0-9]* [0-9]* splat lines in dmesg' "$log.neg"
t_done
