# shellcheck shell=sh
# The scheduler's knobs as the lab's guest scripts and bench/aba.sh use
# them (POSIX sh, busybox too): sourced. In the guest it is /lab/sched.sh;
# on bare metal bench/aba.sh finds it at lab/guest/sched.sh.
SCHED_FEATURES=${SCHED_FEATURES:-/sys/kernel/debug/sched/features}

# feat NAME: the feature's state as the features file shows it, NAME or
# NO_NAME; fails when the kernel has no such feature
feat() { tr ' ' '\n' <"$SCHED_FEATURES" | grep -E "^(NO_)?$1\$"; }

# feats: the newidle features (NI_*) as they are, on one line (no newline:
# for $(feats)); feat_lines: the same, one per line
feats() { feat_lines | tr '\n' ' ' | sed 's/ $//'; }
feat_lines() { tr ' ' '\n' <"$SCHED_FEATURES" | grep -E '^(NO_)?NI_'; }

# set_feat SETTING: write NAME or NO_NAME and read it back; fails when it
# did not take effect
set_feat() {
	echo "$1" >"$SCHED_FEATURES" 2>/dev/null || return 1
	[ "$(feat "${1#NO_}")" = "$1" ]
}

# rebuild_domains CPUS: rebuild the sched domains, a cpuset partition of
# CPUS switched to root and back to member (cgroup2 with cpuset)
# (the cgroup is removed again whatever happened; its status is the switch's)
rebuild_domains() {
	rd_cg=/sys/fs/cgroup
	rd_rc=1
	if echo +cpuset >$rd_cg/cgroup.subtree_control 2>/dev/null && mkdir -p $rd_cg/lab-rebuild; then
		echo "$1" >$rd_cg/lab-rebuild/cpuset.cpus 2>/dev/null &&
			echo root >$rd_cg/lab-rebuild/cpuset.cpus.partition 2>/dev/null &&
			echo member >$rd_cg/lab-rebuild/cpuset.cpus.partition 2>/dev/null && rd_rc=0
		rmdir $rd_cg/lab-rebuild 2>/dev/null
	fi
	return $rd_rc
}
