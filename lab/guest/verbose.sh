#!/bin/sh
# sched/verbose set again after some CPUs' domains were rebuilt while it
# was off: every online CPU must have its domain files. v7.3 makes only
# the rebuilt CPUs' (34320745dfc9). Needs 4 CPUs; puts back what it changes.
. /lab/tap.sh
. /lab/sched.sh
V=/sys/kernel/debug/sched/verbose D=/sys/kernel/debug/sched/domains
orig=$(cat $V)
# missing: the online CPUs without a first domain directory
missing() {
	for c in $(seq 0 $(($(nproc) - 1))); do
		[ -d $D/cpu$c/domain0 ] || printf ' cpu%s' "$c"
	done
}
# a partition of CPUs 2-3, so that a hotplug of CPU 3 rebuilds the domains
# of CPUs 2 and 3 and keeps those of 0 and 1
if [ "$(nproc)" -lt 4 ] || ! partition 2-3; then
	t_skip "verbose: every CPU's domain files" "needs 4 CPUs and a cgroup2 cpuset"
	t_done
	exit
fi
echo Y >$V
before=$(missing)
echo N >$V
echo 0 >/sys/devices/system/cpu/cpu3/online && echo 1 >/sys/devices/system/cpu/cpu3/online
echo Y >$V
after=$(missing)
echo "# domains/: $(ls $D | tr '\n' ' ')"
t_check "verbose: every online CPU's domain files at the first Y${before:+ (missing:$before)}" test -z "$before"
t_check "verbose: and at Y again after CPU 3 went off and on${after:+ (missing:$after)}" test -z "$after"
partition off
echo "$orig" >$V
t_done
