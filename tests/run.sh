#!/bin/bash
# 'make check': every test of the project. Each part prints TAP; this counts
# the results and ends with one line 'N passed, N failed'.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
. lab/lib.sh
t0=$(date +%s)
passed=0
failed=0
mkdir -p "$OUT/logs"

# part NAME COMMAND...: run a part, echo its TAP, count its ok / not ok lines;
# a part that exits non-zero without a failing line counts as one failure.
part() {
	local name=$1 log=$OUT/logs/check-$1.log rc p f
	shift
	say "== $name"
	set +e
	"$@" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	set -e
	p=$(grep -c -E '^ok [0-9]+' "$log" || true)
	f=$(grep -c -E '^not ok [0-9]+' "$log" || true)
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		f=1
		echo "not ok - $name exited $rc"
	fi
	passed=$((passed + p))
	failed=$((failed + f))
	say "== $name: $p passed, $f failed ($(( $(date +%s) - t0 ))s so far)"
}

# prepare: what the guest parts need; stops the run when it fails
prepare() {
	lab/fetch.sh && lab/apply.sh && lab/build.sh patched &&
		lab/selftests.sh patched && lab/initramfs.sh
}

lab/deps.sh
part lab-apply tests/lab/apply_test.sh
if ! prepare; then
	echo "not ok - building the patched kernel failed; guest tests not run"
	failed=$((failed + 1))
else
	part sim sim/run.sh check
	part checkpatch tests/lab/checkpatch_test.sh
	part lkml env LKML_CHECKS="checkpatch am spelling docs" lab/lkml.sh
	part guest lab/boot.sh patched lab/guest/tests.sh check
	part lab-guest tests/lab/guest_test.sh
	part bench tests/bench_test.sh
	part stress tests/stress_test.sh
	part tester-kernels tests/tester_kernels_test.sh
fi

echo "make check took $(( $(date +%s) - t0 ))s"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
