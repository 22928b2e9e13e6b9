#!/bin/bash
# 'make stress': the series under a debug kernel (KASAN, UBSAN, lockdep,
# atomic-sleep and preempt checks) while CPUs go offline and online, cpuset
# partitions rebuild the domains, features and sched/verbose toggle and a
# reader walks the newidle files; then the same run on the baseline kernel,
# so that a splat can be attributed.
# Settings: STRESS_HOTPLUG=200 STRESS_REBUILDS=100 STRESS_TOGGLES=1000
#           STRESS_VARIANTS="debug baseline-debug"  (make check: "patched", short)
#           STRESS_INJECT=1 plants a backtrace before the dmesg scan (must fail)
set -eu
. "$(dirname "$0")/lib.sh"
variants=${STRESS_VARIANTS:-debug baseline-debug}
"$LAB_TOP/lab/fetch.sh"
"$LAB_TOP/lab/apply.sh"
mkdir -p "$OUT/guest/bin"
gcc -O2 -static -pthread -o "$OUT/guest/bin/futexbench" "$LAB_TOP/bench/futexbench.c"
"$LAB_TOP/lab/initramfs.sh"
run=$OUT/run/stress.sh
mkdir -p "$OUT/run"
cat >"$run" <<SH
#!/bin/sh
export HOTPLUG=${STRESS_HOTPLUG:-200} REBUILDS=${STRESS_REBUILDS:-100} TOGGLES=${STRESS_TOGGLES:-1000}
export STRESS_INJECT=${STRESS_INJECT:-0}
exec /lab/stress.sh
SH
rc=0
for v in $variants; do
	"$LAB_TOP/lab/build.sh" "$v"
	t0=$(date +%s)
	if LAB_TIMEOUT=${LAB_TIMEOUT:-3000} "$LAB_TOP/lab/boot.sh" "$v" "$run" "stress-$v"; then
		say "stress on $v: passed in $(( $(date +%s) - t0 ))s"
	else
		say "stress on $v: FAILED after $(( $(date +%s) - t0 ))s (console: $OUT/logs/stress-$v.console)"
		rc=1
	fi
done
exit $rc
