#!/bin/bash
# The guest runner's failure paths, on the built patched kernel: a guest
# whose tests fail exits non-zero; a guest that panics fails and shows the
# console tail.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lib.sh"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
export LAB_TIMEOUT=${LAB_TIMEOUT:-300} LAB_CPUS=2 LAB_SOCKETS=1

printf '#!/bin/sh\necho "ok 1 # about to fail"\nexit 3\n' >"$w/fail.sh"
if "$top/lab/boot.sh" patched "$w/fail.sh" test-fail >"$w/out" 2>&1; then rc=0; else rc=$?; fi
t_check "a guest whose test fails makes the runner exit non-zero ($rc)" test "$rc" = 3

printf '#!/bin/sh\necho c >/proc/sysrq-trigger\nsleep 60\n' >"$w/panic.sh"
if "$top/lab/boot.sh" patched "$w/panic.sh" test-panic >"$w/out" 2>&1; then rc=0; else rc=$?; fi
t_check "a guest that panics makes the runner fail ($rc)" test "$rc" != 0
t_check "the panic is named" grep -q 'the guest kernel panicked' "$w/out"
t_check "the console tail is shown" grep -q -- '----- last 50 console lines' "$w/out"
t_check "the tail holds the panic" grep -q 'Kernel panic' "$w/out"

printf '#!/bin/sh\nsleep 600\n' >"$w/hang.sh"
if LAB_TIMEOUT=20 "$top/lab/boot.sh" patched "$w/hang.sh" test-hang >"$w/out" 2>&1; then rc=0; else rc=$?; fi
t_check "a guest that hangs is killed at the timeout and fails" \
	grep -q 'did not finish within 20s' "$w/out"
t_done
