#!/bin/sh
# The guest's test run: the NI_RANDOM toggle, the KUnit suites that ran at
# boot, and the sched kselftests. Prints TAP; exits non-zero on a failure.
F=/sys/kernel/debug/sched/features
. /lab/tap.sh

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
	t_ok "NI_RANDOM -> NO_NI_RANDOM -> NI_RANDOM takes effect"
else
	t_notok "NI_RANDOM toggle did not take effect"
fi

# KUnit: the suites ran at boot; their KTAP is in debugfs
K=/sys/kernel/debug/kunit
if [ -d $K ]; then
	for s in $K/*/; do
		s=$(basename "$s")
		res=$K/$s/results
		sed 's/^/# /' "$res"
		if grep -q "^not ok [0-9]* $s\$" "$res" || ! grep -q "^ok [0-9]* $s" "$res"; then
			t_notok "kunit $s"
		else
			t_ok "kunit $s"
		fi
	done
else
	t_skip kunit "no KUnit in this kernel"
fi

# kselftests of the sched target, installed by lab/selftests.sh. The test
# runs twice, from two different settings of what it changes (sched/verbose,
# NI_RANDOM, NI_RATE, schedstats); each run must leave them as it found them
# and leave no process behind. A planted leaky command shows the same checks
# catching both.
knobs() {
	echo "verbose=$(cat /sys/kernel/debug/sched/verbose)" \
		"$(tr ' ' '\n' <$F | grep -E '^(NO_)?NI_(RANDOM|RATE)$' | tr '\n' ' ')" \
		"schedstats=$(cat /proc/sys/kernel/sched_schedstats)"
}
set_knobs() {
	echo "$1" >/sys/kernel/debug/sched/verbose
	echo "$2" >$F
	echo "$3" >$F
	echo "$4" >/proc/sys/kernel/sched_schedstats
}
# clean_after NAME COMM CMD...: run CMD; say whether the knobs came back and
# whether a process named COMM is left; returns 1 if either is not clean.
clean_after() {
	name=$1 comm=$2
	shift 2
	before=$(knobs)
	"$@"
	after=$(knobs)
	left=$(ps -o pid,comm | grep -c "$comm")
	[ "$after" = "$before" ] || echo "# $name changed the knobs: $before -> $after"
	[ "$left" = 0 ] || echo "# $name left processes: $(ps -o pid,comm | grep "$comm" | tr '\n' ' ')"
	[ "$after" = "$before" ] && [ "$left" = 0 ]
}
kselftest() {
	out=/tmp/kselftest.log
	(cd /lab/kselftest && ./run_kselftest.sh -t sched:newidle_gate_test) >$out 2>&1
	krc=$?
	sed 's/^/# /' $out
}
leaky() {
	echo Y >/sys/kernel/debug/sched/verbose
	echo NO_NI_RATE >$F
	printf '#!/bin/sh\nsleep 600\n' >/tmp/leaky_planted
	chmod 755 /tmp/leaky_planted
	/tmp/leaky_planted &
}
if [ -x /lab/kselftest/run_kselftest.sh ]; then
	orig=$(knobs)
	for setting in "N NI_RANDOM NI_RATE 0" "Y NO_NI_RANDOM NO_NI_RATE 1"; do
		# shellcheck disable=SC2086
		set_knobs $setting
		from=$(knobs)
		if clean_after kselftest newidle_gate_te kselftest; then
			t_ok "kselftest sched leaves the knobs and no process (from $from)"
		else
			t_notok "kselftest sched is not clean (from $from)"
		fi
		if [ $krc = 0 ] && ! grep -q '^not ok' /tmp/kselftest.log; then
			t_ok "kselftest sched (from $from)"
		else
			t_notok "kselftest sched (exit $krc, from $from)"
		fi
	done
	set_knobs N NI_RANDOM NI_RATE 0
	if clean_after "planted leak" leaky_planted leaky; then
		t_notok "negative control: a planted leak went unnoticed"
	else
		t_ok "negative control: a planted leak is caught"
	fi
	pkill leaky_planted 2>/dev/null
	# shellcheck disable=SC2046
	set_knobs $(echo "$orig" | sed 's/verbose=//; s/schedstats=//')
else
	t_skip "kselftest sched" "not installed in this initramfs"
fi

# Negative controls: the selftest built with the v7.3 dice, and with the
# plain accumulator, as its gate must fail the checks that tell them apart.
negative() {
	bin=/lab/bin/newidle_gate_test.$1
	shift
	[ -x $bin ] || return 0
	$bin >/tmp/neg.log 2>&1
	sed "s/^/# $(basename $bin): /" /tmp/neg.log | grep -E ': (not )?ok|Expected|model'
	for t in "$@"; do
		if grep -q "^not ok [0-9]* $t\$" /tmp/neg.log; then
			t_ok "negative control: $t fails with $(basename $bin)"
		else
			t_notok "negative control: $t did not fail with $(basename $bin)"
		fi
	done
}
negative dice global.model_exact global.model_lockstep live.attempts_match_gate
negative plain global.model_residues live.attempts_match_gate

t_done
