#!/bin/sh
# The guest's test run: the NI_RANDOM toggle, the KUnit suites that ran at
# boot, and the sched kselftests. Prints TAP; exits non-zero on a failure.
F=/sys/kernel/debug/sched/features
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
notok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $*"; }

feat() { tr ' ' '\n' <$F | grep -E "^(NO_)?$1\$"; }

echo "TAP version 13"
# NI_RANDOM -> NO_NI_RANDOM -> NI_RANDOM, read back after each write
before=$(feat NI_RANDOM)
steps=""
for want in NO_NI_RANDOM NI_RANDOM; do
	echo $want >$F
	got=$(feat NI_RANDOM)
	steps="$steps $got"
	[ "$got" = "$want" ] || break
done
echo "# NI_RANDOM toggle: $before ->$steps"
if [ "$before" = NI_RANDOM ] && [ "$steps" = " NO_NI_RANDOM NI_RANDOM" ]; then
	ok "NI_RANDOM -> NO_NI_RANDOM -> NI_RANDOM takes effect"
else
	notok "NI_RANDOM toggle did not take effect"
fi

# KUnit: the suites ran at boot; their KTAP is in debugfs
K=/sys/kernel/debug/kunit
if [ -d $K ]; then
	for s in $K/*/; do
		s=$(basename "$s")
		res=$K/$s/results
		sed 's/^/# /' "$res"
		if grep -q "^not ok [0-9]* $s\$" "$res" || ! grep -q "^ok [0-9]* $s" "$res"; then
			notok "kunit $s"
		else
			ok "kunit $s"
		fi
	done
else
	ok "kunit # SKIP no KUnit in this kernel"
fi

# kselftests of the sched target, installed by lab/selftests.sh
if [ -x /lab/kselftest/run_kselftest.sh ]; then
	out=/tmp/kselftest.log
	(cd /lab/kselftest && ./run_kselftest.sh -t sched:newidle_gate_test) >$out 2>&1
	rc=$?
	sed 's/^/# /' $out
	if [ $rc = 0 ] && ! grep -q '^not ok' $out; then
		ok "kselftest sched"
	else
		notok "kselftest sched (exit $rc)"
	fi
else
	ok "kselftest sched # SKIP not installed in this initramfs"
fi

# Negative control: the selftest built with the v7.3 dice as its gate must
# fail its model checks and its live prediction.
neg=/lab/bin/newidle_gate_test.dice
if [ -x $neg ]; then
	$neg >/tmp/neg.log 2>&1
	sed 's/^/# dice: /' /tmp/neg.log | grep -E '^# dice: (not )?ok|Expected|predicts'
	for t in global.model_spacing global.model_windows global.model_lockstep live.attempts_match_gate; do
		if grep -q "^not ok [0-9]* $t\$" /tmp/neg.log; then
			ok "negative control: $t fails with the v7.3 dice"
		else
			notok "negative control: $t did not fail with the v7.3 dice"
		fi
	done
fi

echo "1..$n"
echo "# $((n - failed)) passed, $failed failed"
[ $failed = 0 ]
