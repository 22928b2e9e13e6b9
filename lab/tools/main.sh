#!/bin/bash
# 'make': build and boot the patched kernel, show its domains and gate, run the tests.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
t0=$(date +%s)
lab_lock
"$LAB_TOP/lab/prepare.sh" guest patched
rc=0
"$LAB_TOP/lab/steps/boot.sh" patched "$LAB_TOP/lab/guest/show.sh" make || rc=$?
log=$OUT/logs/make.console
cat <<SUM

================================ summary ================================
 base     $(git -C "$LINUX" log -1 --format='%h %s' "$BASE_TAG")
 series   $(series_list | grep -c . || true) patches from patches/series, branch 'patched' at $(git -C "$LINUX" rev-parse --short patched)
 kernel   $OUT/build/patched/arch/x86/boot/bzImage
 guest    $LAB_CPUS CPUs, $(grep -c 'domain[0-9]*:' "$log" || true) domains shown, QEMU $LAB_ACCEL
 features $({ grep -E '^  (NO_)?NI_(RANDOM|RATE|GATE)$' "$log" || true; } | tr -d ' ' | tr '\n' ' ')
 tests    $(sed -n 's/^# \([0-9]* passed, [0-9]* failed, [0-9]* skipped\)$/\1/p' "$log" | tail -1)
 verdict  $("$LAB_TOP/lab/steps/judge.sh" "$log" | tail -1 | sed 's/^judge: //' || true)
 console  $log
 time     $(( $(date +%s) - t0 ))s
=========================================================================
SUM
exit $rc
