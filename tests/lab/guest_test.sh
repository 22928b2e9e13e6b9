#!/bin/bash
# The guest runner's failure paths on the patched kernel, and the build
# layout that lets ccache hit across trees.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
export LAB_TIMEOUT=300 LAB_CPUS=2 LAB_SOCKETS=1
# guest NAME LINE...: a boot running these lines (console test-NAME, output $scratch/out); prints its exit
guest() { local rc=0; script "$scratch/$1.sh" "${@:2}"; "$top/lab/steps/boot.sh" patched "$scratch/$1.sh" "test-$1" >"$scratch/out" 2>&1 || rc=$?; echo "$rc"; }

rc=$(guest fail 'echo "ok 1 # about to fail"' 'exit 3')
t_check "a guest whose test fails makes the runner exit with its status ($rc)" test "$rc" = 3

rc=$(guest panic 'echo c >/proc/sysrq-trigger' 'sleep 60')
t_check "a guest that panics makes the runner fail ($rc)" test "$rc" != 0
t_check "the panic is named" grep -q 'the guest kernel panicked' "$scratch/out"
t_check "the console tail is shown" grep -q -- '----- last 50 console lines' "$scratch/out"
t_check "the tail holds the panic, marked as console lines" grep -q '^| .*Kernel panic' "$scratch/out"

# a backtrace with sysrq-l: the kernel's splat, in a guest whose script passes
rc=$(guest splat 'echo l >/proc/sysrq-trigger' 'sleep 1' 'echo "ok 1 - all fine here"' 'exit 0')
t_check "a kernel splat fails a guest whose script passed ($rc)" test "$rc" != 0
t_check "the splat is named" grep -q 'kernel splat(s) in .*test-splat.console' "$scratch/out"
t_check "with its first line" grep -q 'line [0-9]*: NMI backtrace for cpu' "$scratch/out"
t_check "the saved console is judged the same way again, without booting" \
	eval '! "$top/lab/steps/judge.sh" "$OUT/logs/test-splat.console" >/dev/null'
t_check "negative control: the same console, its splat declared expected, passes the judge" \
	eval '"$top/lab/steps/judge.sh" "$OUT/logs/test-splat.console" --expect "NMI backtrace for cpu" >"$scratch/judge.out"'
t_check "negative control: and the splat is reported as expected" grep -q 'expected splat(s)' "$scratch/judge.out"

# a guest whose init never starts the lab's script: silent
rc=$(LAB_START_TIMEOUT=20 LAB_APPEND="rdinit=/bin/busybox -- sleep 600" guest silent 'exit 0')
t_check "a guest that prints nothing fails at LAB_START_TIMEOUT, not the full timeout ($rc)" \
	grep -q 'printed nothing of its own within 20s' "$scratch/out"

LAB_TIMEOUT=30 guest hang 'sleep 600' >/dev/null
t_check "a guest that hangs is killed at the timeout and fails" grep -q 'did not finish within 30s' "$scratch/out"

# ccache across trees: the kernel names its sources relative to the build
b=$(variant_build patched)
t_check "build: the patched kernel is built inside its tree (out/linux/.build-patched)" test "$b" = "$LINUX/.build-patched"
t_check "build: out/build/patched leads there" test "$(readlink -f "$OUT/build/patched")" = "$(readlink -f "$b")"
t_check "build: no absolute source path in the compiler's command lines (ccache hits across trees)" \
	eval '! grep -q "$LINUX" "$b/kernel/sched/.core.o.cmd"'
t_check "build: the sources are named relative to the build (srctree ..)" grep -q ' \.\./kernel/sched/core\.c' "$b/kernel/sched/.core.o.cmd"
t_done
