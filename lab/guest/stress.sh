#!/bin/sh
# Guest side of 'make stress': load while CPUs go off and online, partitions
# rebuild the domains, features and sched/verbose toggle and a reader walks
# every per-domain file (on v7.3 too, to attribute a splat); then bad input.
# Only toggles read back count. STRESS_INJECT=1 plants a backtrace (sysrq-l).
HOTPLUG=${HOTPLUG:-200} REBUILDS=${REBUILDS:-100} TOGGLES=${TOGGLES:-1000}
TOGGLE_FEATURES=${TOGGLE_FEATURES:-NI_RANDOM NI_RATE}
D=/sys/kernel/debug/sched
F=$D/features
CG=/sys/fs/cgroup
T=/tmp/stress
mkdir -p $T
. /lab/tap.sh
. /lab/sched.sh
ncpu=$(grep -c ^processor /proc/cpuinfo)
echo Y >$D/verbose
# the baseline kernel (for attributing splats) has no newidle files
gate=1
[ -e $D/domains/cpu0/domain0/newidle_ratio ] || gate=0
# gated NAME OK-TEXT FAIL-TEXT CONDITION: skipped on the baseline, else CONDITION (eval'd) passes or fails
gated() { if [ $gate = 0 ]; then t_skip "$1" "no newidle gate in this kernel"; elif eval "$4"; then t_ok "$2"; else t_notok "$3"; fi; }
echo "# $ncpu CPUs; targets: $HOTPLUG hotplug cycles, $REBUILDS domain rebuilds, $TOGGLES toggles"

# --- load until told to stop; a futexbench start that finds its CPU offline
# is counted apart, not as a failure
: >$T/load
: >$T/unbound
(
	while [ ! -e $T/stop ]; do
		rc=0
		futexbench -t 8 -w 4 -r 2 >$T/futex.run 2>&1 || rc=$?
		cat $T/futex.run >>$T/futex.log
		if [ $rc != 0 ]; then
			if grep -q 'cannot bind a worker' $T/futex.run; then echo x >>$T/unbound
			else echo "futexbench exit $rc: $(tail -n 1 $T/futex.run)" >>$T/load; fi
		fi
		if command -v hackbench >/dev/null; then
			rc=0
			hackbench -g 2 -l 50 >$T/hackbench.run 2>&1 || rc=$?
			[ $rc = 0 ] || echo "hackbench exit $rc: $(tail -n 1 $T/hackbench.run)" >>$T/load
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
	while [ $c -lt "$REBUILDS" ] && [ $tries -lt $((REBUILDS * 5)) ]; do
		tries=$((tries + 1))
		rebuild_domains "$((ncpu / 2))-$((ncpu - 1))" && c=$((c + 2))
	done
	echo $c >$T/rebuild.count
) &

# --- toggles: every feature and verbose off and on, each write read back
(
	tried=0 fc=0 vc=0
	while [ $tried -lt "$TOGGLES" ]; do
		for f in $TOGGLE_FEATURES; do
			for want in NO_$f $f; do
				tried=$((tried + 1))
				set_feat $want && fc=$((fc + 1))
			done
		done
		for want in N Y; do
			tried=$((tried + 1))
			echo $want >$D/verbose 2>/dev/null && [ "$(cat $D/verbose)" = $want ] && vc=$((vc + 1))
		done
	done
	echo "$tried $fc $vc" >$T/toggle.count.new
	mv $T/toggle.count.new $T/toggle.count
) &

# --- reader: every per-domain file, the series' newidle_* counted apart
(
	c=0 n=0
	while [ ! -e $T/stop ]; do
		for f in $D/domains/cpu*/domain*/*; do
			cat "$f" >/dev/null 2>&1 || continue
			c=$((c + 1))
			case $f in */newidle_*) n=$((n + 1)) ;; esac
		done
	done
	echo "$c $n" >$T/read.count
) &

# wait for the bounded loops, then stop the open-ended ones
while [ ! -e $T/hotplug.count ] || [ ! -e $T/rebuild.count ] || [ ! -e $T/toggle.count ]; do sleep 1; done
touch $T/stop
wait

hp=$(cat $T/hotplug.count) rb=$(cat $T/rebuild.count)
read -r rd rn <$T/read.count
read -r tg fc vc <$T/toggle.count
echo "# achieved: $hp hotplug cycles, $rb domain rebuilds, $((fc + vc)) of $tg toggles read back, $rd per-domain file reads ($rn newidle_*)"
[ "$hp" -ge "$HOTPLUG" ] && t_ok "hotplug cycles: $hp" || t_notok "hotplug cycles: $hp < $HOTPLUG"
[ "$rb" -ge "$REBUILDS" ] && t_ok "domain rebuilds: $rb" || t_notok "domain rebuilds: $rb < $REBUILDS"
nf=$(echo $TOGGLE_FEATURES | wc -w)
fw=$((tg * nf * 2 / (nf * 2 + 2)))
[ "$fc" = "$fw" ] && [ "$fc" -gt 0 ] && t_ok "feature toggles ($TOGGLE_FEATURES): $fc of $fw writes read back" ||
	t_notok "feature toggles ($TOGGLE_FEATURES): $fc of $fw writes read back"
[ "$vc" = "$((tg - fw))" ] && [ "$vc" -gt 0 ] && t_ok "sched/verbose toggles: $vc of $((tg - fw)) writes read back" ||
	t_notok "sched/verbose toggles: $vc of $((tg - fw)) writes read back"
[ "$tg" -ge "$TOGGLES" ] && t_ok "toggles: $tg writes" || t_notok "toggles: $tg < $TOGGLES"
[ "$rd" -gt 0 ] && t_ok "per-domain files read during the churn: $rd" || t_notok "no per-domain file was read"
gated "newidle files read during the churn" "newidle files read during the churn: $rn" "no newidle file was read" '[ "$rn" -gt 0 ]'
if [ -s $T/load ]; then t_notok "workloads failed: $(sort $T/load | uniq -c | tr '\n' ' ')"
elif [ "$(grep -c completions_per_s $T/futex.log)" = 0 ]; then t_notok "no futexbench run finished"
else t_ok "workloads finished with results ($(grep -c completions_per_s $T/futex.log) futexbench runs; $(grep -c . $T/unbound) started as a CPU they bind to was offline)"; fi
grep -q 'completions_per_s=0\.0 ' $T/futex.log && t_notok "a futexbench run completed nothing" || t_ok "every futexbench run completed work"

# --- bad input: each write fails and changes nothing
echo Y >$D/verbose
feat_mid="$(feat NI_RANDOM) $(feat NI_RATE)"
long=$(head -c 5000 /dev/zero | tr '\0' 'A')
for junk in FOO NO_ "NI_RANDOM_X" "$long" "NI_RANDOM NI_RATE" "-1"; do
	if echo "$junk" >$F 2>/dev/null; then t_notok "sched/features accepted '$(echo "$junk" | cut -c1-20)'"; fi
done
[ "$(feat NI_RANDOM) $(feat NI_RATE)" = "$feat_mid" ] && t_ok "garbage to sched/features rejected, features unchanged" ||
	t_notok "features changed by garbage: $feat_mid -> $(feat NI_RANDOM) $(feat NI_RATE)"
bad=0
# (the values move on their own; a value no domain can hold shows a write)
[ $gate = 1 ] && for f in $D/domains/cpu1/domain0/newidle_*; do
	echo 777777 >"$f" 2>/dev/null && bad=$((bad + 1))
	[ "$(cat "$f")" != 777777 ] || bad=$((bad + 1))
done
gated "writes to read-only newidle files" "writes to read-only newidle files fail and change nothing" \
	"$bad writes to read-only newidle files took effect" '[ $bad = 0 ]'

# --- end state
off=$(grep -L 1 /sys/devices/system/cpu/cpu*/online 2>/dev/null | wc -l)
[ "$off" = 0 ] && [ "$(grep -c ^processor /proc/cpuinfo)" = "$ncpu" ] && t_ok "all $ncpu CPUs online at the end" || t_notok "$off CPUs offline at the end"
out=0
[ $gate = 1 ] && for f in $D/domains/cpu*/domain*/newidle_ratio; do
	[ "$(cat "$f")" -le 1024 ] || { out=$((out + 1)); echo "# out of range: $f = $(cat "$f")"; }
done
gated "every ratio in range" "every ratio in range" "$out values out of range" '[ $out = 0 ]'
echo NI_RANDOM >$F; echo NI_RATE >$F

# --- splats (STRESS_INJECT=1 plants one first: the negative control)
[ "${STRESS_INJECT:-0}" = 1 ] && echo l >/proc/sysrq-trigger
dmesg >$T/dmesg
grep -v -e '^#' -e '^$' /lab/splats >$T/splats
splats=$(grep -c -E -f $T/splats $T/dmesg)
if [ "$splats" = 0 ]; then t_ok "0 splats in dmesg"; else
	t_notok "$splats splat lines in dmesg"
	grep -E -A12 -f $T/splats $T/dmesg | head -80 | sed 's/^/# /'
fi
t_done
