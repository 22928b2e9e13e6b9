#!/bin/sh
# The guest's tests: the NI_* toggles, the KUnit suites run at boot, the sched
# kselftests and their negative controls. Usage: tests.sh [check] (check:
# the controls' expected failures in full).
F=/sys/kernel/debug/sched/features
mode=${1:-}
. /lab/tap.sh
. /lab/sched.sh
# a negative control's leftovers must not pollute the next
kill_all() { ps -o pid,comm | awk -v c="$1" '$2 == c { print $1 }' | xargs -r kill -9 2>/dev/null || true; }

echo "TAP version 13"
for f in NI_RANDOM NI_RATE; do
	before=$(feat $f)
	steps=""
	for want in NO_$f $f; do
		echo $want >$F
		got=$(feat $f)
		steps="$steps $got"
		[ "$got" = "$want" ] || break
	done
	echo "# $f toggle: $before ->$steps"
	t_check "$f -> NO_$f -> $f takes effect" test "$before$steps" = "$f NO_$f $f"
done

K=/sys/kernel/debug/kunit
if [ -d $K ]; then
	for s in $K/*/; do
		s=$(basename "$s")
		res=$K/$s/results
		sed 's/^/# /' "$res"
		if grep -q "^not ok [0-9]* $s\$" "$res" || ! grep -q "^ok [0-9]* $s" "$res"; then t_notok "kunit $s"; else t_ok "kunit $s"; fi
	done
else
	t_skip kunit "no KUnit in this kernel"
fi

# lab/guest/verbose.sh (also run alone on v7.3, where it fails)
sh /lab/verbose.sh >/tmp/verbose.tap 2>&1
sed -n 's/^# /# verbose.sh: /p' /tmp/verbose.tap
grep -E '^(not )?ok [0-9]+ - ' /tmp/verbose.tap | sed -E 's/^(not )?ok [0-9]+ - /\1/' >/tmp/verbose.res
while read -r res; do
	case $res in
	"not "*) t_notok "${res#not }" ;;
	*"# SKIP "*) t_skip "${res%% # SKIP *}" "${res#* # SKIP }" ;;
	*) t_ok "$res" ;;
	esac
done </tmp/verbose.res

# The kselftest runs from two settings of the knobs it changes: each run must
# leave them and no process; a planted leak shows the checks catch both.
knobs() {
	echo "verbose=$(cat /sys/kernel/debug/sched/verbose)" "$(feats)" \
		"schedstats=$(cat /proc/sys/kernel/sched_schedstats)"
}
set_knobs() {
	echo "$1" >/sys/kernel/debug/sched/verbose
	for f in "$2" "$3"; do echo "$f" >$F; done
	echo "$4" >/proc/sys/kernel/sched_schedstats
}
# clean_after NAME COMM CMD...: fails when CMD changed the knobs or left a COMM
clean_after() {
	name=$1 comm=$2
	shift 2
	before=$(knobs)
	"$@"
	after=$(knobs)
	# a helper may take a second to see its test gone (orphan-checked.patch)
	for i in 1 2 3; do
		left=$(ps -o pid,comm | grep -c "$comm")
		[ "$left" = 0 ] && break
		sleep 1
	done
	[ "$after" = "$before" ] || echo "# $name changed the knobs: $before -> $after"
	[ "$left" = 0 ] || echo "# $name left processes: $(ps -o pid,comm | grep "$comm" | tr '\n' ' ')"
	[ "$after" = "$before" ] && [ "$left" = 0 ]
}
kselftest() {
	out=/tmp/kselftest.log
	(cd /lab/kselftest && ./run_kselftest.sh -o 300 -t sched:newidle_gate_test) >$out 2>&1
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
		t_check "kselftest sched leaves the knobs and no process (from $from)" clean_after kselftest newidle_gate_te kselftest
		if [ $krc = 0 ] && ! grep -q '^not ok' /tmp/kselftest.log; then t_ok "kselftest sched (from $from)"
		else t_notok "kselftest sched (exit $krc, from $from)"; fi
	done
	set_knobs N NI_RANDOM NI_RATE 0
	if clean_after "planted leak" leaky_planted leaky; then t_notok "negative control: a planted leak went unnoticed"
	else t_ok "negative control: a planted leak is caught"; fi
	kill_all leaky_planted
	# shellcheck disable=SC2046
	set_knobs $(echo "$orig" | sed 's/verbose=//; s/schedstats=//')
else
	t_skip "kselftest sched" "not installed in this initramfs"
fi

# Negative controls: each must fail the tests its patch names, and leave the
# knobs and no process, unless it says it leaves changes; what it says it
# must print, and no other may print stop()'s "still ran".
still="# the test still ran at the restore"
for bin in /lab/bin/newidle_gate_test.*; do
	case $bin in *.fails|*.run|*.leaves|*.term|*.says|*'*'*) continue ;; esac
	name=$(basename "$bin")
	clean=yes
	cmd="$bin $(cat "$bin.run") >/tmp/neg.log 2>&1"
	# term: the harness gets SIGTERM that many seconds in, from verbose Y,
	# where a test left running goes on (at N its domain files are gone)
	if [ -s "$bin.term" ]; then
		set_knobs Y NI_RANDOM NI_RATE 0
		cmd="$cmd & sleep $(cat "$bin.term"); kill -TERM \$!; wait \$!"
	fi
	clean_after "$name" newidle_gate_te sh -c "$cmd" || clean=no
	kill_all newidle_gate_te
	# leaves: changes (seen), maybe (not checked), or none (clean)
	leaves=$(cat "$bin.leaves")
	if [ -z "$leaves" ]; then
		[ $clean = yes ] && t_ok "$name leaves the knobs and no process" || t_notok "$name is not clean"
	elif [ "$leaves" != maybe ]; then
		[ $clean = no ] && t_ok "negative control: the changes $name leaves are seen" ||
			t_notok "negative control: the changes $name leaves went unseen"
	fi
	[ -z "$leaves$(cat "$bin.term")" ] || set_knobs N NI_RANDOM NI_RATE 0
	if [ "$mode" = check ]; then
		sed "s/^/# $name: /" /tmp/neg.log | grep -E ': (not )?ok|Expected|windows and|timeout' | head -n 20
	else
		echo "# $name: $(grep -c 'Expected\|terminated by timeout' /tmp/neg.log) expected failure(s) (make check logs them)"
	fi
	says=$(cat "$bin.says")
	if [ -n "$says" ]; then
		# its '#' dropped: '# SKIP' in a description would be TAP's skip
		t_check "negative control: $name says '$(echo "$says" | tr -d '#')'" grep -qxF "$says" /tmp/neg.log
	elif grep -qxF "$still" /tmp/neg.log; then
		t_notok "$name: '$still'"
	fi
	for t in $(cat "$bin.fails"); do
		t_check "negative control: $t fails with $name" grep -q "^not ok [0-9]* $t\$" /tmp/neg.log
	done
done

t_done
