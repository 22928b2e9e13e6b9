#!/bin/bash
# 'make': fetch v7.3, apply the series, build and boot the patched kernel,
# show its sched domains and newidle gate, toggle NI_RANDOM, run the tests.
set -eu
. "$(dirname "$0")/lib.sh"
t0=$(date +%s)
"$LAB_TOP/lab/deps.sh"
"$LAB_TOP/lab/fetch.sh"
"$LAB_TOP/lab/apply.sh"
"$LAB_TOP/lab/build.sh" patched
"$LAB_TOP/lab/selftests.sh" patched
"$LAB_TOP/lab/initramfs.sh"
set +e
"$LAB_TOP/lab/boot.sh" patched "$LAB_TOP/lab/guest/show.sh" make
rc=$?
set -e
log=$OUT/logs/make.console
cat <<SUM

================================ summary ================================
 base     $(git -C "$LINUX" log -1 --format='%h %s' "$BASE_TAG")
 series   $(series_list | grep -c . || true) patches from patches/series, branch 'patched' at $(git -C "$LINUX" rev-parse --short patched)
 kernel   $(variant_build patched)/arch/x86/boot/bzImage
 guest    ${LAB_CPUS:-4} CPUs, $(grep -c 'domain[0-9]*:' "$log" || true) domains shown, QEMU ${LAB_ACCEL:-tcg}
 features $(grep -E '^  (NO_)?NI_(RANDOM|RATE)$' "$log" | tr -d ' ' | tr '\n' ' ')
 tests    $(sed -n 's/^# \([0-9]* passed, [0-9]* failed\)$/\1/p' "$log" | tail -1)
 console  $log
 time     $(( $(date +%s) - t0 ))s
=========================================================================
SUM
exit $rc
