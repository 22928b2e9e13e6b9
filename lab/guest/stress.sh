#!/bin/sh
# Guest side of 'make stress': wake-heavy load while CPUs go offline and
# online, cpuset partitions rebuild the sched domains, NI_RANDOM / NI_RATE
# and sched/verbose are toggled and a reader walks every per-domain newidle
# file; then bad input; then the verdict. Targets from the environment:
HOTPLUG=${HOTPLUG:-200} REBUILDS=${REBUILDS:-100} TOGGLES=${TOGGLES:-1000}
# (STRESS_INJECT=1 triggers a backtrace with sysrq-l before the dmesg scan)
# Prints TAP; exits non-zero on a failure.
D=/sys/kernel/debug/sched
F=$D/features
CG=/sys/fs/cgroup
T=/tmp/stress
mkdir -p $T
n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
notok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $*"; }
feat() { tr ' ' '\n' <$F | grep -E "^(NO_)?$1\$"; }
ncpu=$(grep -c ^processor /proc/cpuinfo)
echo Y >$D/verbose
dmesg -n 1
# the baseline kernel (for attributing splats) has no newidle files
gate=1
[ -e $D/domains/cpu0/domain0/newidle_gate ] || gate=0
skip() { n=$((n + 1)); echo "ok $n $* # SKIP no newidle gate in this kernel"; }
echo "# $ncpu CPUs; targets: $HOTPLUG hotplug cycles, $REBUILDS domain rebuilds, $TOGGLES toggles"
feat_before="$(feat NI_RANDOM) $(feat NI_RATE)"

# --- load: futexbench and hackbench until told to stop
: >$T/load
(
	while [ ! -e $T/stop ]; do
		futexbench -t 8 -w 4 -r 2 >>$T/futex.log 2>&1 || echo "futexbench exit $?" >>$T/load
		if command -v hackbench >/dev/null; then
			hackbench -g 2 -l 50 >>$T/hackbench.log 2>&1 || echo "hackbench exit $?" >>$T/load
		fi
	done
) &

# --- hotplug: offline and online every CPU but 0, one cycle each
(
	c=0 tries=0
	while [ $c -lt "$HOTPLUG" ] && [ $tries -lt $((HOTPLUG * 5)) ]; do
		tries=$((tries + 1))
		for cpu in $(seq 1 $((ncpu - 1))); do
			f=/sys/devices/system/cpu/cpu$cpu/online
			echo 0 >$f 2>>$T/hotplug.err && echo 1 >$f 2>>$T/hotplug.err && c=$((c + 1))
			[ $c -ge "$HOTPLUG" ] && break
		done
	done
	echo $c >$T/hotplug.count
) &

# --- domain rebuilds: a cpuset partition switched between root and member
(
	c=0 tries=0
	if echo +cpuset >$CG/cgroup.subtree_control 2>/dev/null && mkdir -p $CG/lab; then
		half=$((ncpu / 2))
		while [ $c -lt "$REBUILDS" ] && [ $tries -lt $((REBUILDS * 5)) ]; do
			tries=$((tries + 1))
			echo "$half-$((ncpu - 1))" >$CG/lab/cpuset.cpus 2>/dev/null
			echo root >$CG/lab/cpuset.cpus.partition 2>/dev/null &&
				echo member >$CG/lab/cpuset.cpus.partition 2>/dev/null && c=$((c + 2))
		done
		rmdir $CG/lab 2>/dev/null
	fi
	echo $c >$T/rebuild.count
) &

# --- toggles: features and sched/verbose
(
	c=0
	while [ $c -lt "$TOGGLES" ]; do
		echo NO_NI_RANDOM >$F; echo NI_RANDOM >$F
		echo NO_NI_RATE >$F; echo NI_RATE >$F
		echo N >$D/verbose; echo Y >$D/verbose
		c=$((c + 6))
	done
	echo $c >$T/toggle.count
) &

# --- reader: every per-domain newidle file, while all of the above go on
(
	c=0
	while [ ! -e $T/stop ]; do
		for f in $D/domains/cpu*/domain*/newidle_*; do
			cat "$f" >/dev/null 2>&1 && c=$((c + 1))
		done
	done
	echo $c >$T/read.count
) &

# wait for the bounded loops, then stop the open-ended ones
while [ ! -e $T/hotplug.count ] || [ ! -e $T/rebuild.count ] || [ ! -e $T/toggle.count ]; do
	sleep 1
done
touch $T/stop
wait

hp=$(cat $T/hotplug.count) rb=$(cat $T/rebuild.count) tg=$(cat $T/toggle.count) rd=$(cat $T/read.count)
echo "# achieved: $hp hotplug cycles, $rb domain rebuilds, $tg toggles, $rd newidle file reads"
[ "$hp" -ge "$HOTPLUG" ] && ok "hotplug cycles: $hp" || notok "hotplug cycles: $hp < $HOTPLUG"
[ "$rb" -ge "$REBUILDS" ] && ok "domain rebuilds: $rb" || notok "domain rebuilds: $rb < $REBUILDS"
[ "$tg" -ge "$TOGGLES" ] && ok "feature and verbose toggles: $tg" || notok "toggles: $tg < $TOGGLES"
if [ $gate = 0 ]; then skip "newidle files read during the churn"
elif [ "$rd" -gt 0 ]; then ok "newidle files read during the churn: $rd"
else notok "no newidle file was read"; fi
if [ -s $T/load ]; then notok "workloads failed: $(sort $T/load | uniq -c | tr '\n' ' ')"
else ok "workloads finished with results ($(grep -c completions_per_s $T/futex.log) futexbench runs)"; fi
grep -q 'completions_per_s=0\.0 ' $T/futex.log && notok "a futexbench run completed nothing" ||
	ok "every futexbench run completed work"

# --- bad input: each write fails and changes nothing
echo Y >$D/verbose
feat_mid="$(feat NI_RANDOM) $(feat NI_RATE)"
long=$(head -c 5000 /dev/zero | tr '\0' 'A')
for junk in FOO NO_ "NI_RANDOM_X" "$long" "NI_RANDOM NI_RATE" "-1"; do
	if echo "$junk" >$F 2>/dev/null; then notok "sched/features accepted '$(echo "$junk" | cut -c1-20)'"; fi
done
[ "$(feat NI_RANDOM) $(feat NI_RATE)" = "$feat_mid" ] && ok "garbage to sched/features rejected, features unchanged" ||
	notok "features changed by garbage: $feat_mid -> $(feat NI_RANDOM) $(feat NI_RATE)"
bad=0
# (the values move on their own; a value no domain can hold shows a write)
[ $gate = 1 ] && for f in $D/domains/cpu1/domain0/newidle_*; do
	echo 777777 >"$f" 2>/dev/null && bad=$((bad + 1))
	[ "$(cat "$f")" != 777777 ] || bad=$((bad + 1))
done
if [ $gate = 0 ]; then skip "writes to read-only newidle files"
elif [ $bad = 0 ]; then ok "writes to read-only newidle files fail and change nothing"
else notok "$bad writes to read-only newidle files took effect"; fi

# --- end state
off=$(grep -L 1 /sys/devices/system/cpu/cpu*/online 2>/dev/null | wc -l)
[ "$off" = 0 ] && [ "$(grep -c ^processor /proc/cpuinfo)" = "$ncpu" ] && ok "all $ncpu CPUs online at the end" ||
	notok "$off CPUs offline at the end"
out=0
# the gate: left=0..2047 offset=0..1023 band=0..2047
[ $gate = 1 ] && for f in $D/domains/cpu*/domain*/newidle_gate; do
	g=$(cat "$f")
	echo "$g" | awk -F'[= ]' 'NF == 6 && $1 == "left" && $2 <= 2047 && $3 == "offset" && $4 <= 1023 &&
		$5 == "band" && $6 <= 2047 { ok = 1 } END { exit !ok }' ||
		{ out=$((out + 1)); echo "# out of range: $f = $g"; }
done
[ $gate = 1 ] && for f in $D/domains/cpu*/domain*/newidle_ratio; do
	[ "$(cat "$f")" -le 1024 ] || { out=$((out + 1)); echo "# out of range: $f = $(cat "$f")"; }
done
if [ $gate = 0 ]; then skip "every gate and ratio in range"
elif [ $out = 0 ]; then ok "every gate and ratio in range"
else notok "$out values out of range"; fi
echo "$feat_before" | tr ' ' '\n' >$T/want
echo NI_RANDOM >$F; echo NI_RATE >$F

# --- splats (STRESS_INJECT=1 plants one first: the negative control)
[ "${STRESS_INJECT:-0}" = 1 ] && echo l >/proc/sysrq-trigger
dmesg >$T/dmesg
splats=$(grep -c -E 'WARNING:|BUG:|KASAN|UBSAN|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|rcu_sched detected stall|rcu: INFO: .* detected stalls|scheduling while atomic|Call Trace' $T/dmesg)
if [ "$splats" = 0 ]; then ok "0 splats in dmesg"; else
	notok "$splats splat lines in dmesg"
	grep -E -A12 'WARNING:|BUG:|KASAN|UBSAN|possible circular|inconsistent lock|suspicious RCU|detected stall|scheduling while atomic' $T/dmesg | head -80 | sed 's/^/# /'
fi
echo "1..$n"
echo "# $((n - failed)) passed, $failed failed"
[ $failed = 0 ]
